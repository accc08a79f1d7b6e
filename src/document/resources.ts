// What each operation does to state, inferred from REST conventions in the paths, so a grown
// document needs no configuration: POST /plants creates in the collection /plants, GET /plants
// lists it, and GET|PUT|PATCH|DELETE /plants/{id} read, replace, merge or remove one item.
// The key is the body field `id` (or the schema's `x-plantstore-id`), matched to the item's
// path parameter; a key only the answer declares is made by the mock at the create.
import { singular } from './english.ts';
import { jsonContent, type Operation } from './operations.ts';
import { objectShape, resolveSchema } from './schema-shape.ts';

export type ResourceRole = 'create' | 'list' | 'read' | 'replace' | 'merge' | 'remove';

export interface ResourceBinding {
  role: ResourceRole;
  collection: string;
  /** The body field that carries the key (undefined: the mock numbers records itself). */
  keyField?: string;
  /** The key's type in the schema, so "42" from a path matches the integer 42 from a body. */
  keyType: 'integer' | 'string';
  /** For item operations: the path parameter that names the item. */
  keyParam?: string;
  /** Singular noun for messages ("plant" for /plants). */
  noun: string;
}

const ITEM_PATH = /^(.*)\/\{([^}]+)\}$/;

/** The binding of an operation to a collection, or undefined when it fits no convention. */
export function bindResource(operation: Operation, document: unknown): ResourceBinding | undefined {
  const item = ITEM_PATH.exec(operation.path);
  const collection = item ? item[1] : operation.path;
  if (collection === '' || collection.includes('{')) return undefined;
  const noun = singular(collection.split('/').pop() ?? 'resource');
  const bodySchema = operation.requestBody && jsonContent(operation.requestBody.contents)?.schema;
  const okResponse = operation.responses.find((r) => r.status.startsWith('2'));
  const responseSchema = okResponse && jsonContent(okResponse.contents)?.schema;
  const shape = objectShape(bodySchema ?? itemSchema(responseSchema, document), document);
  // A server-made key (a readOnly id) is declared by the answer only; the mock then generates it.
  const answer = objectShape(itemSchema(responseSchema, document), document);
  const keyField = shape.idField ?? answer.idField ?? (shape.properties.has('id') || answer.properties.has('id') ? 'id' : undefined);
  const keySchema = keyField ? resolveSchema(shape.properties.get(keyField) ?? answer.properties.get(keyField), document) : undefined;
  const keyType = keySchema?.type === 'string' ? 'string' : 'integer';
  const base = { collection, keyField, keyType, noun } as const;
  if (!item) {
    // A create takes an object and answers one (or nothing): a POST of a list (petstore's
    // /user/createWithList) or one that answers a list (a search) stores nothing.
    if (
      operation.method === 'POST' &&
      bodySchema &&
      describesObject(bodySchema, document) &&
      (responseSchema === undefined || describesObject(responseSchema, document))
    )
      return { role: 'create', ...base };
    if (operation.method === 'GET' && resolveSchema(responseSchema, document)?.type === 'array') return { role: 'list', ...base };
    return undefined;
  }
  const roles: Record<string, ResourceRole> = { GET: 'read', PUT: 'replace', PATCH: 'merge', DELETE: 'remove' };
  const role = roles[operation.method];
  return role ? { role, ...base, keyParam: item[2] } : undefined;
}

/**
 * Binds every operation that fits a convention. Item operations take the key field of their
 * collection's create operation (GET /plants/{id} answers a Plant, which may not declare id).
 */
export function bindResources(operations: Operation[], document: unknown): Map<Operation, ResourceBinding> {
  const bindings = new Map<Operation, ResourceBinding>();
  for (const operation of operations) {
    const binding = bindResource(operation, document);
    if (binding) bindings.set(operation, binding);
  }
  const creates = new Map([...bindings.values()].filter((b) => b.role === 'create').map((b) => [b.collection, b]));
  for (const [operation, binding] of bindings) {
    const create = creates.get(binding.collection);
    if (create && binding.role !== 'create') bindings.set(operation, { ...binding, keyField: create.keyField, keyType: create.keyType });
  }
  return bindings;
}

/** Whether a schema can only be an object: not an array, not a scalar, not untyped. */
function describesObject(schema: unknown, document: unknown): boolean {
  const s = resolveSchema(schema, document);
  if (!s) return false;
  if (s.type !== undefined) return s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object'));
  return objectShape(s, document).properties.size > 0;
}

function itemSchema(schema: unknown, document: unknown): unknown {
  const s = resolveSchema(schema, document);
  return s?.type === 'array' ? s.items : schema;
}

/** The exact key string of a key value: integers in canonical decimal (bigint-exact), strings as is. */
export function keyString(value: unknown): string | undefined {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return undefined;
    // Past the small integers, toFixed(0) writes the same digits ~40 ns sooner than String()
    // (~70 against ~110 ns for a 13-digit id: it skips the shortest-form search). The two agree on
    // every safe integer, which is what a body holds here (a larger literal parses to a bigint);
    // past 2^53, toFixed(0) writes the double's exact value, as the bigint would be written.
    return value >= -0x80000000 && value <= 0x7fffffff ? String(value === 0 ? 0 : value) : value.toFixed(0);
  }
  if (typeof value === 'string') return value;
  return undefined;
}

/** The key a path parameter names, in the same form keyString gives for a body field. */
export function keyFromParam(text: string, keyType: 'integer' | 'string'): string | undefined {
  if (keyType === 'string') return text;
  if (!/^-?\d{1,30}$/.test(text)) return undefined;
  return BigInt(text).toString();
}
