// A parameter's or header's text read as the value its schema's type describes, by the rules the
// mock reads request text with (src/mock/request/coerce-text.ts: a number literal by the schema's numeric
// type, exactly when past 2^53; true/false; "" as null where null is allowed), for primitives
// only. The runner may not import the mock (they are separate adapters of the one engine), and a
// judgement of "forbidden" must read the text as the server under test is told to.
import { exactInteger, type JsonValue } from '../json/exact-json.ts';

/** True when a schema describes one primitive value (not an array or object). */
export function isPrimitiveSchema(schema: Record<string, unknown>): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('array') || types.includes('object')) return false;
  if (schema.type === undefined && (schema.items !== undefined || schema.properties !== undefined)) return false;
  // Stripe's `created` is anyOf a range object and an integer: a schema with an object branch is no primitive.
  return branches(schema).every(isPrimitiveSchema);
}

/** The anyOf, oneOf and allOf branches that are schema objects. */
function branches(schema: Record<string, unknown>): Array<Record<string, unknown>> {
  return ['anyOf', 'oneOf', 'allOf'].flatMap((key) =>
    Array.isArray(schema[key])
      ? (schema[key] as unknown[]).filter(
          (branch): branch is Record<string, unknown> => branch !== null && typeof branch === 'object',
        )
      : [],
  );
}

/** The text as its schema's primitive type reads it; text that does not read as its type stays text. */
export function readWireText(text: string, schema: Record<string, unknown>): JsonValue {
  const types = typesOf(schema);
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) {
    const exact = exactInteger(text);
    if (exact !== undefined) return Number.isSafeInteger(Number(exact)) ? Number(exact) : exact;
    return Number(text);
  }
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.includes('null') && text === '') return null;
  return text;
}

/** The types a schema and its branches name (`anyOf: [integer, string]` names both). */
function typesOf(schema: Record<string, unknown>): unknown[] {
  return [...(Array.isArray(schema.type) ? schema.type : [schema.type]), ...branches(schema).flatMap(typesOf)];
}
