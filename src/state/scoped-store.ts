// Per-token isolation (--isolate-by token): each tenant sees a view of the one store in which its
// collections carry a prefix. A tenant is named by a hash of its token, never the token itself.
import { sha256Hex } from '../platform/host.ts';
import type { StateStore } from './store.ts';

const SEPARATOR = '\u0000';

/** The tenant name of a bearer token: the first 16 hex digits of its SHA-256. */
export function tenantOf(token: string): string {
  return sha256Hex(token).slice(0, 16);
}

/** What begins the name of each of a tenant's collections in the one store. */
export const tenantPrefix = (tenant: string) => `${tenant}${SEPARATOR}`;

/** A view of the store holding only one tenant's collections. */
export function scopedStore(base: StateStore, tenant: string): StateStore {
  const prefix = tenantPrefix(tenant);
  const own = (collection: string) => collection.startsWith(prefix);
  return {
    insert: (collection, key, record, text) => base.insert(prefix + collection, key, record, text),
    get: (collection, key) => base.get(prefix + collection, key),
    list: (collection, offset, limit) => base.list(prefix + collection, offset, limit),
    replace: (collection, key, record, text) => base.replace(prefix + collection, key, record, text),
    remove: (collection, key) => base.remove(prefix + collection, key),
    clear() {
      for (const [collection, key] of base.keys()) if (own(collection)) base.remove(collection, key);
      // A reset forgets what was deleted too (a removed key would otherwise read as deleted).
      base.forgetRemoved?.(prefix);
    },
    snapshot: () =>
      Object.fromEntries(
        Object.entries(base.snapshot())
          .filter(([c]) => own(c))
          .map(([c, records]) => [c.slice(prefix.length), records]),
      ),
    entries: () =>
      base
        .entries()
        .filter(([c]) => own(c))
        .map(([c, key, record]) => [c.slice(prefix.length), key, record]),
    keys: () =>
      base
        .keys()
        .filter(([c]) => own(c))
        .map(([c, key]) => [c.slice(prefix.length), key]),
    size: () => base.keys().filter(([c]) => own(c)).length,
    ...(base.count && { count: (collection: string) => base.count!(prefix + collection) }),
    ...(base.removed && { removed: (collection: string, key: string) => base.removed!(prefix + collection, key) }),
    ...(base.forgetRemoved && { forgetRemoved: (start: string) => base.forgetRemoved!(prefix + start) }),
    flush: () => base.flush(),
  };
}

/** The tenants that hold anything, with their record counts, from every record's [collection, key]. */
export function listTenants(keys: Iterable<[collection: string, key: string]>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [collection] of keys) {
    const cut = collection.indexOf(SEPARATOR);
    if (cut === -1) continue;
    const tenant = collection.slice(0, cut);
    counts[tenant] = (counts[tenant] ?? 0) + 1;
  }
  return counts;
}
