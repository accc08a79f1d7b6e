// Negative cases for parameters: one value per rule a path, query or header parameter's schema
// sets (below its minimum, above its maximum, not its type, outside its enum, past its maxLength),
// sent in an otherwise valid request that must then be refused with a 4xx. `limit=0` where the
// minimum is 1 is the typical one. Each value is checked against the toolkit's one validator, so a
// value is only sent when the document really forbids it. Objects and arrays are left alone.
import type { JsonValue } from '../../json/exact-json.ts';
import type { Operation, ParameterSpec } from '../../document/operations.ts';
import { resolveSchema } from '../../document/schema-shape.ts';
import type { Validators } from '../../validation/validator.ts';
import { generateParameters, type DrawValue, type ParameterParts } from './generated-parameters.ts';
import { parameterFormat, serializeHeader, serializePath, serializeQuery } from './parameter-style.ts';

/** Broken values per parameter, at most: a parameter with many rules does not multiply the run. */
const PER_PARAMETER = 2;

/** Longest maxLength broken by sending one character more. */
const LONGEST_BROKEN_LENGTH = 1000;

// OpenAPI: header parameters with these names are ignored (the body and the security schemes own them).
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

export interface BrokenParameter {
  parameter: ParameterSpec;
  /** What the value breaks, for the case's name: 'below the minimum 1'. */
  rule: string;
  value: JsonValue;
  /** The value on the wire, in the parameter's style: a path segment, query pieces or a header value. */
  wire: string[];
}

/**
 * The broken values of an operation's path, query and header parameters (none for those `skip` says, such as
 * credentials).
 */
export function brokenParameters(
  operation: Operation,
  validators: Validators,
  document: unknown,
  skip: (parameter: ParameterSpec) => boolean,
): BrokenParameter[] {
  const out: BrokenParameter[] = [];
  for (const parameter of operation.parameters) {
    if (parameter.in === 'cookie' || skip(parameter) || parameter.schema === undefined) continue;
    if (parameter.in === 'header' && IGNORED_HEADERS.has(parameter.name.toLowerCase())) continue;
    const schema = resolveSchema(parameter.schema, document);
    if (!schema) continue;
    const check = validators.at(parameter.schemaPointer);
    const format = parameterFormat(parameter, document);
    let taken = 0;
    for (const [rule, value] of candidates(schema)) {
      if (taken >= PER_PARAMETER) break;
      if (check(value).ok) continue;
      const wire =
        parameter.in === 'path'
          ? [serializePath(parameter.name, value, format)]
          : parameter.in === 'query'
            ? serializeQuery(parameter.name, value, format)
            : [serializeHeader(value, format)];
      if (wire.length === 0 || wire.some((piece) => piece === '')) continue;
      out.push({ parameter, rule, value, wire });
      taken++;
    }
  }
  return out;
}

/**
 * A valid request's parameters with the broken value in the place of the parameter's own; the
 * others drawn as the valid cases draw them (`omit`: those the credentials fill).
 */
export function withBrokenParameter(
  operation: Operation,
  broken: BrokenParameter,
  draw: DrawValue,
  seed: number,
  document: unknown,
  omit: (parameter: ParameterSpec) => boolean,
): ParameterParts | undefined {
  const { parameter, wire } = broken;
  // A path parameter's segment goes into the template first, so the rest of the path is drawn as usual.
  const patched =
    parameter.in === 'path'
      ? { ...operation, path: operation.path.replace(`{${parameter.name}}`, wire[0]) }
      : operation;
  const rest = generateParameters(patched, draw, seed, document, true, (other) => other === parameter || omit(other));
  if (!rest.ok) return undefined;
  const parts = rest.parts;
  if (parameter.in === 'query') return { ...parts, rawQuery: [...parts.rawQuery, ...wire] };
  if (parameter.in === 'header')
    return { ...parts, headers: { ...parts.headers, [parameter.name.toLowerCase()]: wire[0] } };
  return parts;
}

/** The values that break one rule each, in the order they are tried. */
function candidates(schema: Record<string, unknown>): Array<[rule: string, value: JsonValue]> {
  const out: Array<[string, JsonValue]> = [];
  const type = schema.type;
  const numeric = type === 'integer' || type === 'number';
  if (numeric) {
    const step = type === 'integer' ? 1 : 0.5;
    if (typeof schema.minimum === 'number')
      out.push([
        `below the minimum ${schema.minimum}`,
        schema.exclusiveMinimum === true ? schema.minimum : schema.minimum - step,
      ]);
    if (typeof schema.exclusiveMinimum === 'number')
      out.push([`not above the exclusive minimum ${schema.exclusiveMinimum}`, schema.exclusiveMinimum]);
    if (typeof schema.maximum === 'number')
      out.push([
        `above the maximum ${schema.maximum}`,
        schema.exclusiveMaximum === true ? schema.maximum : schema.maximum + step,
      ]);
    if (typeof schema.exclusiveMaximum === 'number')
      out.push([`not below the exclusive maximum ${schema.exclusiveMaximum}`, schema.exclusiveMaximum]);
  }
  if (numeric || type === 'boolean')
    out.push([
      `not ${type === 'integer' ? 'an integer' : `a ${type}`}`,
      type === 'boolean' ? 'not-a-boolean' : 'not-a-number',
    ]);
  if (Array.isArray(schema.enum) && schema.enum.every((item) => typeof item === 'string'))
    out.push(['not one of its enum values', 'not-in-the-enum']);
  if (type === 'string' && typeof schema.maxLength === 'number' && schema.maxLength < LONGEST_BROKEN_LENGTH)
    out.push([`longer than its maxLength ${schema.maxLength}`, 'x'.repeat(schema.maxLength + 1)]);
  return out.filter(([, value]) => typeof value !== 'number' || Number.isFinite(value));
}
