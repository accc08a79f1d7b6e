// Text from the wire (a parameter, a form field) read as the JSON values its schema describes:
// numbers, booleans and null by the schema's type, list items and object properties by their
// own schemas. Anything that does not read as its type stays text, for the validator to name.
import { exactInteger, type JsonValue, parseJson } from '../../json/exact-json.ts';
import { objectShape, resolveSchema } from '../../document/schema-shape.ts';
import type { ParameterKind, RawValue } from './parameter-styles.ts';

type Obj = Record<string, unknown>;

export function typesOf(schema: Obj | undefined): unknown[] {
  return Array.isArray(schema?.type) ? schema.type : [schema?.type];
}

/**
 * A parameter's shape. A schema typed only in its anyOf/oneOf branches (Stripe's
 * `subscription_default_tax_rates`: an array or ""; `created`: a range object or an integer) is an
 * array when a branch is one, an object only when no branch is a primitive.
 */
export function kindOf(schema: Obj | undefined, document?: unknown): ParameterKind {
  if (
    schema !== undefined &&
    schema.type === undefined &&
    schema.items === undefined &&
    schema.properties === undefined &&
    (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf))
  ) {
    const types = typesWithBranches(schema, document);
    if (types.includes('array')) return 'array';
    return types.includes('object') && types.every((t) => t === 'object' || t === 'null') ? 'object' : 'primitive';
  }
  const types = typesOf(schema);
  if (types.includes('array') || (schema?.items !== undefined && schema.type === undefined)) return 'array';
  if (types.includes('object') || (schema?.properties !== undefined && schema.type === undefined)) return 'object';
  return 'primitive';
}

/**
 * The text of a parameter as the values its schema describes: items and properties by their own
 * schemas, whose types may sit in allOf/anyOf/oneOf branches (converted AWS documents wrap every
 * item and property in an allOf).
 */
export function coerceRaw(
  raw: RawValue,
  kind: ParameterKind,
  schema: Obj | undefined,
  document: unknown,
  jsonOverText = false,
): JsonValue {
  if (kind === 'array' && Array.isArray(raw)) {
    // The items' schema may sit in a branch (Stripe's anyOf an array and "").
    const types = typesWithBranches(resolveSchema(itemsOf(schema, document), document), document);
    return raw.map((text) => coerce(text, types, jsonOverText));
  }
  // Read as an object whatever the kind: deepObject pairs (name[lt]=1) are one, and Stripe's
  // `created` is anyOf an object and an integer.
  if (typeof raw === 'object' && !Array.isArray(raw)) {
    const object: Record<string, JsonValue> = {};
    for (const [name, text] of Object.entries(raw))
      object[name] = coerce(
        text,
        typesWithBranches(resolveSchema(propertyOf(schema, name, document), document), document),
        jsonOverText,
      );
    return object;
  }
  return coerce(String(raw), typesWithBranches(schema, document), jsonOverText);
}

/** `jsonOverText`: JSON text of an object or array is read as one even where a string is allowed too. */
export function coerce(text: string, types: unknown[], jsonOverText = false): JsonValue {
  if (types.includes('integer') || types.includes('number')) {
    if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) {
      const exact = exactInteger(text);
      if (exact !== undefined) return Number.isSafeInteger(Number(exact)) ? Number(exact) : exact;
      return Number(text);
    }
  }
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.includes('null') && text === '') return null;
  // "name=" is OpenAPI's empty array or object (its style table), when the schema takes no text.
  if (text === '' && !types.includes('string')) {
    if (types.includes('array')) return [];
    if (types.includes('object')) return {};
  }
  // A style writes one level of structure; an object or array inside it (an array of objects,
  // OpenAPI leaves that undefined) can only travel as JSON text, as a `content` parameter does.
  if (
    (types.includes('object') || types.includes('array')) &&
    (jsonOverText || !types.includes('string')) &&
    (text.startsWith('{') || text.startsWith('['))
  ) {
    const parsed = parseJson(text);
    if (parsed.ok) return parsed.value;
  }
  return text;
}

/**
 * Nested form data (qs's objects and arrays of strings) read as the values its schema describes,
 * property by property and item by item; branches of anyOf/oneOf/allOf lend their types and
 * properties. A single value where the schema wants an array is a list of one.
 */
export function coerceDeep(value: unknown, schema: unknown, document: unknown, depth = 0): JsonValue {
  const s = resolveSchema(schema, document);
  if (depth > 32) return value as JsonValue;
  const types = typesWithBranches(s, document);
  if (typeof value === 'string') {
    // "name=" is OpenAPI's empty array or object (its style table), when the schema takes no text.
    if (value === '' && !types.includes('string')) {
      if (types.includes('array')) return [];
      if (types.includes('object')) return {};
    }
    if (types.includes('array') && !types.includes('string'))
      return [coerceDeep(value, itemsOf(s, document), document, depth + 1)];
    return coerce(value, types);
  }
  if (Array.isArray(value)) return value.map((item) => coerceDeep(item, itemsOf(s, document), document, depth + 1));
  if (value !== null && typeof value === 'object') {
    // qs reads a[0]=x&a[1]=y as an array, but a[5]=x past its limit as an object: an array schema wants the list.
    if (types.includes('array') && !types.includes('object'))
      return Object.values(value).map((item) => coerceDeep(item, itemsOf(s, document), document, depth + 1));
    const out: Record<string, JsonValue> = {};
    for (const [name, item] of Object.entries(value))
      out[name] = coerceDeep(item, propertyOf(s, name, document), document, depth + 1);
    return out;
  }
  return value as JsonValue;
}

function typesWithBranches(schema: Obj | undefined, document: unknown): unknown[] {
  const types = new Set(typesOf(schema));
  if (schema?.properties !== undefined) types.add('object');
  if (schema?.items !== undefined) types.add('array');
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema?.[key];
    if (Array.isArray(branches))
      for (const branch of branches)
        for (const type of typesWithBranches(resolveSchema(branch, document), document)) types.add(type);
  }
  types.delete(undefined);
  return [...types];
}

function itemsOf(schema: Obj | undefined, document: unknown): unknown {
  if (schema?.items !== undefined) return schema.items;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema?.[key];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      const items = itemsOf(resolveSchema(branch, document), document);
      if (items !== undefined) return items;
    }
  }
  return undefined;
}

function propertyOf(schema: Obj | undefined, name: string, document: unknown): unknown {
  const declared = objectShape(schema, document).properties.get(name);
  if (declared !== undefined) return declared;
  if (schema?.additionalProperties !== undefined && typeof schema.additionalProperties === 'object')
    return schema.additionalProperties;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema?.[key];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      const b = resolveSchema(branch, document);
      if (b?.additionalProperties !== undefined && typeof b.additionalProperties === 'object')
        return b.additionalProperties;
    }
  }
  return undefined;
}
