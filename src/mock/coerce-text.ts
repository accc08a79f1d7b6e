// Text from the wire (a parameter, a form field) read as the JSON values its schema describes:
// numbers, booleans and null by the schema's type, list items and object properties by their
// own schemas. Anything that does not read as its type stays text, for the validator to name.
import { exactInteger, type JsonValue } from '../json/exact-json.ts';
import { resolveSchema } from '../spec/schema-shape.ts';
import type { ParameterKind, RawValue } from './parameter-styles.ts';

type Obj = Record<string, unknown>;

export function typesOf(schema: Obj | undefined): unknown[] {
  return Array.isArray(schema?.type) ? schema.type : [schema?.type];
}

export function kindOf(schema: Obj | undefined): ParameterKind {
  const types = typesOf(schema);
  if (types.includes('array') || (schema?.items !== undefined && schema.type === undefined)) return 'array';
  if (types.includes('object') || (schema?.properties !== undefined && schema.type === undefined)) return 'object';
  return 'primitive';
}

/** The text of a parameter as the values its schema describes: items and properties by their own schemas. */
export function coerceRaw(raw: RawValue, kind: ParameterKind, schema: Obj | undefined, document: unknown): JsonValue {
  if (kind === 'array' && Array.isArray(raw)) {
    const items = resolveSchema(schema?.items, document);
    return raw.map((text) => coerce(text, typesOf(items)));
  }
  if (kind === 'object' && typeof raw === 'object' && !Array.isArray(raw)) {
    const properties = (schema?.properties ?? {}) as Obj;
    const object: Record<string, JsonValue> = {};
    for (const [name, text] of Object.entries(raw)) object[name] = coerce(text, typesOf(resolveSchema(properties[name], document)));
    return object;
  }
  return coerce(String(raw), typesOf(schema));
}

export function coerce(text: string, types: unknown[]): JsonValue {
  if (types.includes('integer') || types.includes('number')) {
    if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) {
      const exact = exactInteger(text);
      if (exact !== undefined) return Number.isSafeInteger(Number(exact)) ? Number(exact) : exact;
      return Number(text);
    }
  }
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.includes('null') && text === '') return null;
  return text;
}
