// What a request gets besides its answer: a delay, a fault, or both. Decided before the engine
// sees the request (so a fault never changes state), from, first to last: the request's own
// `Prefer: delay=, fault=` (or `__delay=`, `__fault=`), the /__mock/ page's switch for its
// operation, the operation's `x-plantstore-latency`, then --latency and --fault-rate.
// Random draws are seeded by --seed per request "METHOD path" and its count, so that a replay of
// the same requests gets the same faults and delays even where parallel requests interleave anew.
import type { Operation } from '../../document/operations.ts';
import type { LoadedSpec } from '../../document/loaded-spec.ts';
import { createRouter } from '../../document/router.ts';
import type { HttpRequest } from '../../http/types.ts';
import { mixSeed } from '../../example/seeded-random.ts';
import { delayOf, parseLatency, type Latency } from './latency.ts';
import {
  faultStatuses,
  isSocketFault,
  RANDOM_SOCKET_FAULTS,
  SOCKET_FAULTS,
  type Fault,
  type SocketFault,
} from './faults.ts';

export interface UnhappyOptions {
  /** --latency: every answer's delay, or null for none. */
  latency: Latency | null;
  /** --fault-rate: the share of requests (0 to 1) that get a random fault. */
  faultRate: number;
  seed: number;
}

/** The page's switches for one operation: null clears one (the document's and the flags' apply again). */
export interface OperationSwitch {
  latency: Latency | null;
  /** A socket fault, or a status the operation declares, for every request to it. */
  fault: SocketFault | number | null;
  /**
   * How many more requests it applies to before it clears itself (a first call that fails, a retry that works); null
   * for all.
   */
  times: number | null;
}

/** What to do with one request: wait, then answer, or carry out a fault; or refuse a malformed ask. */
export type Plan =
  | { ok: true; delayMs: number; fault?: Fault; operation?: Operation }
  | { ok: false; message: string; operation?: Operation };

export interface UnhappyPath {
  /** Undefined when the request gets its answer at once, as usual (no flag, no switch, no ask). */
  plan(request: HttpRequest): Plan | undefined;
  /** Each operation ("GET /plants") with its switch, its document latency and the statuses a fault may be. */
  describe(): Array<{
    operation: string;
    id: string;
    switch: OperationSwitch;
    documentLatency: string | null;
    statuses: number[];
  }>;
  /**
   * Sets one operation's switches (for `times` requests, or all); a message when the operation or a value is not
   * known.
   */
  setSwitch(operation: string, latency: unknown, fault: unknown, times?: unknown): string | undefined;
  /** Turns every switch off. */
  clearSwitches(): void;
  readonly options: UnhappyOptions;
  /** What the document's `x-plantstore-latency` values get wrong (each one ignored). */
  readonly warnings: string[];
}

const ASK_IN_QUERY = /(?:^|&)__(?:delay|fault)=/;
const ASK_IN_HEADER = /(?:^|[,;\s])(?:delay|fault)\s*=/i;
/**
 * Counters per "METHOD path" are kept for this many; past it, one shared counter (a client sending endless ids must
 * not grow the heap).
 */
const KEPT_KEYS = 10_000;

/** Builds the planner of one document's operations. */
export function createUnhappyPath(
  spec: LoadedSpec,
  operations: readonly Operation[],
  options: UnhappyOptions,
): UnhappyPath {
  const route = createRouter(operations as Operation[]);
  const keyOf = (operation: Operation) => `${operation.method} ${operation.path}`;
  const byKey = new Map(operations.map((operation) => [keyOf(operation), operation]));
  const warnings: string[] = [];
  const documentLatency = new Map<Operation, Latency>();
  for (const operation of operations) {
    const declared = ((spec.document.paths?.[operation.path] as Record<string, Record<string, unknown>> | undefined)?.[
      operation.method.toLowerCase()
    ] ?? {})['x-plantstore-latency'];
    if (declared === undefined) continue;
    const read = parseLatency(declared, `${keyOf(operation)} x-plantstore-latency`);
    if (read.ok) documentLatency.set(operation, read.latency);
    else warnings.push(`${read.message}; ignored`);
  }
  const switches = new Map<Operation, OperationSwitch>();
  const counts = new Map<string, number>();

  /** Three uniform draws for this request: whether a fault, which one, and the delay. */
  const draws = (request: HttpRequest): [number, number, number] => {
    let key = `${request.method} ${request.path}`;
    if (!counts.has(key) && counts.size >= KEPT_KEYS) key = '*';
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    const random = mulberry32(mixSeed(options.seed, hashText(key), n));
    return [random(), random(), random()];
  };

  function plan(request: HttpRequest): Plan | undefined {
    const prefer = request.headers.prefer;
    const askedInHeader = prefer !== undefined && ASK_IN_HEADER.test(prefer);
    const askedInQuery = request.query !== '' && ASK_IN_QUERY.test(request.query);
    if (
      !askedInHeader &&
      !askedInQuery &&
      options.latency === null &&
      options.faultRate === 0 &&
      documentLatency.size === 0 &&
      switches.size === 0
    )
      return undefined;
    const routed = route(request.method, request.path);
    const operation = routed.kind === 'operation' ? routed.operation : undefined;
    const asked =
      askedInHeader || askedInQuery ? readAsk(prefer, askedInHeader, askedInQuery ? request.query : '') : {};
    const [faultDraw, pickDraw, delayDraw] = draws(request);
    const toggled = operation && switches.get(operation);
    if (toggled && toggled.times !== null && --toggled.times <= 0) switches.delete(operation!);

    let latency = operation ? (toggled?.latency ?? documentLatency.get(operation) ?? options.latency) : options.latency;
    if (asked.delay !== undefined) {
      const read = parseLatency(asked.delay.value, asked.delay.by);
      if (!read.ok) return { ok: false, message: read.message, operation };
      latency = read.latency;
    }
    let fault: Fault | undefined;
    if (asked.fault !== undefined) {
      const kind = asked.fault.value.toLowerCase();
      if (!isSocketFault(kind))
        return {
          ok: false,
          message:
            `${asked.fault.by}: "${asked.fault.value}" is not a fault; use one of ` +
            `${SOCKET_FAULTS.join(', ')} (or Prefer: code=503 for a status)`,
          operation,
        };
      fault = { kind, by: asked.fault.by };
    } else if (toggled?.fault != null) {
      const by = `the /__mock/ page's fault switch for ${keyOf(operation!)}`;
      fault =
        typeof toggled.fault === 'number' ? { kind: 'status', status: toggled.fault, by } : { kind: toggled.fault, by };
    } else if (options.faultRate > 0 && operation && faultDraw < options.faultRate) {
      const statuses = faultStatuses(operation);
      const choices = [...statuses, ...RANDOM_SOCKET_FAULTS];
      const chosen = choices[Math.floor(pickDraw * choices.length)];
      const by = `--fault-rate ${options.faultRate} (--seed ${options.seed})`;
      fault = typeof chosen === 'number' ? { kind: 'status', status: chosen, by } : { kind: chosen, by };
    }
    const delayMs = latency === null ? 0 : delayOf(latency, delayDraw);
    if (delayMs === 0 && fault === undefined) return undefined;
    return { ok: true, delayMs, fault, operation };
  }

  return {
    plan,
    options,
    warnings,
    describe: () =>
      operations.map((operation) => ({
        operation: keyOf(operation),
        id: operation.id,
        switch: switches.get(operation) ?? { latency: null, fault: null, times: null },
        documentLatency: documentLatency.get(operation)?.label ?? null,
        statuses: faultStatuses(operation),
      })),
    clearSwitches: () => switches.clear(),
    setSwitch(key, latencyInput, faultInput, timesInput) {
      const operation = byKey.get(key);
      if (!operation) return `no operation ${key}; operations are named as "GET /plants"`;
      let latency: Latency | null = null;
      if (latencyInput !== null && latencyInput !== undefined && latencyInput !== '') {
        const read = parseLatency(latencyInput, `latency of ${key}`);
        if (!read.ok) return read.message;
        latency = read.latency;
      }
      let fault: OperationSwitch['fault'] = null;
      if (faultInput !== null && faultInput !== undefined && faultInput !== '') {
        const asNumber = Number(faultInput);
        if (Number.isInteger(asNumber) && faultStatuses(operation).includes(asNumber)) fault = asNumber;
        else if (typeof faultInput === 'string' && isSocketFault(faultInput)) fault = faultInput;
        else
          return (
            `fault of ${key}: ${JSON.stringify(faultInput)} is neither a fault (${SOCKET_FAULTS.join(', ')}) ` +
            `nor a status it declares (${faultStatuses(operation).join(', ') || 'none'})`
          );
      }
      let times: number | null = null;
      if (timesInput !== null && timesInput !== undefined && timesInput !== '') {
        times = Number(timesInput);
        if (!Number.isInteger(times) || times < 1)
          return `times of ${key}: ${JSON.stringify(timesInput)} is not a whole number of 1 or more`;
      }
      if (latency === null && fault === null) switches.delete(operation);
      else switches.set(operation, { latency, fault, times });
      return undefined;
    },
  };
}

interface Ask {
  delay?: { value: string; by: string };
  fault?: { value: string; by: string };
}

/** `Prefer: delay=300, fault=reset`, or `__delay=300&__fault=reset`; the header wins, as it does for code=. */
function readAsk(prefer: string | undefined, inHeader: boolean, query: string): Ask {
  const ask: Ask = {};
  if (inHeader) {
    for (const part of prefer!.split(/[,;]/)) {
      const [name, value] = part.split('=').map((s) => s.trim());
      const lower = name?.toLowerCase();
      if ((lower === 'delay' || lower === 'fault') && value !== undefined)
        ask[lower] ??= { value: value.replace(/^"|"$/g, ''), by: `Prefer: ${lower}=${value}` };
    }
  }
  if (query !== '') {
    const params = new URLSearchParams(query);
    for (const name of ['delay', 'fault'] as const) {
      const value = params.get(`__${name}`);
      if (value !== null) ask[name] ??= { value, by: `__${name}=${value}` };
    }
  }
  return ask;
}

/** FNV-1a of a string, 32 bits. */
function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** A small seeded generator of uniform numbers in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
