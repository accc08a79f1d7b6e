// A request's view of a store that lives elsewhere (Redis), so that the decision stays synchronous
// and pure while the store is across a socket. The decision runs against the view; what it reads
// of a record it has not seen is taken as absent, and what it writes is kept aside. Then the view
// commits in one step: every record the decision saw must still be as it saw it, and only then
// are its writes applied (a Lua script in Redis). When a check fails, the view learns what the
// record is now and the decision runs again: a read of a stored record costs one round trip, a
// create one, and of many creates of one id across replicas exactly one is committed. Reads that
// cannot be assumed (a page, a count, every key) suspend the decision: the view loads them and the
// decision runs again. A decision's only effects are its writes, so running it again is safe (a
// made key may skip a number).
import { parseJson } from '../json/exact-json.ts';
import { StateUnavailableError } from './state-unavailable.ts';
import {
  recordText,
  type SharedCheck,
  type SharedRead,
  type SharedState,
  type SharedWrite,
  type StateFullError,
  type StateStore,
  type StoredRecord,
} from './store.ts';

/** Thrown by a view's read that must be loaded first: the engine loads it and decides again. */
export class Suspended extends Error {
  readonly read: SharedRead;
  constructor(read: SharedRead) {
    super('plantstore bug: a read of a shared store was not loaded before the decision (Suspended escaped)');
    this.name = 'Suspended';
    this.read = read;
  }
}

export interface OptimisticView extends StateStore {
  /** Forgets what one run of the decision saw and wrote (what was learned stays). */
  again(): void;
  /** Loads a read the decision suspended on. */
  load(read: SharedRead): Promise<void>;
  /** Commits this run: true when done, false when something changed meanwhile (decide again). */
  commit(): Promise<boolean>;
}

const slot = (collection: string, key: string) => `${collection}\u0000${key}`;
const readName = (read: SharedRead) =>
  read.kind === 'list'
    ? `list\u0000${read.collection}\u0000${read.offset}\u0000${read.limit}`
    : read.kind === 'count'
      ? `count\u0000${read.collection}`
      : read.kind;

/** A view of `shared` for one request; `identity` is the store its deleted keys are kept under. */
export function optimisticView(shared: SharedState, identity: StateStore): OptimisticView {
  // What was learned: record texts (null: none), loaded reads, and writes refused as too heavy.
  const known = new Map<string, string | null>();
  const loaded = new Map<string, unknown>();
  const refusals = new Map<string, StateFullError>();
  // This run: what the decision saw of each record before its own writes, its writes, and what they leave.
  let seen = new Map<string, SharedCheck>();
  let assumed = false;
  let writes: SharedWrite[] = [];
  let overlay = new Map<string, string | null>();

  const current = (collection: string, key: string): string | null => {
    const name = slot(collection, key);
    const written = overlay.get(name);
    if (written !== undefined) return written;
    const learned = known.get(name);
    if (!seen.has(name)) seen.set(name, { collection, key, text: learned ?? null });
    if (learned !== undefined) return learned;
    assumed = true;
    return null;
  };
  const write = (change: SharedWrite) => {
    const refusal = refusals.get(slot(change.collection, change.key));
    if (refusal && change.kind !== 'remove') throw refusal;
    writes.push(change);
    overlay.set(slot(change.collection, change.key), change.text ?? null);
  };
  const loadedOr = <T>(read: SharedRead): T => {
    const name = readName(read);
    if (!loaded.has(name)) throw new Suspended(read);
    return loaded.get(name) as T;
  };
  const whole = (what: string) => () => {
    throw new Error(`plantstore bug: ${what} is not offered by a request's view of a shared store`);
  };

  return {
    identity,
    get(collection, key) {
      const text = current(collection, key);
      return text === null ? undefined : read(text);
    },
    insert(collection, key, record, text) {
      if (current(collection, key) !== null) return false;
      write({ kind: 'insert', collection, key, text: recordText(record, text) });
      return true;
    },
    replace(collection, key, record, text) {
      if (current(collection, key) === null) return false;
      write({ kind: 'replace', collection, key, text: recordText(record, text) });
      return true;
    },
    remove(collection, key) {
      if (current(collection, key) === null) return false;
      write({ kind: 'remove', collection, key });
      return true;
    },
    list(collection, offset = 0, limit = Number.POSITIVE_INFINITY) {
      if (limit <= 0) return [];
      const texts = loadedOr<string[]>({
        kind: 'list',
        collection,
        offset,
        limit: Number.isFinite(limit) ? limit : -1,
      });
      return texts.map(read);
    },
    count: (collection) => loadedOr<number>({ kind: 'count', collection }),
    keys: () => loadedOr<Array<[string, string]>>({ kind: 'keys' }),
    size: () => loadedOr<number>({ kind: 'size' }),
    clear: whole('clearing the state'),
    snapshot: whole('a snapshot'),
    entries: whole('every entry'),
    // Nothing is written before the engine commits: the commit is the acknowledgement.
    flush: () => undefined,
    again() {
      seen = new Map();
      assumed = false;
      writes = [];
      overlay = new Map();
    },
    async load(request) {
      loaded.set(readName(request), await shared.read(request));
    },
    async commit() {
      // Nothing assumed and nothing written: what was read was loaded, at one moment each.
      if (!assumed && writes.length === 0) return true;
      const checks = [...seen.values()];
      const done = await shared.commit(checks, writes);
      if (done.ok) {
        // What this run saw and wrote is now known: a second step of the same request (its
        // idempotency record) checks against it.
        for (const check of checks) known.set(slot(check.collection, check.key), check.text);
        for (const [name, text] of overlay) known.set(name, text);
        return true;
      }
      if ('full' in done) {
        const refused = writes[done.write];
        refusals.set(slot(refused.collection, refused.key), done.full);
      } else {
        for (const check of checks) known.set(slot(check.collection, check.key), check.text);
        for (const check of done.now) known.set(slot(check.collection, check.key), check.text);
      }
      return false;
    },
  };
}

function read(text: string): StoredRecord {
  const parsed = parseJson(text);
  if (!parsed.ok) throw new Error(`plantstore bug: a record stored in Redis does not parse: ${parsed.message}`);
  return parsed.value as StoredRecord;
}

/** How often a decision runs again before the request is refused (a record changing on every try). */
export const MAX_DECISION_RUNS = 16;

/**
 * Runs `step` against `view` until what it did is committed: again after a read it suspended on is
 * loaded, or when something it saw changed meanwhile. `step` says whether its run is to be
 * committed (a refusal writes nothing); its last run's value is returned.
 */
export async function settled<T>(
  view: OptimisticView,
  step: () => Promise<T> | T,
  commits: (value: T) => boolean,
): Promise<T> {
  for (let run = 0; run < MAX_DECISION_RUNS; run++) {
    view.again();
    let value: T;
    try {
      value = await step();
    } catch (error) {
      if (!(error instanceof Suspended)) throw error;
      await view.load(error.read);
      continue;
    }
    if (!commits(value) || (await view.commit())) return value;
  }
  throw new StateUnavailableError(
    `the mock's state changed under this request ${MAX_DECISION_RUNS} times in a row; try again shortly`,
  );
}
