// What a bound operation does to state (see resources.ts for the conventions). Each action
// checks and writes in one synchronous step; only the durability wait comes after.
import type { JsonValue } from '../json/exact-json.ts';
import { StateFullError, type StateStore, type StoredRecord } from '../state/store.ts';
import { declaredStatuses, preferDeclared, type Operation } from '../document/operations.ts';
import type { MockRequest } from '../http/types.ts';
import { keyFromParam, keyString, type ResourceBinding } from '../document/resources.ts';
import type { Outcome, Responder } from './responder.ts';
import type { FieldMaker } from './field-maker.ts';
import type { ServerField } from './server-fields.ts';

export interface StateContext {
  request: MockRequest;
  operation: Operation;
  binding: ResourceBinding;
  body: JsonValue | undefined;
  /** The JSON text the body was parsed from, when there was one. */
  bodyText?: string;
  /** The body holds no bigint. */
  bodyPlain?: boolean;
  params: Record<string, string>;
  query: Record<string, JsonValue>;
}

/** An answer, and the record a successful change touched (for webhooks). */
export type StateOutcome = Outcome & { changed?: StoredRecord };

/** Answers once the store's writes are durable: at once for memory, after the fsync for a file. */
function whenDurable(store: StateStore, answer: () => StateOutcome): StateOutcome | Promise<StateOutcome> {
  const pending = store.flush();
  return pending ? pending.then(answer) : answer();
}

/** The answer, marked with the record it changed (the answer is the responder's fresh object). */
function withChange(outcome: Outcome, changed: StoredRecord): StateOutcome {
  (outcome as StateOutcome).changed = changed;
  return outcome;
}

/** What applyState takes from its engine, built once. */
export interface StateHooks {
  /** A key for a record that carries none (the mock numbers it). */
  nextKey(): string;
  /** Per create, replace and merge: the server fields it fills, when it has any. */
  serverFields: Map<Operation, ServerField[]>;
  fields: FieldMaker;
  /** The answer when no stored record matches an item's key. */
  absent(request: MockRequest, operation: Operation, binding: ResourceBinding, key: string): StateOutcome | Promise<StateOutcome>;
}

/** Whether a key is unused in a collection (built only where a key may be made: not per request). */
const freeIn = (store: StateStore, collection: string) => (key: string) => store.get(collection, key) === undefined;

/** How often a create tries another made key when the one it made was taken meanwhile (a shared store). */
const MAKE_KEY_ATTEMPTS = 16;

/** Applies the operation's role to the store and answers. */
export function applyState(
  store: StateStore,
  responder: Responder,
  context: StateContext,
  hooks: StateHooks,
  attempt = 0,
): StateOutcome | Promise<StateOutcome> {
  const { request, operation, binding, body } = context;
  const { collection, keyField, noun } = binding;
  const success = lowestSuccess(operation);
  const fields = hooks.serverFields.get(operation);
  if (fields !== undefined) {
    // Loaded before anything is read, so the check for a free key and the insert stay one step.
    const loading = hooks.fields.ready(fields);
    if (loading) return loading.then(() => applyState(store, responder, context, hooks));
  }

  switch (binding.role) {
    case 'create': {
      let record = body as StoredRecord;
      let made: string | undefined;
      let text = context.bodyText;
      let plain = context.bodyPlain;
      // (Only an object body has fields to add; a schema may allow an array or a scalar create.)
      if (fields !== undefined && isRecord(record)) {
        record = { ...record };
        try {
          made = hooks.fields.fill(record, fields, collection, freeIn(store, collection));
        } catch (error) {
          return refuseWhenFull(error, responder, request, operation);
        }
        // The record is no longer the body: serialized anew, and checked whole (a made int64 may pass 2^53).
        text = undefined;
        plain = undefined;
      }
      const given = keyField !== undefined ? keyString(record[keyField]) : undefined;
      const key = made ?? given ?? hooks.nextKey();
      let inserted: boolean;
      try {
        inserted = store.insert(collection, key, record, text);
      } catch (error) {
        return refuseWhenFull(error, responder, request, operation);
      }
      // A key the mock made was free when made, but another mock on the same Redis may have taken it since.
      if (!inserted && (made !== undefined || given === undefined) && attempt < MAKE_KEY_ATTEMPTS)
        return applyState(store, responder, context, hooks, attempt + 1);
      if (!inserted) {
        return responder.fail(request, operation, preferDeclared(operation, [409, 400, 422]), `a ${noun} with ${keyField ?? 'key'} ${key} already exists`);
      }
      // Written out rather than through whenDurable: no closure and no copy on the common path.
      const pending = store.flush();
      if (pending) return pending.then(() => withChange(responder.json(request, operation, success, record, plain), record));
      return withChange(responder.json(request, operation, success, record, plain), record);
    }
    case 'list': {
      const offset = toCount(context.query.offset) ?? 0;
      const limit = toCount(context.query.limit);
      return responder.json(request, operation, success, store.list(collection, offset, limit));
    }
    default:
      break;
  }

  const named = context.params[binding.keyParam ?? ''] ?? '';
  const key = keyFromParam(named, binding.keyType);
  if (key === undefined) return hooks.absent(request, operation, binding, named);
  const existing = store.get(collection, key);
  if (!existing) return hooks.absent(request, operation, binding, key);
  switch (binding.role) {
    case 'read':
      return responder.json(request, operation, success, existing);
    case 'remove':
      store.remove(collection, key);
      return whenDurable(store, () => ({ ...responder.json(request, operation, success, success === 204 ? undefined : existing), changed: existing }));
    case 'replace':
    case 'merge': {
      const incoming = (body ?? {}) as StoredRecord;
      if (keyField !== undefined && incoming[keyField] !== undefined && keyString(incoming[keyField]) !== key) {
        return responder.fail(
          request,
          operation,
          preferDeclared(operation, [400, 422]),
          `${keyField} ${keyString(incoming[keyField])} in the body does not match ${key} in the path`,
        );
      }
      const record = binding.role === 'replace' ? { ...incoming } : mergePatch(existing, incoming);
      if (keyField !== undefined) record[keyField] = existing[keyField];
      if (fields !== undefined) hooks.fields.fill(record, fields, collection, freeIn(store, collection), existing);
      try {
        store.replace(collection, key, record);
      } catch (error) {
        return refuseWhenFull(error, responder, request, operation);
      }
      return whenDurable(store, () => ({ ...responder.json(request, operation, success, success === 204 ? undefined : record), changed: record }));
    }
    default:
      return responder.fail(request, operation, 400, `unsupported role ${binding.role}`);
  }
}

/**
 * A store at its limit (--max-state-mb) refuses the change with the document's error shape and a
 * status it declares for a refused request: 507 Insufficient Storage when declared, else 400 or 422
 * (the Plant Store declares 400). Anything else thrown is a bug, and stays one.
 */
function refuseWhenFull(error: unknown, responder: Responder, request: MockRequest, operation: Operation): StateOutcome {
  if (!(error instanceof StateFullError)) throw error;
  return responder.fail(request, operation, preferDeclared(operation, [507, 400, 422]), error.message);
}

const successCache = new WeakMap<Operation, number>();

/** The lowest declared 2xx (200 when none is declared); computed once per operation. */
function lowestSuccess(operation: Operation): number {
  let success = successCache.get(operation);
  if (success === undefined) {
    success =
      declaredStatuses(operation)
        .filter((s) => s >= 200 && s < 300)
        .sort((a, b) => a - b)[0] ?? 200;
    successCache.set(operation, success);
  }
  return success;
}

function isRecord(value: unknown): value is StoredRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function toCount(value: JsonValue | undefined): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/** JSON merge patch (RFC 7396): null removes, objects merge, anything else replaces. */
function mergePatch(target: StoredRecord, patch: StoredRecord): StoredRecord {
  const out: StoredRecord = { ...target };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete out[name];
    else if (typeof value === 'object' && !Array.isArray(value) && typeof out[name] === 'object' && out[name] !== null && !Array.isArray(out[name])) {
      out[name] = mergePatch(out[name] as StoredRecord, value as StoredRecord);
    } else Object.defineProperty(out, name, { value, enumerable: true, writable: true, configurable: true }); // "__proto__" stays a plain key
  }
  return out;
}
