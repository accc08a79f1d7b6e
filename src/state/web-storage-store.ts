// State kept in a page's Web Storage (localStorage), so that a reload keeps what was created: the
// memory store, written out whole, as exact JSON, when the engine asks for durability (flush).
// A page holds little, so one item is simplest: the whole state is one write, never half of it.
import type { Logger } from '../log/logger.ts';
import { parseJson, stringifyJson } from '../json/exact-json.ts';
import { createMemoryStore, type MemoryStoreLimits, type StateStore, type StoredRecord } from './store.ts';

/** What the store needs of Web Storage (localStorage and sessionStorage have it). */
export interface WebStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

type Saved = { format: 1; records: Array<[collection: string, key: string, record: StoredRecord]> };

/** A store that starts with what `storage` holds under `key` and writes every change back to it. */
export function createWebStorageStore(
  storage: WebStorage,
  key: string,
  logger: Logger,
  limits: MemoryStoreLimits = {},
): StateStore {
  const memory = createMemoryStore(limits);
  const text = storage.getItem(key);
  if (text !== null) {
    const parsed = parseJson(text);
    const saved = parsed.ok ? (parsed.value as unknown as Saved) : undefined;
    if (saved?.format === 1 && Array.isArray(saved.records)) {
      for (const [collection, recordKey, record] of saved.records) memory.insert(collection, recordKey, record);
    } else {
      logger.warn(`the state saved under "${key}" could not be read; starting empty`);
    }
  }
  let dirty = false;
  let warned = false;
  const changed = <T>(result: T): T => {
    dirty = true;
    return result;
  };
  return {
    insert: (collection, recordKey, record, recordText) =>
      changed(memory.insert(collection, recordKey, record, recordText)),
    replace: (collection, recordKey, record, recordText) =>
      changed(memory.replace(collection, recordKey, record, recordText)),
    remove: (collection, recordKey) => changed(memory.remove(collection, recordKey)),
    clear: () => changed(memory.clear()),
    get: (collection, recordKey) => memory.get(collection, recordKey),
    list: (collection, offset, limit) => memory.list(collection, offset, limit),
    snapshot: () => memory.snapshot(),
    entries: () => memory.entries(),
    keys: () => memory.keys(),
    size: () => memory.size(),
    count: (collection) => memory.count(collection),
    flush() {
      if (!dirty) return undefined;
      dirty = false;
      try {
        if (memory.size() === 0) storage.removeItem(key);
        else storage.setItem(key, stringifyJson({ format: 1, records: memory.entries() } as never));
      } catch (error) {
        // A full storage quota: the page goes on with its state in memory, as without persistence.
        if (!warned)
          logger.warn(
            `the state could not be saved in the page's storage (${(error as Error).message}); ` +
              'it lasts until the page is closed',
          );
        warned = true;
      }
      return undefined;
    },
  };
}
