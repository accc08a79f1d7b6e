// The mock's state: collections of records keyed by an exact key string. Every method is
// synchronous, so a check and the write that depends on it happen in one step with no await in
// between: of many concurrent creates of one id exactly one wins. A store across a socket (Redis)
// also offers `shared`: the engine then decides against an optimistic view of it and commits what
// the decision read and wrote in one step, checked (optimistic-view.ts).
import { PlantstoreError } from '../errors.ts';
import { parseJson, stringifyJson, type JsonValue } from '../json/exact-json.ts';
import { PackedRecords } from './packed-records.ts';

export type StoredRecord = { [key: string]: JsonValue };

export interface StateStore {
  /**
   * Inserts unless the key exists; false when it does. `text`, when given, is JSON text that
   * parses to exactly this record (the request body it was parsed from): a store that keeps
   * records as text may keep that one instead of serializing the record again. Throws a
   * StateFullError, and stores nothing, when the record would take the store past its limit.
   */
  insert(collection: string, key: string, record: StoredRecord, text?: string): boolean;
  get(collection: string, key: string): StoredRecord | undefined;
  /** Records in insertion order: `limit` of them (all when absent) after skipping `offset`. */
  list(collection: string, offset?: number, limit?: number): StoredRecord[];
  /** Replaces an existing record; false when there is none. `text` and the limit as for insert. */
  replace(collection: string, key: string, record: StoredRecord, text?: string): boolean;
  remove(collection: string, key: string): boolean;
  clear(): void;
  /** Every collection with its records, in insertion order. */
  snapshot(): Record<string, StoredRecord[]>;
  /** Every record with its collection and key, in insertion order. */
  entries(): Array<[collection: string, key: string, record: StoredRecord]>;
  /** Every record's collection and key, in insertion order (no record read: for callers that need only these). */
  keys(): Array<[collection: string, key: string]>;
  /** How many records there are, in all collections. */
  size(): number;
  /** How many records one collection holds (a store without it is counted through keys()). */
  count?(collection: string): number;
  /**
   * Whether a key was removed and not created again, as this store remembers it beyond the engine's memory (the state
   * file keeps its removed keys across restarts); a store without it leaves that to the engine.
   */
  removed?(collection: string, key: string): boolean;
  /** Forgets the removed keys of every collection whose name starts with `prefix` (one tenant's reset). */
  forgetRemoved?(prefix: string): void;
  /** Resolves once every write so far is durable (at once for memory). */
  flush(): Promise<void> | undefined;
  /**
   * The same state, answered later (Redis on the mock's own thread): the engine reads and commits
   * through it, so that a request waits for Redis without the thread waiting.
   */
  readonly shared?: SharedState;
  /** The store whose deleted keys a per-request view of it shares (a view is made per request). */
  readonly identity?: StateStore;
}

/** A read a decision cannot assume: loaded, at one moment, before the decision runs again. */
export type SharedRead =
  | { kind: 'list'; collection: string; offset: number; limit: number }
  | { kind: 'count'; collection: string }
  | { kind: 'keys' }
  | { kind: 'size' };

/** What a decision saw of one record (its text, or null for none): a commit goes through only if that still holds. */
export interface SharedCheck {
  collection: string;
  key: string;
  text: string | null;
}

/** A change a decision made, committed with its checks in one step. */
export interface SharedWrite {
  kind: 'insert' | 'replace' | 'remove';
  collection: string;
  key: string;
  /** The record's text (insert, replace). */
  text?: string;
}

/**
 * What a commit did: everything, or nothing because a check no longer held (with what each checked
 * record is now) or because a write would take the state past its limit (that write's index).
 */
export type SharedCommit =
  { ok: true } | { ok: false; now: SharedCheck[] } | { ok: false; full: StateFullError; write: number };

export interface SharedState {
  /** The answer to one read, as stored texts: a page, a count, every [collection, key], or the record count. */
  read(read: SharedRead): Promise<string[] | number | Array<[string, string]>>;
  /** Checks, then writes, as one step. */
  commit(checks: SharedCheck[], writes: SharedWrite[]): Promise<SharedCommit>;
  /** Every record of the collections whose name starts with `prefix` ('' for all), in insertion order. */
  dump(prefix: string): Promise<Array<[collection: string, key: string, text: string]>>;
  /** Removes every record of one collection, or of those whose name starts with `prefix` ('' for all), as one step. */
  clear(which: { collection: string } | { prefix: string }): Promise<void>;
}

/**
 * What a stored record is reckoned to weigh, in bytes: its JSON text and key (one byte a
 * character), plus what its slot and its place in the key table cost (PackedRecords: 16 bytes of
 * slot, 8 of table place at a load between 3/8 and 3/4). Measured: a benchmark plant (a
 * 62-character text, a 13-digit key) adds 98–116 bytes at 200,000–300,000 records, 23–41
 * beyond its characters as the table fills. A text beyond ASCII takes up to 3 bytes a character
 * in UTF-8 and is still reckoned at one.
 */
export const RECORD_OVERHEAD_BYTES = 32;

/** One collection holds at most this many records (V8's largest Map, which an earlier store used). */
export const MAX_COLLECTION_RECORDS = 2 ** 24;

/** Thrown by an insert or a replace that would take a store past its limit; nothing is stored. */
export class StateFullError extends PlantstoreError {
  /** What is full, without what to do about it: "its records would take more than 1024 MB (--max-state-mb)". */
  readonly reason: string;
  constructor(reason: string, advice: string) {
    super('STATE_FULL', `the mock's state is full: ${reason}; ${advice}`);
    this.name = 'StateFullError';
    this.reason = reason;
  }
}

/** How a refusal names the limit and what clears the state, in the words of the host that made the store. */
export interface StateLimitWords {
  /** The option that sets the limit: `--max-state-mb`. */
  limit: string;
  /** What empties the state: `DELETE /__mock/state`. */
  clear: string;
  /** How to raise the limit: `start the mock with a larger --max-state-mb`. */
  raise: string;
}

export const CLI_WORDS: StateLimitWords = {
  limit: '--max-state-mb',
  clear: 'DELETE /__mock/state',
  raise: 'start the mock with a larger --max-state-mb',
};

export const overWeight = (maxBytes: number, words: StateLimitWords) =>
  new StateFullError(
    `its records would take more than ` +
      `${maxBytes >= 1048576 ? `${Math.round(maxBytes / 1048576)} MB` : `${maxBytes} bytes`} (${words.limit})`,
    `${words.clear} clears it, or ${words.raise}`,
  );

export interface MemoryStoreLimits {
  /**
   * How much the records may weigh in all, reckoned as their texts, keys and
   * RECORD_OVERHEAD_BYTES each (unbounded when absent). Without a limit a long load test grows
   * the heap until Node aborts; with one, creates past it get a spec-shaped refusal and the mock
   * stays up. A collection also stops at MAX_COLLECTION_RECORDS, whatever the limit.
   */
  maxBytes?: number;
  /** The words of a refusal (the mock's flags and admin API by default; the MSW handlers name their options). */
  words?: StateLimitWords;
}

/**
 * The in-memory store: a Map from collection to its records, each collection a PackedRecords
 * (insertion-ordered, like a Map) holding each record as its JSON text in bytes outside V8's heap.
 * Under a load test that creates hundreds of thousands of plants, what the store keeps is what RSS
 * and the major GCs' work are made of (docs/performance.md). Reads parse the text again (exactly:
 * bigints stay bigints), and hand out a fresh object each time, so no caller can change a stored
 * record by accident.
 */
export function createMemoryStore(limits: MemoryStoreLimits = {}): MemoryStore {
  const maxBytes = limits.maxBytes ?? Number.POSITIVE_INFINITY;
  const words = limits.words ?? CLI_WORDS;
  const collections = new Map<string, PackedRecords>();
  const of = (collection: string) => {
    let records = collections.get(collection);
    if (!records) {
      records = new PackedRecords();
      collections.set(collection, records);
    }
    return records;
  };
  let size = 0;
  let bytes = 0;
  const weigh = (key: string, text: string) => key.length + text.length + RECORD_OVERHEAD_BYTES;
  function* texts(): Generator<[string, string, string]> {
    for (const [name, records] of collections) for (const [key, text] of records) yield [name, key, text];
  }
  return {
    insert(collection, key, record, text) {
      const records = of(collection);
      if (records.has(key)) return false;
      const stored = recordText(record, text);
      const weight = weigh(key, stored);
      if (bytes + weight > maxBytes) throw overWeight(maxBytes, words);
      if (records.size >= MAX_COLLECTION_RECORDS)
        throw new StateFullError(
          `${collection.slice(collection.indexOf('\u0000') + 1)} holds ${MAX_COLLECTION_RECORDS} records, the most ` +
            `one collection can`,
          `${words.clear} clears it`,
        );
      records.set(key, stored);
      size++;
      bytes += weight;
      return true;
    },
    get(collection, key) {
      const text = collections.get(collection)?.get(key);
      return text === undefined ? undefined : storedRecord(text);
    },
    list(collection, offset = 0, limit = Number.POSITIVE_INFINITY) {
      // Only the page is parsed: a list of 20 from 250,000 plants reads 20 texts.
      const out: StoredRecord[] = [];
      let index = 0;
      for (const text of collections.get(collection)?.values() ?? []) {
        if (out.length >= limit) break;
        if (index++ >= offset) out.push(storedRecord(text));
      }
      return out;
    },
    replace(collection, key, record, text) {
      const records = collections.get(collection);
      const old = records?.get(key);
      if (records === undefined || old === undefined) return false;
      const stored = recordText(record, text);
      const change = weigh(key, stored) - weigh(key, old);
      if (change > 0 && bytes + change > maxBytes) throw overWeight(maxBytes, words);
      records.set(key, stored);
      bytes += change;
      return true;
    },
    remove(collection, key) {
      const records = collections.get(collection);
      const old = records?.get(key);
      if (records === undefined || old === undefined) return false;
      records.delete(key);
      size--;
      bytes -= weigh(key, old);
      return true;
    },
    clear() {
      collections.clear();
      size = 0;
      bytes = 0;
    },
    snapshot: () =>
      Object.fromEntries([...collections].map(([name, records]) => [name, Array.from(records.values(), storedRecord)])),
    entries: () => Array.from(texts(), ([name, key, text]) => [name, key, storedRecord(text)]),
    keys: () => Array.from(texts(), ([name, key]) => [name, key]),
    size: () => size,
    count: (collection) => collections.get(collection)?.size ?? 0,
    flush: () => undefined,
    texts,
  };
}

/** The memory store, with its records' stored texts for whoever writes them out (the state file). */
export interface MemoryStore extends StateStore {
  count(collection: string): number;
  /** Every record as its JSON text, with its collection and key, in insertion order. */
  texts(): Iterable<[collection: string, key: string, text: string]>;
}

/**
 * The text a store keeps for a record: the caller's text of it when that is one line (a state
 * file's lines are records, and compaction writes the stored texts as they are), else the record
 * serialized. Taking the request body's text saves a serialization per create (docs/performance.md);
 * a body sent with spaces is kept with its spaces.
 */
export function recordText(record: StoredRecord, text: string | undefined): string {
  return text !== undefined && !text.includes('\n') ? text : stringifyJson(record);
}

/** A stored text back to its record; the store wrote it, so it always parses. */
export function storedRecord(text: string): StoredRecord {
  const parsed = parseJson(text);
  if (!parsed.ok) throw new Error(`plantstore bug: a stored record does not parse: ${parsed.message}`);
  return parsed.value as StoredRecord;
}
