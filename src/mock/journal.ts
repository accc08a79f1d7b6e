// The request journal behind GET /__mock/requests: a fixed-size ring buffer, so a long run keeps
// memory flat. Entries hold no secret: credentials are redacted before an entry is made.
import { CREDENTIAL_HEADERS } from '../http/credential-headers.ts';

export interface JournalEntry {
  time: string;
  method: string;
  path: string;
  query: string;
  status: number;
  durationMs: number;
  operationId?: string;
  /** Request headers with credentials redacted. */
  headers: Record<string, string>;
  /** Why the request was refused, in short. */
  problems?: string[];
}

export interface Journal {
  add(entry: JournalEntry): void;
  /** Oldest first; at most `limit` of the newest. */
  entries(limit?: number): JournalEntry[];
  clear(): void;
}

export function createJournal(size: number): Journal {
  const ring: (JournalEntry | undefined)[] = new Array(Math.max(0, size));
  let next = 0;
  let count = 0;
  return {
    add(entry) {
      if (ring.length === 0) return;
      ring[next] = entry;
      next = (next + 1) % ring.length;
      count = Math.min(count + 1, ring.length);
    },
    entries(limit = count) {
      const n = Math.min(limit, count);
      const out: JournalEntry[] = [];
      for (let i = count - n; i < count; i++) out.push(ring[(next - count + i + ring.length) % ring.length]!);
      return out;
    },
    clear() {
      ring.fill(undefined);
      next = 0;
      count = 0;
    },
  };
}

const SECRET_QUERY = /^(access_token|token|api_key|apikey|key)$/i;

/** Headers fit for a journal or log: credentials replaced by their scheme and "[redacted]". */
export function redactHeaders(headers: Record<string, string | undefined>, extraSecret: ReadonlySet<string>): Record<string, string> {
  // The common request carries only Authorization among the secrets: one copy, one replacement.
  if (extraSecret.size === 0 && onlyAuthorization(headers)) {
    const { authorization } = headers;
    return (authorization === undefined ? { ...headers } : { ...headers, authorization: redactCredential(authorization) }) as Record<string, string>;
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
    if (SECRET_QUERY.test(name) || extraSecret.has(name.toLowerCase())) params.set(name, '[redacted]');
  }
  return params.toString();
}
