// One home for parameter styles: for every location, style the location allows, explode and value
// shape (primitive, array, object), what the runner writes the mock reads back equal. The wire
// between them is what a server gets: a path segment percent-decoded by the router, the query
// read by URLSearchParams, the header as sent, the Cookie header split into pairs.
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/json/exact-json.ts';
import {
  declaredFormat,
  STYLES_BY_LOCATION,
  type ParameterLocation,
  type ParameterStyle,
} from '../../src/document/parameter-format.ts';
import type { ParameterSpec } from '../../src/document/operations.ts';
import {
  parameterFormat,
  serializeCookie,
  serializeHeader,
  serializePath,
  serializeQuery,
} from '../../src/runner/generate/parameter-style.ts';
import {
  cookiePairs,
  readStyled,
  stylingOf,
  type ParameterKind,
  type ParameterSource,
} from '../../src/mock/request/parameter-styles.ts';

const NAME = 'color';
const VALUES: Record<ParameterKind, JsonValue> = {
  primitive: 'blue 7',
  array: ['blue', 'black', 'brown'],
  object: { R: 100, G: 200, B: 150 },
};
// Cookie values are tokens (RFC 6265): no spaces.
const COOKIE_PRIMITIVE = 'blue7';

/** The shapes a style is defined for (the specification's "Style Values" table). */
const SHAPES: Record<ParameterStyle, ParameterKind[]> = {
  simple: ['primitive', 'array', 'object'],
  label: ['primitive', 'array', 'object'],
  matrix: ['primitive', 'array', 'object'],
  form: ['primitive', 'array', 'object'],
  spaceDelimited: ['array', 'object'],
  pipeDelimited: ['array', 'object'],
  deepObject: ['object'],
};

const ROWS = (Object.keys(STYLES_BY_LOCATION) as ParameterLocation[]).flatMap((location) =>
  STYLES_BY_LOCATION[location].flatMap((style) =>
    [false, true].flatMap((explode) => SHAPES[style].map((kind) => [location, style, explode, kind] as const)),
  ),
);

/** Writes as the runner does, and hands the mock's reader what a server would get. */
function roundTrip(location: ParameterLocation, declared: { style?: string; explode?: boolean }, kind: ParameterKind) {
  // The parameter as a document declares it: the writer reads its style there, the reader is handed it.
  const document = { parameter: { name: NAME, in: location, ...declared, schema: {} } };
  const parameter: ParameterSpec = { name: NAME, in: location, required: true, schemaPointer: '#/parameter/schema' };
  const value = location === 'cookie' && kind === 'primitive' ? COOKIE_PRIMITIVE : VALUES[kind];
  const format = parameterFormat(parameter, document);
  const source: ParameterSource = { path: {}, query: [], headers: {}, cookies: [] };
  if (location === 'path') source.path[NAME] = decodeURIComponent(serializePath(NAME, value, format));
  else if (location === 'query') source.query = [...new URLSearchParams(serializeQuery(NAME, value, format).join('&'))];
  else if (location === 'header') source.headers[NAME] = serializeHeader(value, format);
  else source.cookies = cookiePairs(serializeCookie(NAME, value, format).join('; '));
  const properties = kind === 'object' ? Object.keys(VALUES.object as object) : [];
  const read = readStyled(parameter, stylingOf(parameter, declared, kind, properties), source);
  return { value, read };
}

/** The value as text, the way the reader gives it before the schema types it. */
function asText(value: JsonValue): unknown {
  if (Array.isArray(value)) return value.map(String);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
  return String(value);
}

describe('parameter styles: what the runner writes, the mock reads back', () => {
  it.each(ROWS)('%s, style %s, explode %s, a %s', (location, style, explode, kind) => {
    const { value, read } = roundTrip(location, { style, explode }, kind);
    expect(read).toEqual({ present: true, raw: asText(value) });
  });

  it('covers every location and every style it allows', () => {
    expect(new Set(ROWS.map(([location, style]) => `${location} ${style}`)).size).toBe(9);
    expect(ROWS).toHaveLength(46);
  });

  // A style the location does not allow is taken as the location's default by both sides.
  it.each([
    ['query', 'simple'],
    ['query', 'matrix'],
    ['path', 'form'],
    ['path', 'deepObject'],
    ['header', 'form'],
    ['header', 'label'],
    ['cookie', 'deepObject'],
    ['cookie', 'pipeDelimited'],
  ] as const)('%s with style %s agrees as the default style', (location, style) => {
    for (const kind of ['primitive', 'array', 'object'] as const) {
      const { value, read } = roundTrip(location, { style }, kind);
      expect(read).toEqual({ present: true, raw: asText(value) });
    }
  });

  it('defaults explode by the style it settles on', () => {
    expect(declaredFormat('query', { style: 'simple' })).toEqual({
      style: 'form',
      explode: true,
      allowReserved: false,
    });
    expect(declaredFormat('header', { style: 'form' })).toEqual({
      style: 'simple',
      explode: false,
      allowReserved: false,
    });
    expect(declaredFormat('path', { allowReserved: true }).allowReserved).toBe(false);
  });
});
