// What a negative payload needs to know about one schema node, read through allOf and $ref (the
// dereferenced document keeps circular $refs as "#/..." strings). anyOf/oneOf are left alone: a
// rule that only one branch states is not a rule every payload must keep.
import type { JsonValue } from '../json/exact-json.ts';

export interface SchemaFacts {
  /** Declared JSON types; empty when the schema says nothing about the type. */
  types: Set<string>;
  properties: Map<string, unknown>;
  required: Set<string>;
  /** additionalProperties or unevaluatedProperties is false. */
  closed: boolean;
  items?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  /** A number (2020-12) or a boolean modifying minimum/maximum (OpenAPI 3.0). */
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minLength?: number;
  maxLength?: number;
  enum?: unknown[];
}

type Node = Record<string, unknown>;

/** Collects the facts of a schema node and its allOf members. */
export function describeSchema(schema: unknown, resolveRef: (ref: string) => unknown): SchemaFacts {
  const facts: SchemaFacts = { types: new Set(), properties: new Map(), required: new Set(), closed: false };
  const visited = new Set<unknown>();
  const visit = (raw: unknown) => {
    const node = typeof (raw as Node)?.$ref === 'string' ? resolveRef((raw as Node).$ref as string) : raw;
    if (node === null || typeof node !== 'object' || visited.has(node)) return;
    visited.add(node);
    const n = node as Node;
    if (facts.types.size === 0 && n.type !== undefined)
      for (const type of [n.type].flat()) facts.types.add(String(type));
    if (n.properties && typeof n.properties === 'object') {
      for (const [key, value] of Object.entries(n.properties))
        if (!facts.properties.has(key)) facts.properties.set(key, value);
    }
    if (Array.isArray(n.required)) for (const key of n.required) facts.required.add(String(key));
    if (n.additionalProperties === false || n.unevaluatedProperties === false) facts.closed = true;
    facts.items ??= n.items;
    for (const key of [
      'format',
      'minimum',
      'maximum',
      'exclusiveMinimum',
      'exclusiveMaximum',
      'minLength',
      'maxLength',
      'enum',
    ] as const) {
      if (facts[key] === undefined && n[key] !== undefined) (facts as unknown as Node)[key] = n[key];
    }
    if (Array.isArray(n.allOf)) n.allOf.forEach(visit);
  };
  visit(schema);
  return facts;
}

/** The JSON type of a value, as JSON Schema names it. */
export function jsonType(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'bigint') return 'integer';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
