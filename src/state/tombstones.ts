// The keys a DELETE removed, per store view, so that a later read of one says the item is gone
// (a real server never returns what it deleted) rather than answering from the document as for
// an item that was never created. Kept in memory, bounded (past the bound the oldest are forgotten,
// and such a read is answered as a never-created one again), and asked of the store too: the state
// file remembers its removed keys across restarts.
import type { StateStore } from './store.ts';

/** How many removed keys one engine remembers. */
const KEPT = 100_000;

export interface Tombstones {
  add(store: StateStore, collection: string, key: string): void;
  has(store: StateStore, collection: string, key: string): boolean;
  /** The key was created again. */
  revive(store: StateStore, collection: string, key: string): void;
  /** Forgets one view's removed keys (its state was reset), or every view's. */
  clear(store?: StateStore): void;
}

/** The removed keys of one engine. */
export function createTombstones(): Tombstones {
  let views = new WeakMap<StateStore, Set<string>>();
  let count = 0;
  const name = (collection: string, key: string) => `${collection}\u0000${key}`;
  // A request's view of a shared store keeps its deleted keys under the store it views.
  const own = (store: StateStore) => store.identity ?? store;
  return {
    add(view, collection, key) {
      const store = own(view);
      let set = views.get(store);
      if (!set) views.set(store, (set = new Set()));
      if (count >= KEPT && set.size > 0) {
        set.delete(set.values().next().value!);
        count--;
      }
      if (!set.has(name(collection, key))) count++;
      set.add(name(collection, key));
    },
    has: (store, collection, key) =>
      views.get(own(store))?.has(name(collection, key)) === true || store.removed?.(collection, key) === true,
    revive(store, collection, key) {
      const set = views.get(own(store));
      if (set?.delete(name(collection, key))) count--;
    },
    clear(store) {
      if (store === undefined) {
        views = new WeakMap();
        count = 0;
        return;
      }
      const set = views.get(store);
      if (set) count -= set.size;
      views.delete(store);
    },
  };
}
