// What a bound operation does to state (see resources.ts for the conventions), and what happened:
// created, exists, full, absent, read, listed, replaced, removed. The actions never choose an
// answer; answers.ts turns what happened into one. Each action checks and writes in one
// synchronous step; the engine waits for durability after it (answers.durable).
import fastJsonPatch from 'fast-json-patch';
import type { JsonValue } from '../../json/exact-json.ts';
import { StateFullError, type StateStore, type StoredRecord } from '../../state/store.ts';
import type { HttpRequest } from '../../http/types.ts';
import {
  collectionMatcher,
  collectionOf,
  keyFromParam,
  keyString,
  type ResourceBinding,
} from '../../document/resources.ts';
import type { Operation } from '../../document/operations.ts';
import type { FieldMaker } from './field-maker.ts';
import type { ServerField } from './server-fields.ts';
import type { Tombstones } from '../../state/tombstones.ts';

export interface StateContext {
  request: HttpRequest;
  operation: Operation;
  binding: ResourceBinding;
  body: JsonValue | undefined;
  /** The request body's media type (`application/merge-patch+json`, a form). */
  mediaType?: string;
  /** The JSON text the body was parsed from, when there was one. */
  bodyText?: string;
  /** The body holds no bigint. */
  bodyPlain?: boolean;
  params: Record<string, string>;
  query: Record<string, JsonValue>;
}

/** One page of a list, with what its page fields need to say. */
export interface ListPage {
  records: StoredRecord[];
  /** How many items the collection holds in all. */
  total: number;
  offset: number;
  /** The page size asked for (or the document's default); undefined: everything. */
  limit?: number;
  hasMore: boolean;
  /** The key of the page's last item, the cursor of the next page. */
  lastKey?: string;
  firstKey?: string;
}

/** What a state action did. */
export type StateResult =
  | { kind: 'created'; record: StoredRecord; key: string; collection: string; text?: string; plain?: boolean }
  | { kind: 'exists'; key: string }
  | { kind: 'full'; message: string }
  | { kind: 'absent'; key: string; deleted: boolean }
  | { kind: 'mismatch'; message: string }
  | { kind: 'read'; record: StoredRecord }
  | { kind: 'listed'; page: ListPage }
  | { kind: 'replaced'; record: StoredRecord }
  | { kind: 'removed'; record: StoredRecord }
  | { kind: 'unread' };

/** What applyState takes from its engine, built once. */
export interface StateHooks {
  /** A key for a record that carries none (the mock numbers it). */
  nextKey(): string;
  /** Per create, replace and merge: the server fields it fills, when it has any. */
  serverFields: Map<Operation, ServerField[]>;
  fields: FieldMaker;
  /** The keys removed by a DELETE, so that a later read says "gone" rather than answering from the document. */
  tombstones: Tombstones;
}

/** Whether a key is unused in a collection (built only where a key may be made: not per request). */
const freeIn = (store: StateStore, collection: string) => (key: string) => store.get(collection, key) === undefined;

/** How often a create tries another made key when the one it made was taken meanwhile (a shared store). */
const MAKE_KEY_ATTEMPTS = 16;

/**
 * Applies the operation's role to the store and says what happened. The generator of its
 * server-made fields is loaded first (answers.ready), so the check for a free key and the insert
 * stay one step.
 */
export function applyState(store: StateStore, context: StateContext, hooks: StateHooks, attempt = 0): StateResult {
  const { binding } = context;
  const fields = hooks.serverFields.get(context.operation);
  if (fields !== undefined && hooks.fields.ready(fields) !== undefined)
    throw new Error(`plantstore bug: ${context.operation.id}'s server-made fields before their generator was loaded`);
  switch (binding.role) {
    case 'create':
      return create(store, context, hooks, fields, attempt);
    case 'list':
      return list(store, context);
    default:
      return itemAction(store, context, hooks, fields);
  }
}

function create(
  store: StateStore,
  context: StateContext,
  hooks: StateHooks,
  fields: ServerField[] | undefined,
  attempt: number,
): StateResult {
  const { binding } = context;
  const collection = collectionOf(binding, context.params);
  const { keyField } = binding;
  // A body sent in a media type the mock does not read into a value (XML beside JSON) stores nothing to answer with.
  if (context.body === undefined) return { kind: 'unread' };
  let record = unwrapped(context.body, binding) as StoredRecord;
  let text = record === context.body ? context.bodyText : undefined;
  let plain = context.bodyPlain;
  const mapped = renamed(record, binding.resource.fieldMap);
  if (mapped !== record) {
    record = mapped;
    text = undefined;
  }
  // The parents the path names are what was sent too: `{ServiceSid}` fills the item's `service_sid`.
  const { parentFields } = binding.resource;
  if (binding.parentParams.length > 0 && isRecord(record)) {
    for (let i = 0; i < binding.parentParams.length; i++) {
      const field = parentFields[i];
      if (!field || Object.hasOwn(record, field)) continue;
      if (record === context.body) record = { ...record };
      record[field] = context.params[binding.parentParams[i]];
      text = undefined;
    }
  }
  let made: string | undefined;
  // (Only an object body has fields to add; a schema may allow an array or a scalar create.)
  if (fields !== undefined && isRecord(record)) {
    record = { ...record };
    try {
      made = hooks.fields.fill(record, fields, collection, freeIn(store, collection));
    } catch (error) {
      return full(error);
    }
    // The record is no longer the body: serialized anew, and checked whole (a made int64 may pass 2^53).
    text = undefined;
    plain = undefined;
  }
  if (binding.singleton) return putSingle(store, collection, record, hooks);
  const given = keyField !== undefined && isRecord(record) ? keyString(record[keyField]) : undefined;
  const key = made ?? given ?? nextFreeKey(store, collection, hooks);
  let inserted: boolean;
  try {
    inserted = store.insert(collection, key, record, text);
  } catch (error) {
    return full(error);
  }
  // A key the mock made was free when made, but another mock on the same Redis may have taken it since.
  if (!inserted && (made !== undefined || given === undefined) && attempt < MAKE_KEY_ATTEMPTS)
    return applyState(store, context, hooks, attempt + 1);
  if (!inserted) return { kind: 'exists', key };
  hooks.tombstones.revive(store, collection, key);
  return { kind: 'created', record, key, collection, text, plain };
}

/** The key a singleton's one item is stored under (resources.ts): its path names no key. */
export const SINGLE_KEY = '-';

/** A singleton's create: its one item made, or merged into the one there (a second POST updates it, as Stripe's do). */
function putSingle(store: StateStore, collection: string, record: StoredRecord, hooks: StateHooks): StateResult {
  const existing = store.get(collection, SINGLE_KEY);
  try {
    if (existing) {
      const merged = mergePatch(existing, record);
      store.replace(collection, SINGLE_KEY, merged);
      return { kind: 'replaced', record: merged };
    }
    store.insert(collection, SINGLE_KEY, record);
  } catch (error) {
    return full(error);
  }
  hooks.tombstones.revive(store, collection, SINGLE_KEY);
  return { kind: 'created', record, key: SINGLE_KEY, collection };
}

/** A numbered key no record holds yet (a seed or a client may have taken "3"). */
function nextFreeKey(store: StateStore, collection: string, hooks: StateHooks): string {
  for (;;) {
    const key = hooks.nextKey();
    if (store.get(collection, key) === undefined) return key;
  }
}

function list(store: StateStore, context: StateContext): StateResult {
  const { binding, query } = context;
  const collection = collectionOf(binding, context.params);
  const paging = binding.resource.paging;
  // No paging parameter declared: the Plant Store's list reads `offset` and `limit` when sent.
  const limit = toCount(query[paging?.limit ?? 'limit']) ?? paging?.defaultLimit;
  let offset = toCount(query[paging?.offset ?? 'offset']) ?? 0;
  if (paging?.page !== undefined && limit !== undefined) {
    const page = toCount(query[paging.page]);
    if (page !== undefined) offset = Math.max(0, page - paging.firstPage) * limit;
  }
  const after = paging?.after === undefined ? undefined : query[paging.after];
  const before = paging?.before === undefined ? undefined : query[paging.before];
  if ((after !== undefined && after !== '') || (before !== undefined && before !== ''))
    return { kind: 'listed', page: cursorPage(store, collection, binding, limit, after, before) };
  const wrapped = binding.resource.listEnvelope !== undefined;
  if (!wrapped) {
    // A bare array says nothing about the rest: only the page is read.
    const records = store.list(collection, offset, limit);
    return { kind: 'listed', page: { records, total: records.length, offset, limit, hasMore: false } };
  }
  const total = countOf(store, collection);
  const records = store.list(collection, offset, limit);
  const keyOf = (record: StoredRecord | undefined) =>
    record && binding.keyField !== undefined ? keyString(record[binding.keyField]) : undefined;
  return {
    kind: 'listed',
    page: {
      records,
      total,
      offset,
      limit,
      hasMore: offset + records.length < total,
      lastKey: keyOf(records.at(-1)),
      firstKey: keyOf(records[0]),
    },
  };
}

/** A page found by a cursor: the items after (or before) the one with that key. */
function cursorPage(
  store: StateStore,
  collection: string,
  binding: ResourceBinding,
  limit: number | undefined,
  after: JsonValue | undefined,
  before: JsonValue | undefined,
): ListPage {
  const all = store.list(collection);
  const keys = all.map((record) => (binding.keyField === undefined ? undefined : keyString(record[binding.keyField])));
  let start = 0;
  let end = all.length;
  if (after !== undefined && after !== '') start = keys.indexOf(keyString(after)) + 1;
  if (before !== undefined && before !== '') {
    const at = keys.indexOf(keyString(before));
    end = at === -1 ? all.length : at;
    if (limit !== undefined && (after === undefined || after === '')) start = Math.max(0, end - limit);
  }
  const stop = limit === undefined ? end : Math.min(end, start + limit);
  const records = all.slice(start, stop);
  return {
    records,
    total: all.length,
    offset: start,
    limit,
    hasMore: stop < all.length,
    lastKey: keys[stop - 1],
    firstKey: keys[start],
  };
}

/** How many records a collection holds (the store counts when it can; else its keys are counted). */
function countOf(store: StateStore, collection: string): number {
  if (store.count) return store.count(collection);
  let n = 0;
  for (const [name] of store.keys()) if (name === collection) n++;
  return n;
}

function itemAction(
  store: StateStore,
  context: StateContext,
  hooks: StateHooks,
  fields: ServerField[] | undefined,
): StateResult {
  const { binding, body } = context;
  const { keyField } = binding;
  const named = binding.singleton ? SINGLE_KEY : (context.params[binding.keyParam ?? ''] ?? '');
  const key = binding.singleton ? SINGLE_KEY : keyFromParam(named, binding.keyType);
  if (key === undefined) return { kind: 'absent', key: named, deleted: false };
  const collection = binding.anyParent ? findCollection(store, binding, key) : collectionOf(binding, context.params);
  const existing = collection === undefined ? undefined : store.get(collection, key);
  if (collection === undefined || !existing)
    return { kind: 'absent', key, deleted: hooks.tombstones.has(store, collection ?? binding.collection, key) };
  switch (binding.role) {
    case 'read':
      return { kind: 'read', record: existing };
    case 'remove':
      store.remove(collection, key);
      hooks.tombstones.add(store, collection, key);
      return { kind: 'removed', record: existing };
    case 'replace':
    case 'merge': {
      const changed = changedRecord(existing, body, context.mediaType, binding);
      if (typeof changed === 'string') return { kind: 'mismatch', message: changed };
      if (
        keyField !== undefined &&
        changed[keyField] !== undefined &&
        keyString(changed[keyField]) !== key &&
        existing[keyField] !== undefined
      )
        return {
          kind: 'mismatch',
          message: `${keyField} ${keyString(changed[keyField])} in the body does not match ${key} in the path`,
        };
      if (keyField !== undefined && existing[keyField] !== undefined) changed[keyField] = existing[keyField];
      if (fields !== undefined) hooks.fields.fill(changed, fields, collection, freeIn(store, collection), existing);
      try {
        store.replace(collection, key, changed);
      } catch (error) {
        return full(error);
      }
      return { kind: 'replaced', record: changed };
    }
    default:
      return { kind: 'absent', key, deleted: false };
  }
}

/**
 * The record a replace or merge leaves: PUT replaces with the body; PATCH and an item POST merge a
 * JSON or form body field by field; `application/merge-patch+json` follows RFC 7396 (null removes)
 * and `application/json-patch+json` RFC 6902 (through fast-json-patch). A string is a refusal.
 */
function changedRecord(
  existing: StoredRecord,
  body: JsonValue | undefined,
  mediaType: string | undefined,
  binding: ResourceBinding,
): StoredRecord | string {
  const essence = mediaType?.split(';')[0].trim().toLowerCase();
  if (essence === 'application/json-patch+json') {
    if (!Array.isArray(body)) return 'a JSON Patch body is an array of operations (RFC 6902)';
    try {
      const patched = fastJsonPatch.applyPatch(
        structuredClone(existing),
        body as unknown as fastJsonPatch.Operation[],
        true,
        true,
        true,
      ).newDocument;
      if (!isRecord(patched)) return 'the patch leaves something other than an object';
      return patched;
    } catch (error) {
      return `the JSON Patch cannot be applied: ${(error as Error).message.split('\n')[0]}`;
    }
  }
  const item = unwrapped(body, binding);
  const incoming = renamed((isRecord(item) ? item : {}) as StoredRecord, binding.resource.fieldMap);
  if (binding.role === 'replace') return { ...incoming };
  // A JSON PATCH body is read as a merge patch too (RFC 7396), as most APIs mean it.
  return mergePatch(existing, incoming);
}

/** An item outside its collection's path (anyParent): the stored collection that holds its key. */
function findCollection(store: StateStore, binding: ResourceBinding, key: string): string | undefined {
  const belongs = collectionMatcher(binding);
  for (const [collection, stored] of store.keys()) if (stored === key && belongs(collection)) return collection;
  return undefined;
}

/** A store at its limit (--max-state-mb); anything else thrown is a bug, and stays one. */
function full(error: unknown): StateResult {
  if (!(error instanceof StateFullError)) throw error;
  return { kind: 'full', message: error.message };
}

/**
 * The record with request names turned into the answer's (FriendlyName -> friendly_name); the same object when none
 * applies.
 */
function renamed(record: StoredRecord, fieldMap: Record<string, string>): StoredRecord {
  if (!isRecord(record)) return record;
  let out: StoredRecord | undefined;
  for (const name in fieldMap) {
    if (!Object.hasOwn(record, name)) continue;
    out ??= { ...record };
    const value = out[name];
    delete out[name];
    Object.defineProperty(out, fieldMap[name], { value, enumerable: true, writable: true, configurable: true });
  }
  return out ?? record;
}

/**
 * A body that wraps its item (`{data: {...}}`, `bank_account[...]`: resources.ts): the item's fields, with the
 * fields beside the wrapper (a `metadata`) kept; else the body as it is.
 */
function unwrapped(body: JsonValue | undefined, binding: ResourceBinding): JsonValue | undefined {
  const field = binding.requestEnvelope;
  if (field === undefined || !isRecord(body) || !Object.hasOwn(body, field)) return body;
  const item = body[field];
  if (!isRecord(item)) return body;
  const out: StoredRecord = {};
  for (const [name, value] of Object.entries(body))
    if (name !== field)
      Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  for (const [name, value] of Object.entries(item))
    Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

function isRecord(value: unknown): value is StoredRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function toCount(value: JsonValue | undefined): number | undefined {
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** JSON merge patch (RFC 7396): null removes, objects merge, anything else replaces. */
function mergePatch(target: StoredRecord, patch: StoredRecord): StoredRecord {
  const out: StoredRecord = { ...target };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete out[name];
    else if (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      typeof out[name] === 'object' &&
      out[name] !== null &&
      !Array.isArray(out[name])
    ) {
      out[name] = mergePatch(out[name] as StoredRecord, value as StoredRecord);
    }
    // "__proto__" stays a plain key
    else Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
