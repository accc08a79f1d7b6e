// The mock's state: collections of records keyed by an exact key string. Every method is
// synchronous, so a check and the write that depends on it happen in one step with no await in
// between: of many concurrent creates of one id exactly one wins.
import type { JsonValue } from '../json/exact-json.ts';

export type StoredRecord = { [key: string]: JsonValue };

export interface StateStore {
  /** Inserts unless the key exists; false when it does. */
  insert(collection: string, key: string, record: StoredRecord): boolean;
  get(collection: string, key: string): StoredRecord | undefined;
  /** Records in insertion order. */
  list(collection: string): StoredRecord[];
  /** Replaces an existing record; false when there is none. */
  replace(collection: string, key: string, record: StoredRecord): boolean;
  remove(collection: string, key: string): boolean;
  clear(): void;
  /** Every collection with its records, in insertion order. */
  snapshot(): Record<string, StoredRecord[]>;
  /** Every record with its collection and key, in insertion order. */
  entries(): Array<[collection: string, key: string, record: StoredRecord]>;
  /** How many records there are, in all collections. */
  size(): number;
  /** Resolves once every write so far is durable (at once for memory). */
  flush(): Promise<void> | undefined;
}

/** The in-memory store: a Map of Maps (Maps keep insertion order). */
export function createMemoryStore(): StateStore {
  const collections = new Map<string, Map<string, StoredRecord>>();
  const of = (collection: string) => {
    let records = collections.get(collection);
    if (!records) {
      records = new Map();
      collections.set(collection, records);
    }
    return records;
  };
  let size = 0;
  return {
    insert(collection, key, record) {
      const records = of(collection);
      if (records.has(key)) return false;
      records.set(key, record);
      size++;
      return true;
    },
    get: (collection, key) => collections.get(collection)?.get(key),
    list: (collection) => [...(collections.get(collection)?.values() ?? [])],
    replace(collection, key, record) {
      const records = collections.get(collection);
      if (!records?.has(key)) return false;
      records.set(key, record);
      return true;
    },
    remove(collection, key) {
      const removed = collections.get(collection)?.delete(key) ?? false;
      if (removed) size--;
      return removed;
    },
    clear() {
      collections.clear();
      size = 0;
    },
    snapshot: () => Object.fromEntries([...collections].map(([name, records]) => [name, [...records.values()]])),
    entries: () => [...collections].flatMap(([name, records]) => [...records].map(([key, record]) => [name, key, record] as [string, string, StoredRecord])),
    size: () => size,
    flush: () => undefined,
  };
}
