// What a schema declares, read structurally: the properties an object may carry (through
// allOf/anyOf/oneOf and circular $refs), so answers can be cut down to what the contract promises.
import { getAtPointer } from './json-pointer.ts';
import type { JsonSchema } from './operations.ts';

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Follows $ref strings (only circular ones are left after dereferencing) within the document. */
export function resolveSchema(schema: unknown, document: unknown): Obj | undefined {
  let node = schema;
  for (let hops = 0; isObj(node) && typeof node.$ref === 'string' && hops < 32; hops++) {
    node = getAtPointer(document, node.$ref);
  }
  return isObj(node) ? node : undefined;
}

export interface ObjectShape {
  properties: Map<string, JsonSchema>;
  required: Set<string>;
  /** `x-plantstore-id` when the schema names its key field. */
  idField?: string;
}

const shapeCache = new WeakMap<object, ObjectShape>();

/**
 * The declared properties and required names of an object schema, merged over allOf/anyOf/oneOf; computed once per
 * schema.
 */
export function objectShape(schema: unknown, document: unknown): ObjectShape {
  if (schema === null || typeof schema !== 'object') return computeShape(schema, document);
  let shape = shapeCache.get(schema);
  if (!shape) {
    shape = computeShape(schema, document);
    shapeCache.set(schema, shape);
  }
  return shape;
}

function computeShape(schema: unknown, document: unknown): ObjectShape {
  const shape: ObjectShape = { properties: new Map(), required: new Set() };
  const visit = (node: unknown, depth: number) => {
    const s = resolveSchema(node, document);
    if (!s || depth > 16) return;
    if (typeof s['x-plantstore-id'] === 'string' && !shape.idField) shape.idField = s['x-plantstore-id'];
    if (isObj(s.properties)) {
      for (const [name, propertySchema] of Object.entries(s.properties)) {
        if (!shape.properties.has(name)) shape.properties.set(name, propertySchema as JsonSchema);
      }
    }
    if (Array.isArray(s.required)) for (const name of s.required) shape.required.add(String(name));
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      if (Array.isArray(s[key])) for (const branch of s[key]) visit(branch, depth + 1);
    }
  };
  visit(schema, 0);
  return shape;
}

/** Cuts a value down to what one schema declares; `depth` counts the levels above it. */
export type Picker = (value: unknown, depth?: number) => unknown;

/** Keeps only what the schema declares, recursively; undeclared and writeOnly properties are dropped. */
export function pickDeclared(value: unknown, schema: unknown, document: unknown): unknown {
  return declaredPicker(schema, document)(value);
}

const identity: Picker = (value) => value;
const pickers = new WeakMap<object, WeakMap<object, Picker>>(); // per document, per schema
const NO_DOCUMENT = {};

/**
 * pickDeclared for one schema, built once: the schema's $refs resolved, its properties and their
 * pickers listed. An answer is cut on every request, and walking the schema each time cost a share
 * of a create (fast path: see docs/performance.md §10.11). Circular schemas are fine (a schema met
 * again reuses its picker); data nested deeper than 64 levels is kept as it is below that.
 */
export function declaredPicker(schema: unknown, document: unknown): Picker {
  const s = resolveSchema(schema, document);
  if (!s) return identity;
  const key = document !== null && typeof document === 'object' ? document : NO_DOCUMENT;
  let ofDocument = pickers.get(key);
  if (!ofDocument) {
    ofDocument = new WeakMap();
    pickers.set(key, ofDocument);
  }
  const known = ofDocument.get(s);
  if (known) return known;
  // Registered before its parts are built, so a cycle back to this schema finds it.
  let pickItem: Picker | undefined;
  let fields: Array<[name: string, pick: Picker]> = [];
  let freeForm = true;
  const picker: Picker = (value, depth = 0) => {
    if (depth > 64 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return pickItem === undefined ? value : value.map((item) => pickItem!(item, depth + 1));
    if (freeForm) return value; // a free-form object declares no list to cut to
    const out: Obj = {};
    for (let i = 0; i < fields.length; i++) {
      const [name, pick] = fields[i];
      if (Object.hasOwn(value, name)) out[name] = pick((value as Obj)[name], depth + 1);
    }
    return out;
  };
  ofDocument.set(s, picker);
  if (s.items !== undefined) pickItem = declaredPicker(s.items, document);
  // writeOnly properties (a password) are the client's to send and never the server's to answer.
  const declared = objectShape(s, document).properties;
  freeForm = declared.size === 0;
  fields = [...declared]
    .filter(([, propertySchema]) => resolveSchema(propertySchema, document)?.writeOnly !== true)
    .map(([name, propertySchema]) => [name, declaredPicker(propertySchema, document)]);
  return picker;
}
