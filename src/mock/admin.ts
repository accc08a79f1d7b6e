// The admin API under /__mock/, a prefix no document path uses: health, state (inspect, seed,
// reset) and the request journal. Its answers are plain JSON outside the contract.
import { parseJson, type JsonValue } from '../json/exact-json.ts';
import { jsonContent, type Operation } from '../document/operations.ts';
import { StateFullError, type StateStore, type StoredRecord } from '../state/store.ts';
import { formatIssues, type Validators } from '../validation/validator.ts';
import type { MockRequest } from '../http/types.ts';
import { textOf } from '../http/bytes.ts';
import type { Journal } from './journal.ts';
import { collectionMatcher, keyString, requestContent, type Resource, type ResourceBinding } from '../document/resources.ts';
import { collectionLine } from '../document/resource-report.ts';
import type { Answers } from './answers.ts';
import type { Outcome } from './responder.ts';
import type { Webhooks } from './webhooks.ts';
import { listTenants } from '../state/scoped-store.ts';

export const ADMIN_PREFIX = '/__mock/';

export interface AdminContext {
  title: string;
  version: string;
  operations: Operation[];
  bindings: Map<Operation, ResourceBinding>;
  resources: Resource[];
  store: StateStore;
  /** The store of one tenant (--isolate-by token), or the whole store for undefined. */
  tenantStore: (tenant: string | undefined) => StateStore;
  journal: Journal;
  webhooks: Webhooks;
  validators: Validators;
  /** Plain JSON answers, and the numbering and server-made fields of creates, shared with the API's own creates. */
  answers: Pick<Answers, 'raw' | 'hooks'>;
  startedAt: number;
}

/** The admin endpoints and what each does: GET /__mock/ answers with them, and `mock --help` lists them. */
export const ADMIN_ENDPOINTS = {
  'GET /__mock/health': 'liveness and what is loaded',
  'GET /__mock/state[?tenant=HASH]': "every stored resource, by collection (one token's with tenant)",
  'POST /__mock/state[?tenant=HASH]': 'seed resources: {"/plants": [{...}, ...]}',
  'DELETE /__mock/state[?tenant=HASH]': "remove every stored resource (or one token's)",
  'GET /__mock/tenants': 'with --isolate-by token: each token hash and its record count',
  'GET /__mock/webhooks': 'webhook deliveries with their status',
  'GET /__mock/requests?limit=N': 'the newest requests, credentials redacted',
  'DELETE /__mock/requests': 'clear the request journal',
};

/** Answers one admin request. */
export async function handleAdmin(request: MockRequest, admin: AdminContext): Promise<Outcome> {
  const { answers, journal } = admin;
  // HEAD is GET without a body (RFC 9110 §9.3.2); the listener sends no body for it.
  const route = `${request.method === 'HEAD' ? 'GET' : request.method} ${request.path}`;
  const query = new URLSearchParams(request.query);
  // ?tenant=HASH narrows state calls to one token's state (--isolate-by token).
  const tenant = query.get('tenant') ?? undefined;
  if (tenant !== undefined && !/^[0-9a-f]{16}$|^anonymous$/.test(tenant)) {
    return answers.raw(request, 400, { error: 400, message: 'tenant must be the first 16 hex digits of the SHA-256 of the token (never the token itself)' });
  }
  const store = admin.tenantStore(tenant);
  switch (route) {
    case 'GET /__mock/':
      return answers.raw(request, 200, { endpoints: ADMIN_ENDPOINTS });
    case 'GET /__mock/health':
      return answers.raw(request, 200, {
        status: 'ok',
        api: admin.title,
        version: admin.version,
        operations: admin.operations.length,
        // What keeps state, in the words of the start-up lines.
        collections: Object.fromEntries(admin.resources.map((r) => [r.collection, collectionLine(r).slice(r.collection.length + 2)])),
        uptimeSeconds: Math.round((Date.now() - admin.startedAt) / 1000),
      });
    case 'GET /__mock/state':
      return answers.raw(request, 200, { collections: store.snapshot() });
    case 'GET /__mock/tenants':
      return answers.raw(request, 200, { tenants: listTenants(admin.store) });
    case 'GET /__mock/webhooks':
      return answers.raw(request, 200, { deliveries: admin.webhooks.deliveries() });
    case 'DELETE /__mock/state':
      store.clear();
      answers.hooks.tombstones.clear(tenant === undefined ? undefined : store);
      await store.flush();
      return answers.raw(request, 204, undefined);
    case 'POST /__mock/state':
      return seed(request, admin, store);
    case 'GET /__mock/requests': {
      const limit = Number(query.get('limit') ?? Number.POSITIVE_INFINITY);
      return answers.raw(request, 200, { requests: journal.entries(Number.isFinite(limit) && limit >= 0 ? limit : undefined) });
    }
    case 'DELETE /__mock/requests':
      journal.clear();
      return answers.raw(request, 204, undefined);
    default:
      return answers.raw(request, 404, { error: 404, message: `no admin endpoint ${route}`, endpoints: ADMIN_ENDPOINTS });
  }
}

/** Seeds all or nothing: every item must be a valid create body with a new key. */
async function seed(request: MockRequest, admin: AdminContext, store: StateStore): Promise<Outcome> {
  const { answers } = admin;
  const bad = (message: string) => answers.raw(request, 400, { error: 400, message });
  const parsed = parseJson(textOf(request.body));
  if (!parsed.ok) return bad(`malformed JSON: ${parsed.message}`);
  const value = parsed.value as Record<string, JsonValue>;
  const collections = (value !== null && typeof value === 'object' && 'collections' in value ? value.collections : value) as Record<string, JsonValue>;
  if (collections === null || typeof collections !== 'object' || Array.isArray(collections))
    return bad('send {"<collection path>": [items...]}, e.g. {"/plants": [{"id": 1, "name": "Fern"}]}');
  // A seed names a stored collection: `/plants`, or a nested one with its parents (`/users/alice/playlists`).
  const createList: Array<[Operation, ResourceBinding, (name: string) => boolean]> = [];
  for (const [operation, binding] of admin.bindings) if (binding.role === 'create') createList.push([operation, binding, collectionMatcher(binding)]);
  const creates = new Map<string, [Operation, ResourceBinding]>();
  for (const name of Object.keys(collections)) {
    const found = createList.find(([, , belongs]) => belongs(name));
    if (found) creates.set(name, [found[0], found[1]]);
  }
  // The example generator, where a seeded item's server fields need it, is loaded before any
  // key is checked: from the first check to the last insert nothing waits.
  const { hooks } = admin.answers;
  for (const collection of Object.keys(collections)) {
    const fields = creates.has(collection) ? hooks.serverFields.get(creates.get(collection)![0]) : undefined;
    if (fields !== undefined) await hooks.fields.ready(fields);
  }
  const planned: Array<{ collection: string; key: string; record: StoredRecord }> = [];
  const plannedKeys = new Set<string>();
  for (const [collection, items] of Object.entries(collections)) {
    const create = creates.get(collection);
    if (!create)
      return bad(`no collection ${collection}; collections: ${[...new Set(createList.map(([, binding]) => binding.collection))].join(', ') || '(none)'}`);
    if (!Array.isArray(items)) return bad(`${collection}: expected an array of items`);
    const [operation, binding] = create;
    const content = requestContent(operation);
    for (const [index, item] of items.entries()) {
      const check = content ? admin.validators.at(content.schemaPointer)(item) : { ok: true as const };
      if (!check.ok) return bad(`${collection}[${index}]: ${formatIssues(check.issues)}`);
      // Seeded items get the fields a create would make, so that reads and lists of them are valid.
      const fields = item !== null && typeof item === 'object' && !Array.isArray(item) ? hooks.serverFields.get(operation) : undefined;
      const record = fields === undefined ? (item as StoredRecord) : { ...(item as StoredRecord) };
      let made: string | undefined;
      try {
        if (fields !== undefined)
          made = hooks.fields.fill(record, fields, collection, (key) => !store.get(collection, key) && !plannedKeys.has(`${collection}\u0000${key}`));
      } catch (error) {
        if (!(error instanceof StateFullError)) throw error;
        return answers.raw(request, 507, { error: 507, message: `nothing seeded: ${error.message}` });
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
      return answers.raw(request, 507, { error: 507, message: `nothing seeded: ${error.message}` });
    }
  }
  await store.flush();
  const counts: Record<string, number> = {};
  for (const { collection } of planned) counts[collection] = (counts[collection] ?? 0) + 1;
  return answers.raw(request, 201, { seeded: counts });
}
