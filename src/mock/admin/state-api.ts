// The engine's state API: list, seed, reset and tenants. The admin API (/__mock/state) and the MSW
// handlers' `state` are thin skins over it, so a seed is checked, keyed and given its server fields
// the same way whichever door it comes through.
import type { JsonValue } from '../../json/exact-json.ts';
import type { Operation } from '../../document/operations.ts';
import { collectionMatcher, keyString, requestContent, type ResourceBinding } from '../../document/resources.ts';
import { StateFullError, storedRecord, type StateStore, type StoredRecord } from '../../state/store.ts';
import { listTenants, scopedStore, tenantPrefix } from '../../state/scoped-store.ts';
import { optimisticView, settled } from '../../state/optimistic-view.ts';
import { formatIssues, type Validators } from '../../validation/validator.ts';
import type { StateHooks } from '../answer/state-actions.ts';
import { IDEMPOTENCY_COLLECTION } from '../idempotency.ts';

/** A value now (memory), or later (a store across a socket). */
type Eventually<T> = T | Promise<T>;

/** A seed's reply: what it stored, or why it stored nothing. */
export type SeedResult =
  { ok: true; seeded: Record<string, number> } | { ok: false; status: 400 | 507; message: string };

export interface EngineState {
  /** Every collection with its records (one tenant's when named); later on a shared store (Redis). */
  list(tenant?: string): Eventually<Record<string, StoredRecord[]>>;
  /** Seeds all or nothing: every item must be a valid create body with a new key. */
  seed(collections: unknown, tenant?: string): Promise<SeedResult>;
  /** Removes every stored record (one tenant's when named), and forgets what was deleted. */
  reset(tenant?: string): Promise<void>;
  /** The tenants that hold anything, with their record counts (--isolate-by token); later on a shared store. */
  tenants(): Eventually<Record<string, number>>;
}

export interface EngineStateSetup {
  store: StateStore;
  /** The store of one tenant, or the whole store for undefined. */
  tenantStore: (tenant: string | undefined) => StateStore;
  bindings: Map<Operation, ResourceBinding>;
  validators: Validators;
  hooks: StateHooks;
}

/**
 * The state API of one engine. On a shared store (Redis) it goes through the store's awaited
 * client, as requests do, so that the mock's thread never waits for Redis: a seed is decided
 * against an optimistic view and committed in one checked step (optimistic-view.ts), a list and a
 * reset are one script each.
 */
export function createEngineState(setup: EngineStateSetup): EngineState {
  const { tenantStore } = setup;
  const shared = setup.store.shared;
  const forget = (tenant: string | undefined) =>
    setup.hooks.tombstones.clear(tenant === undefined ? undefined : tenantStore(tenant));
  if (shared)
    return {
      async list(tenant) {
        const prefix = tenant === undefined ? '' : tenantPrefix(tenant);
        const collections: Record<string, StoredRecord[]> = {};
        for (const [collection, , text] of await shared.dump(prefix)) {
          const name = collection.slice(prefix.length);
          if (name === IDEMPOTENCY_COLLECTION) continue;
          (collections[name] ??= []).push(storedRecord(text));
        }
        return collections;
      },
      async seed(collections, tenant) {
        const view = optimisticView(shared, setup.store);
        const own = tenant === undefined ? view : { ...scopedStore(view, tenant), identity: tenantStore(tenant) };
        return settled(
          view,
          () => seed(collections, setup, own),
          (result) => result.ok,
        );
      },
      async reset(tenant) {
        await shared.clear({ prefix: tenant === undefined ? '' : tenantPrefix(tenant) });
        forget(tenant);
      },
      tenants: async () => listTenants((await shared.read({ kind: 'keys' })) as Array<[string, string]>),
    };
  return {
    // (The Idempotency-Key records are kept beside the collections, and are not one.)
    list: (tenant) => {
      const { [IDEMPOTENCY_COLLECTION]: _, ...collections } = tenantStore(tenant).snapshot();
      return collections;
    },
    seed: (collections, tenant) => seed(collections, setup, tenantStore(tenant)),
    async reset(tenant) {
      const store = tenantStore(tenant);
      store.clear();
      forget(tenant);
      await store.flush();
    },
    tenants: () => listTenants(setup.store.keys()),
  };
}

async function seed(input: unknown, setup: EngineStateSetup, store: StateStore): Promise<SeedResult> {
  const bad = (message: string): SeedResult => ({ ok: false, status: 400, message });
  const full = (error: StateFullError): SeedResult => ({
    ok: false,
    status: 507,
    message: `nothing seeded: ${error.message}`,
  });
  const collections = input as Record<string, JsonValue>;
  if (collections === null || typeof collections !== 'object' || Array.isArray(collections))
    return bad('send {"<collection path>": [items...]}, e.g. {"/plants": [{"id": 1, "name": "Fern"}]}');
  // A seed names a stored collection: `/plants`, or a nested one with its parents (`/users/alice/playlists`).
  const createList: Array<[Operation, ResourceBinding, (name: string) => boolean]> = [];
  for (const [operation, binding] of setup.bindings)
    if (binding.role === 'create') createList.push([operation, binding, collectionMatcher(binding)]);
  const creates = new Map<string, [Operation, ResourceBinding]>();
  for (const name of Object.keys(collections)) {
    const found = createList.find(([, , belongs]) => belongs(name));
    if (found) creates.set(name, [found[0], found[1]]);
  }
  // The example generator, where a seeded item's server fields need it, is loaded before any
  // key is checked: from the first check to the last insert nothing waits.
  const { hooks } = setup;
  for (const collection of Object.keys(collections)) {
    const fields = creates.has(collection) ? hooks.serverFields.get(creates.get(collection)![0]) : undefined;
    if (fields !== undefined) await hooks.fields.ready(fields);
  }
  const planned: Array<{ collection: string; key: string; record: StoredRecord }> = [];
  const plannedKeys = new Set<string>();
  for (const [collection, items] of Object.entries(collections)) {
    const create = creates.get(collection);
    if (!create)
      return bad(
        `no collection ${collection}; collections: ` +
          `${[...new Set(createList.map(([, binding]) => binding.collection))].join(', ') || '(none)'}`,
      );
    if (!Array.isArray(items)) return bad(`${collection}: expected an array of items`);
    const [operation, binding] = create;
    const content = requestContent(operation);
    for (const [index, item] of items.entries()) {
      const check = content ? setup.validators.at(content.schemaPointer)(item) : { ok: true as const };
      if (!check.ok) return bad(`${collection}[${index}]: ${formatIssues(check.issues)}`);
      // Seeded items get the fields a create would make, so that reads and lists of them are valid.
      const fields =
        item !== null && typeof item === 'object' && !Array.isArray(item)
          ? hooks.serverFields.get(operation)
          : undefined;
      const record = fields === undefined ? (item as StoredRecord) : { ...(item as StoredRecord) };
      let made: string | undefined;
      try {
        if (fields !== undefined)
          made = hooks.fields.fill(
            record,
            fields,
            collection,
            (key) => !store.get(collection, key) && !plannedKeys.has(`${collection}\u0000${key}`),
          );
      } catch (error) {
        if (!(error instanceof StateFullError)) throw error;
        return full(error);
      }
      const key = made ?? (binding.keyField ? keyString(record[binding.keyField]) : undefined) ?? hooks.nextKey();
      if (store.get(collection, key) || plannedKeys.has(`${collection}\u0000${key}`))
        return bad(`${collection}[${index}]: ${binding.keyField ?? 'key'} ${key} already exists`);
      planned.push({ collection, key, record });
      plannedKeys.add(`${collection}\u0000${key}`);
    }
  }
  // All or nothing here too: a store that fills up midway gives back what this seed put in.
  for (let i = 0; i < planned.length; i++) {
    try {
      store.insert(planned[i].collection, planned[i].key, planned[i].record);
    } catch (error) {
      if (!(error instanceof StateFullError)) throw error;
      for (const { collection, key } of planned.slice(0, i)) store.remove(collection, key);
      await store.flush();
      return full(error);
    }
  }
  await store.flush();
  const counts: Record<string, number> = {};
  for (const { collection } of planned) counts[collection] = (counts[collection] ?? 0) + 1;
  return { ok: true, seeded: counts };
}
