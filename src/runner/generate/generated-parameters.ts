// Path, query, header and cookie parameters of a generated request: each value drawn from its
// schema by the example generator, then written in the parameter's style (parameter-style.ts).
// Optional parameters are sent in some cases and left out in others, so both shapes are tried.
import { stringifyJson, type JsonValue } from '../../json/exact-json.ts';
import { escapePointerToken, getAtPointer } from '../../document/json-pointer.ts';
import type { Operation, ParameterSpec } from '../../document/operations.ts';
import type { Validators } from '../../validation/validator.ts';
import { objectShape, resolveSchema } from '../../document/schema-shape.ts';
import { SAMPLE_UNIQUE_ID } from './generated-request-parts.ts';
import { uniqueUuid } from './unique-values.ts';
import { parameterFormat, serializeCookie, serializeHeader, serializePath, serializeQuery } from './parameter-style.ts';

/** What the parameters add to a request. */
export interface ParameterParts {
  path: string;
  rawQuery: string[];
  headers: Record<string, string>;
}

export type ParametersResult = { ok: true; parts: ParameterParts } | { ok: false; reason: string };

/** Draws one valid value for the schema at a document pointer; another seed, another value. */
export type DrawValue = (pointer: string, seed: number) => JsonValue;

/** Draws a parameter value this many times before saying it cannot be sent. */
const MAX_DRAWS = 8;

// OpenAPI: header parameters with these names are ignored (the body and the security schemes own them).
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/**
 * `{{uniqueUuid}}` for an `Idempotency-Key` header whose schema takes a UUID. A server answers a key it has seen with
 * another body by a 4xx (Stripe; draft-ietf-httpapi-idempotency-key-header), and a seeded draw repeats across cases,
 * so every request gets a run-unique key instead, as a client library makes one per request.
 */
function uniqueIdempotencyKey(parameter: ParameterSpec, validators: Validators | undefined): string | undefined {
  if (validators === undefined || parameter.name.toLowerCase() !== 'idempotency-key') return undefined;
  return validators.at(parameter.schemaPointer)(uniqueUuid(SAMPLE_UNIQUE_ID)).ok ? '{{uniqueUuid}}' : undefined;
}

/** A header parameter OpenAPI says to ignore (Accept, Content-Type, Authorization), as the mock does. */
export const isIgnoredHeader = (parameter: ParameterSpec): boolean =>
  parameter.in === 'header' && IGNORED_HEADERS.has(parameter.name.toLowerCase());
const SHORT_ENOUGH = 256;
const lengthOf = (parts: string[]) => parts.reduce((sum, part) => sum + part.length, 0);

/**
 * The parameters of one valid request. `omit` names parameters not to send (one the credentials
 * fill, or a required one a negative case drops); optional ones are sent when `withOptional` is true. With
 * `validators`, an Idempotency-Key header is made run-unique where its schema allows.
 */
export function generateParameters(
  operation: Operation,
  draw: DrawValue,
  seed: number,
  document: unknown,
  withOptional: boolean,
  omit: (parameter: ParameterSpec) => boolean,
  validators?: Validators,
): ParametersResult {
  let path = operation.path;
  const rawQuery: string[] = [];
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  const overlapping = withOptional ? overlappingQueryObjects(operation, document) : NONE;
  for (const [index, parameter] of operation.parameters.entries()) {
    if (omit(parameter) || (!parameter.required && !withOptional) || overlapping.has(parameter)) continue;
    if (parameter.in === 'header' && IGNORED_HEADERS.has(parameter.name.toLowerCase())) continue;
    const pointer = valuePointer(parameter, document);
    if (pointer === undefined) {
      if (parameter.required)
        return {
          ok: false,
          reason: `the required ${parameter.in} parameter "${parameter.name}" has no schema to generate a value from`,
        };
      continue;
    }
    const format = parameterFormat(parameter, document);
    const asJson = pointer !== parameter.schemaPointer;
    // The shortest of a few draws past SHORT_ENOUGH: a string parameter with a maxLength of 5,000
    // (Stripe's) would otherwise make query strings longer than servers take in a request head.
    let text: string[] | undefined;
    for (let attempt = 0; attempt < MAX_DRAWS && (text === undefined || lengthOf(text) > SHORT_ENOUGH); attempt++) {
      const drawn = draw(pointer, seed * 31 + index * 7 + attempt * 1_000_003);
      const value: JsonValue = asJson ? stringifyJson(drawn) : drawn;
      const candidate = written(parameter, value, format);
      // An empty array or object writes no query or cookie pair at all: a required one would be missing.
      if (candidate !== undefined && candidate.length === 0 && parameter.required) continue;
      if (candidate !== undefined && (text === undefined || lengthOf(candidate) < lengthOf(text))) text = candidate;
    }
    if (text === undefined)
      return {
        ok: false,
        reason:
          `no generated value of the ${parameter.in} parameter "${parameter.name}" could be sent ` +
          `(${WHY[parameter.in]})`,
      };
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, text[0]);
    else if (parameter.in === 'query') rawQuery.push(...text);
    else if (parameter.in === 'header')
      headers[parameter.name.toLowerCase()] = uniqueIdempotencyKey(parameter, validators) ?? text[0];
    else cookies.push(...text);
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  const undeclared = /\{([^}]+)\}/.exec(path);
  if (undeclared)
    return {
      ok: false,
      reason: `the path parameter {${undeclared[1]}} is not declared, so no value can be generated for it`,
    };
  return { ok: true, parts: { path, rawQuery, headers } };
}

const NONE: ReadonlySet<ParameterSpec> = new Set();

/**
 * Optional query objects written exploded in form style (`MinCapacity=2&MaxCapacity=8`) whose property names another
 * query parameter also writes (AWS RDS's ScalingConfiguration and ServerlessV2ScalingConfiguration both hold a
 * MaxCapacity, an integer in one and a double in the other). On the wire the pairs belong to neither, so a server reads
 * them into both: such a parameter is left out of valid requests.
 */
function overlappingQueryObjects(operation: Operation, document: unknown): ReadonlySet<ParameterSpec> {
  // The same for every case of the operation: worked out once.
  let known = overlaps.get(operation);
  if (known === undefined) overlaps.set(operation, (known = findOverlaps(operation, document)));
  return known;
}

const overlaps = new WeakMap<Operation, ReadonlySet<ParameterSpec>>();

function findOverlaps(operation: Operation, document: unknown): ReadonlySet<ParameterSpec> {
  const namesOf = new Map<ParameterSpec, string[]>();
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'query') continue;
    const format = parameterFormat(parameter, document);
    const properties = format.style === 'form' && format.explode ? propertyNames(parameter, document) : undefined;
    namesOf.set(parameter, properties ?? [parameter.name]);
  }
  const out = new Set<ParameterSpec>();
  for (const [parameter, names] of namesOf) {
    if (parameter.required || names.length === 1) continue;
    for (const [other, otherNames] of namesOf)
      if (other !== parameter && otherNames.some((name) => names.includes(name))) out.add(parameter);
  }
  return out.size === 0 ? NONE : out;
}

/** The property names of an object parameter's schema, own and through allOf; undefined for any other schema. */
function propertyNames(parameter: ParameterSpec, document: unknown): string[] | undefined {
  const schema = resolveSchema(getAtPointer(document, parameter.schemaPointer), document);
  if (schema === undefined) return undefined;
  const { properties } = objectShape(schema, document);
  return properties.size > 1 ? [...properties.keys()] : undefined;
}

const WHY: Record<ParameterSpec['in'], string> = {
  path: 'a path segment cannot be empty, "." or ".."',
  query: 'a required one must write at least one name=value pair, and every draw was an empty array or object',
  header: 'a header value must be visible ASCII without surrounding spaces',
  cookie: 'a cookie value must be visible ASCII, and a required one must write at least one pair',
};

/** The wire text of a value, or undefined when it cannot travel where the parameter goes. */
function written(
  parameter: ParameterSpec,
  value: JsonValue,
  format: ReturnType<typeof parameterFormat>,
): string[] | undefined {
  if (parameter.in === 'path') {
    const text = serializePath(parameter.name, value, format);
    return text === '' || text === '.' || text === '..' ? undefined : [text];
  }
  if (parameter.in === 'query') return serializeQuery(parameter.name, value, format);
  if (parameter.in === 'header') {
    const text = serializeHeader(value, format);
    return /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(text) ? [text] : undefined;
  }
  const pairs = serializeCookie(parameter.name, value, format);
  return pairs.every((pair) => /^[\x21-\x7e]+$/.test(pair) && !pair.includes(';')) ? pairs : undefined;
}

/**
 * Where the value's schema is: the parameter's `schema`, or (a parameter with `content`) the
 * schema of its JSON media type, whose value is then sent as JSON text.
 */
function valuePointer(parameter: ParameterSpec, document: unknown): string | undefined {
  if (parameter.schema !== undefined) return parameter.schemaPointer;
  const base = parameter.schemaPointer.replace(/\/schema$/, '');
  const content = getAtPointer(document, `${base}/content`);
  if (content === null || typeof content !== 'object') return undefined;
  const mediaType = Object.keys(content).find((type) => /json/i.test(type));
  if (
    mediaType === undefined ||
    getAtPointer(document, `${base}/content/${escapePointerToken(mediaType)}/schema`) === undefined
  )
    return undefined;
  return `${base}/content/${escapePointerToken(mediaType)}/schema`;
}
