// Writes a parameter value on the wire the way the document's `style` and `explode` say
// (OpenAPI 3.x "Style Values" and "Style Examples"; RFC 6570 for simple, label and matrix).
// Path and query text is percent-encoded except for the style's own delimiters; a header value
// is written as is (the caller keeps header values to visible ASCII).
import { stringifyJson, type JsonValue } from '../../json/exact-json.ts';
import { getAtPointer } from '../../document/json-pointer.ts';
import type { ParameterSpec } from '../../document/operations.ts';
import { declaredFormat, type ParameterFormat } from '../../document/parameter-format.ts';

export type { ParameterFormat, ParameterStyle } from '../../document/parameter-format.ts';

/** The style, explode and allowReserved the document declares for a parameter (src/document/parameter-format.ts). */
export function parameterFormat(parameter: ParameterSpec, document: unknown): ParameterFormat {
  const declared = getAtPointer(document, parameter.schemaPointer.replace(/\/schema$/, '')) as
    Record<string, unknown> | undefined;
  return declaredFormat(parameter.in, declared ?? {});
}

/** Style, explode and allowReserved of a form body's `encoding` entry: a form field follows the query's rules. */
export function formatOf(declared: Record<string, unknown>): ParameterFormat {
  return declaredFormat('query', declared);
}

type Encode = (text: string) => string;

const encodePart: Encode = (text) => encodeURIComponent(text);
// RFC 3986 reserved characters stay as they are; everything else is encoded as usual.
const encodeAllowingReserved: Encode = (text) =>
  encodeURIComponent(text).replace(/%(21|23|24|26|27|28|29|2A|2B|2C|2F|3A|3B|3D|3F|40|5B|5D)/gi, (match) =>
    decodeURIComponent(match),
  );

/** The text of one path parameter, to put in place of `{name}`. */
export function serializePath(name: string, value: JsonValue, format: ParameterFormat): string {
  return expand(
    name,
    value,
    format.style === 'label' || format.style === 'matrix' ? format.style : 'simple',
    format.explode,
    encodePart,
  );
}

/** A header parameter's value (always style simple). */
export function serializeHeader(value: JsonValue, format: ParameterFormat): string {
  return expand('', value, 'simple', format.explode, (text) => text);
}

/** A cookie's `name=value` pairs (style form). */
export function serializeCookie(name: string, value: JsonValue, format: ParameterFormat): string[] {
  if (!isObject(value) && !Array.isArray(value)) return [`${name}=${encodePart(scalar(value))}`];
  if (Array.isArray(value))
    return format.explode
      ? value.map((item) => `${name}=${encodePart(scalar(item))}`)
      : [`${name}=${value.map((item) => encodePart(scalar(item))).join(',')}`];
  return format.explode
    ? Object.entries(value).map(([key, item]) => `${encodePart(key)}=${encodePart(scalar(item))}`)
    : [`${name}=${pairs(value, ',', encodePart).join(',')}`];
}

/** The `key=value` pieces one query parameter adds to a query string (already encoded). */
export function serializeQuery(name: string, value: JsonValue, format: ParameterFormat): string[] {
  const encode = format.allowReserved ? encodeAllowingReserved : encodePart;
  const key = encode(name);
  if (Array.isArray(value)) {
    const items = value.map((item) => encode(scalar(item)));
    // spaceDelimited and pipeDelimited exist for arrays without explode; exploded, they are form.
    if (format.explode) return items.map((item) => `${key}=${item}`);
    const separator = format.style === 'spaceDelimited' ? '%20' : format.style === 'pipeDelimited' ? '|' : ',';
    return [`${key}=${items.join(separator)}`];
  }
  if (isObject(value)) {
    if (format.style === 'deepObject')
      return Object.entries(value).map(([property, item]) => `${key}%5B${encode(property)}%5D=${encode(scalar(item))}`);
    if (format.explode)
      return Object.entries(value).map(([property, item]) => `${encode(property)}=${encode(scalar(item))}`);
    const separator = format.style === 'spaceDelimited' ? '%20' : format.style === 'pipeDelimited' ? '|' : ',';
    return [`${key}=${pairs(value, separator, encode).join(separator)}`];
  }
  return [`${key}=${encode(scalar(value))}`];
}

// RFC 6570 expansion for the three path styles (and header's simple).
function expand(
  name: string,
  value: JsonValue,
  style: 'simple' | 'label' | 'matrix',
  explode: boolean,
  encode: Encode,
): string {
  const prefix = style === 'label' ? '.' : style === 'matrix' ? ';' : '';
  const named = (text: string) => (style === 'matrix' ? `${encode(name)}${text === '' ? '' : `=${text}`}` : text);
  if (Array.isArray(value)) {
    const items = value.map((item) => encode(scalar(item)));
    if (!explode) return `${prefix}${named(items.join(','))}`;
    return prefix + items.map(named).join(style === 'simple' ? ',' : prefix);
  }
  if (isObject(value)) {
    if (!explode) return `${prefix}${named(pairs(value, ',', encode).join(','))}`;
    const entries = Object.entries(value).map(([key, item]) => `${encode(key)}=${encode(scalar(item))}`);
    return prefix + entries.join(style === 'simple' ? ',' : prefix);
  }
  return `${prefix}${named(encode(scalar(value)))}`;
}

/** An object without explode: key,value,key,value. */
function pairs(value: Record<string, JsonValue>, separator: string, encode: Encode): string[] {
  return Object.entries(value).map(([key, item]) => `${encode(key)}${separator}${encode(scalar(item))}`);
}

/** A value inside a parameter as text; nested arrays and objects have no style, so they go as JSON. */
function scalar(value: JsonValue): string {
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') return stringifyJson(value);
  return String(value);
}

function isObject(value: JsonValue): value is Record<string, JsonValue> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
