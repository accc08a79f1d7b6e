// The request journal behind GET /__mock/requests: a fixed-size ring buffer, so a long run keeps
// memory flat. A request is noted as it was (its header object as Node parsed it, its raw query,
// its time as a number) and made into an entry only when someone reads the journal: redacting and
// formatting every request as it ended cost the mock a share of its rate (fast path: see
// docs/performance.md §10.7), and most are never read. Nothing leaves the journal unredacted:
// entries() is its only way out.
import { CREDENTIAL_HEADERS, CREDENTIAL_QUERY } from '../../http/credential-headers.ts';
import { isoTimestamp } from '../../log/clock.ts';

/** A request as the journal notes it. */
export interface JournalRecord {
  /** Epoch milliseconds. */
  time: number;
  method: string;
  path: string;
  /** The raw query string, secrets and all (redacted when read). */
  query: string;
  status: number;
  durationMs: number;
  operationId?: string;
  /** The request headers as received (redacted when read); the journal keeps the object, so do not change it after. */
  headers: Record<string, string | undefined>;
  /** Why the request was refused, in short. */
  problems?: string[];
  /** The proxy's: where the contract was broken (request or answer), in the Plantstore-Violations form. */
  violations?: Array<{ where: 'request' | 'response'; code: string; pointer: string; message: string }>;
  /** The proxy's: who answered. */
  source?: 'upstream' | 'mock';
  /**
   * The fault the request was answered with (reset, close, timeout, malformed, slow-body, status), and who asked for
   * it.
   */
  fault?: { kind: string; status?: number; by: string };
  /** Which check refused the request, and where (a JSON pointer into the body, or the parameter). */
  refusal?: { check: string; pointers: string[] };
}

/**
 * A journal entry as read: the same fields, credentials redacted (query and headers), the time in ISO 8601, the
 * duration to the microsecond.
 */
export type JournalEntry = Omit<JournalRecord, 'time' | 'headers'> & { time: string; headers: Record<string, string> };

export interface Journal {
  add(record: JournalRecord): void;
  /** Oldest first; at most `limit` of the newest; credentials redacted. */
  entries(limit?: number): JournalEntry[];
  clear(): void;
  /** Redacts these header and query names too, in every entry read from now on (a reloaded document's apiKey names). */
  redactAlso(names: Iterable<string>): void;
}

/**
 * A journal of the last `size` requests; `secretNames` are header and query names to redact beyond the usual
 * credentials (apiKey schemes).
 */
export function createJournal(size: number, secretNamesGiven: ReadonlySet<string> = new Set()): Journal {
  const secretNames = new Set(secretNamesGiven);
  const ring: (JournalRecord | undefined)[] = new Array(Math.max(0, size));
  let next = 0;
  let count = 0;
  const entry = (record: JournalRecord): JournalEntry => ({
    time: isoTimestamp(record.time),
    method: record.method,
    path: record.path,
    query: redactQuery(record.query, secretNames),
    status: record.status,
    durationMs: Math.round(record.durationMs * 1000) / 1000,
    operationId: record.operationId,
    headers: redactHeaders(record.headers, secretNames),
    problems: record.problems,
    ...(record.violations === undefined ? {} : { violations: record.violations }),
    ...(record.source === undefined ? {} : { source: record.source }),
    ...(record.fault === undefined ? {} : { fault: record.fault }),
    ...(record.refusal === undefined ? {} : { refusal: record.refusal }),
  });
  return {
    add(record) {
      if (ring.length === 0) return;
      ring[next] = record;
      next = (next + 1) % ring.length;
      count = Math.min(count + 1, ring.length);
    },
    entries(limit = count) {
      const n = Math.min(limit, count);
      const out: JournalEntry[] = [];
      for (let i = count - n; i < count; i++) out.push(entry(ring[(next - count + i + ring.length) % ring.length]!));
      return out;
    },
    clear() {
      ring.fill(undefined);
      next = 0;
      count = 0;
    },
    redactAlso(names) {
      for (const name of names) secretNames.add(name);
    },
  };
}

/** Headers fit for a journal or log: credentials replaced by their scheme and "[redacted]". */
export function redactHeaders(
  headers: Record<string, string | undefined>,
  extraSecret: ReadonlySet<string>,
): Record<string, string> {
  // The common request carries only Authorization among the secrets: one copy, one replacement.
  if (extraSecret.size === 0 && onlyAuthorization(headers)) {
    const { authorization } = headers;
    return (
      authorization === undefined ? { ...headers } : { ...headers, authorization: redactCredential(authorization) }
    ) as Record<string, string>;
  }
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (CREDENTIAL_HEADERS.has(name) || extraSecret.has(name)) {
      out[name] = name === 'authorization' || name === 'proxy-authorization' ? redactCredential(value) : '[redacted]';
    } else out[name] = value;
  }
  return out;
}

function onlyAuthorization(headers: Record<string, string | undefined>): boolean {
  for (const name of CREDENTIAL_HEADERS) if (name !== 'authorization' && headers[name] !== undefined) return false;
  return true;
}

/** "Bearer [redacted]": the scheme stays readable, the credential goes. */
function redactCredential(value: string): string {
  const space = value.indexOf(' ');
  return space > 0 ? `${value.slice(0, space)} [redacted]` : '[redacted]';
}

/** A query string with credential-like parameters redacted. */
export function redactQuery(query: string, extraSecret: ReadonlySet<string>): string {
  if (query === '') return '';
  const params = new URLSearchParams(query);
  for (const name of [...params.keys()]) {
    if (CREDENTIAL_QUERY.test(name) || extraSecret.has(name.toLowerCase())) params.set(name, '[redacted]');
  }
  return params.toString();
}
