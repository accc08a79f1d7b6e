// Parameter serialization as OpenAPI defines it (the `style`/`explode` table of "Style Examples"):
// the text of a path segment, query pairs, a header or a cookie read back into the primitive,
// array or object the schema describes, before validation. Which styles a location allows and
// the defaults live in src/document/parameter-format.ts, shared with the runner's writer.
import type { ParameterSpec } from '../../document/operations.ts';
import { declaredFormat } from '../../document/parameter-format.ts';

export type ParameterKind = 'primitive' | 'array' | 'object';

/** A parameter's text before type coercion: a string, a list of strings, or names to strings. */
export type RawValue = string | string[] | Record<string, string>;

export type StyledResult = { present: false } | { present: true; raw: RawValue } | { present: true; error: string };

export interface ParameterSource {
  path: Record<string, string>;
  query: Array<[string, string]>;
  headers: Record<string, string | undefined>;
  cookies: Array<[string, string]>;
}

export interface Styling {
  style: string;
  explode: boolean;
  kind: ParameterKind;
  /** The object's declared property names (form-exploded objects are spread over the query). */
  properties: string[];
}

const ABSENT: StyledResult = Object.freeze({ present: false });

/** The style and explode a parameter declares, with OpenAPI's defaults (src/document/parameter-format.ts). */
export function stylingOf(
  param: ParameterSpec,
  declared: { style?: unknown; explode?: unknown },
  kind: ParameterKind,
  properties: string[],
): Styling {
  const { style, explode } = declaredFormat(param.in, declared);
  return { style, explode, kind, properties };
}

/** Reads one parameter's text from the request in its style. */
export function readStyled(param: ParameterSpec, styling: Styling, source: ParameterSource): StyledResult {
  switch (param.in) {
    case 'path':
      return fromText(source.path[param.name], param.name, styling);
    case 'header':
      return fromText(source.headers[param.name.toLowerCase()], param.name, styling);
    case 'cookie':
      return fromPairs(source.cookies, param.name, styling);
    default:
      return fromPairs(source.query, param.name, styling);
  }
}

/** simple, label and matrix: one piece of text (a path segment or a header value). */
function fromText(text: string | undefined, name: string, { style, explode, kind }: Styling): StyledResult {
  if (text === undefined) return ABSENT;
  let body = text;
  let separator = ',';
  if (style === 'label') {
    if (!body.startsWith('.')) return { present: true, error: `expected label style (".value"), got "${text}"` };
    body = body.slice(1);
    if (explode) separator = '.';
  } else if (style === 'matrix') {
    if (!body.startsWith(';'))
      return { present: true, error: `expected matrix style (";${name}=value"), got "${text}"` };
    if (kind === 'object' && explode) return { present: true, raw: pairsToObject(body.slice(1).split(';')) };
    const prefix = `${name}=`;
    const pieces = body.slice(1).split(';');
    if (!pieces.every((p) => p.startsWith(prefix) || p === name))
      return { present: true, error: `expected matrix style (";${name}=value"), got "${text}"` };
    const values = pieces.map((p) => p.slice(prefix.length));
    if (kind === 'array') return { present: true, raw: explode ? values : splitList(values[0], ',') };
    body = values[0];
  }
  if (kind === 'primitive') return { present: true, raw: body };
  const parts = splitList(body, separator);
  if (kind === 'array') return { present: true, raw: parts };
  return { present: true, raw: explode ? pairsToObject(parts) : alternating(parts) };
}

/** form, spaceDelimited, pipeDelimited and deepObject: name=value pairs (a query or the Cookie header). */
function fromPairs(
  pairs: Array<[string, string]>,
  name: string,
  { style, explode, kind, properties }: Styling,
): StyledResult {
  if (style === 'deepObject') {
    const object: Record<string, string> = {};
    const prefix = `${name}[`;
    for (const [key, value] of pairs)
      if (key.startsWith(prefix) && key.endsWith(']')) object[key.slice(prefix.length, -1)] = value;
    if (Object.keys(object).length > 0) return { present: true, raw: object };
    // deepObject is defined for objects only: an array (Stripe's expand) or a schema that is also
    // a primitive (anyOf an object and an integer) is sent as plain form pairs, read below.
    // An object sent as "name=" is the empty object (the style table's empty value).
    if (kind === 'object')
      return pairs.some(([key, value]) => key === name && value === '') ? { present: true, raw: {} } : ABSENT;
  }
  const separator = style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ',';
  if (kind === 'object' && explode) {
    // An exploded form object spreads its properties over the query: ?role=admin&firstName=Alex.
    const object: Record<string, string> = {};
    for (const [key, value] of pairs) if (properties.includes(key)) object[key] = value;
    return Object.keys(object).length === 0 ? ABSENT : { present: true, raw: object };
  }
  const values = pairs.filter(([key]) => key === name).map(([, value]) => value);
  if (values.length === 0) return ABSENT;
  if (kind === 'primitive') return { present: true, raw: values[0] };
  // The specification's table writes an empty array as "name=" in every style: one empty value is [].
  if (kind === 'array')
    return {
      present: true,
      raw: explode && !(values.length === 1 && values[0] === '') ? values : splitList(values[0], separator),
    };
  return { present: true, raw: alternating(splitList(values[0], separator)) };
}

/** An empty text is an empty list, not a list of one empty string. */
function splitList(text: string, separator: string): string[] {
  return text === '' ? [] : text.split(separator);
}

function pairsToObject(parts: string[]): Record<string, string> {
  const object: Record<string, string> = {};
  for (const part of parts) {
    if (part === '') continue;
    const at = part.indexOf('=');
    if (at === -1) object[part] = '';
    else object[part.slice(0, at)] = part.slice(at + 1);
  }
  return object;
}

/** "role,admin,firstName,Alex" read as names and values in turn. */
function alternating(parts: string[]): Record<string, string> {
  const object: Record<string, string> = {};
  for (let i = 0; i < parts.length; i += 2) object[parts[i]] = parts[i + 1] ?? '';
  return object;
}

/** The name=value pairs of a Cookie header (RFC 6265 §5.4), undecoded but for surrounding quotes. */
export function cookiePairs(header: string | undefined): Array<[string, string]> {
  if (!header) return [];
  return header.split(';').flatMap((piece): Array<[string, string]> => {
    const at = piece.indexOf('=');
    if (at === -1) return [];
    return [
      [
        piece.slice(0, at).trim(),
        piece
          .slice(at + 1)
          .trim()
          .replace(/^"(.*)"$/, '$1'),
      ],
    ];
  });
}
