// Form request bodies read into the object their schema describes, so they are validated by the
// same compiled schema as a JSON body: application/x-www-form-urlencoded through URLSearchParams
// (each property in its encoding's style, form and exploded by default) and qs for bracketed
// nested names (deepObject, a[0]=x, a[b][c]=y), multipart/form-data
// through the platform's own parser (undici's Response.formData), parts typed by the property
// schema, JSON parts (an encoding's contentType, a part's own type, or an object property) parsed.
import { parseJson, type JsonValue } from '../../json/exact-json.ts';
import { getAtPointer } from '../../document/json-pointer.ts';
import { isJsonMediaType, type MediaContent } from '../../document/operations.ts';
import { objectShape, resolveSchema } from '../../document/schema-shape.ts';
import qs from 'qs';
import { coerce, coerceDeep, coerceRaw, kindOf, typesOf } from './coerce-text.ts';
import { readStyled, stylingOf } from './parameter-styles.ts';

export type FormResult = { ok: true; value: JsonValue } | { ok: false; message: string };

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

interface FormShape {
  properties: Array<[name: string, schema: Obj | undefined]>;
  /** The encoding object of the media type, by property name. */
  encoding: Obj;
}

function shapeOf(content: MediaContent, document: unknown): FormShape {
  // Through allOf/anyOf/oneOf: a form schema is often a shared one plus a file field.
  const properties = [...objectShape(content.schema, document).properties].map(
    ([name, s]): [string, Obj | undefined] => [name, resolveSchema(s, document)],
  );
  const encoding = getAtPointer(document, content.schemaPointer.replace(/\/schema$/, '/encoding'));
  return { properties, encoding: isObj(encoding) ? encoding : {} };
}

const QS_OPTIONS = {
  depth: 32,
  arrayLimit: 10_000,
  parameterLimit: 100_000,
  allowPrototypes: false,
  plainObjects: true,
  duplicates: 'combine',
} as const;

const jsonEncoded = (encoding: Obj, name: string) =>
  isObj(encoding[name]) &&
  typeof encoding[name].contentType === 'string' &&
  isJsonMediaType(encoding[name].contentType.toLowerCase());

/** An application/x-www-form-urlencoded body as the object its schema describes. */
export function readUrlEncoded(text: string, content: MediaContent, document: unknown): FormResult {
  const pairs = [...new URLSearchParams(text)];
  // Bracketed names (a[b]=1, a[0]=x, a[]=x: deepObject, and what qs, Rails and Stripe's clients
  // send for nested data) are read by qs, with limits wide enough for real forms.
  const nested = pairs.some(([key]) => key.includes('[')) ? qs.parse(text, QS_OPTIONS) : undefined;
  const { properties, encoding } = shapeOf(content, document);
  const value: Record<string, JsonValue> = {};
  const claimed = new Set<string>();
  for (const [name, schema] of properties) {
    const kind = kindOf(schema);
    const own = pairs.find(([key]) => key === name)?.[1];
    // A JSON-encoded property, or an object sent as JSON text rather than spread over the form.
    if (own !== undefined && (jsonEncoded(encoding, name) || (kind === 'object' && own.trimStart().startsWith('{')))) {
      const parsed = parseJson(own);
      if (!parsed.ok) return { ok: false, message: `form field "${name}" is not valid JSON: ${parsed.message}` };
      value[name] = parsed.value;
      claimed.add(name);
      continue;
    }
    if (nested !== undefined && pairs.some(([key]) => key.startsWith(`${name}[`))) {
      value[name] = coerceDeep(nested[name], schema, document);
      claimed.add(name);
      continue;
    }
    const styling = stylingOf(
      { name, in: 'query', required: false, schemaPointer: '' },
      isObj(encoding[name]) ? encoding[name] : {},
      kind,
      isObj(schema?.properties) ? Object.keys(schema.properties) : [],
    );
    const read = readStyled({ name, in: 'query', required: false, schemaPointer: '' }, styling, {
      path: {},
      query: pairs,
      headers: {},
      cookies: [],
    });
    if (!read.present) continue;
    if ('error' in read) return { ok: false, message: `form field "${name}": ${read.error}` };
    value[name] = coerceRaw(read.raw, kind, schema, document);
    claimed.add(name);
    if (kind === 'object' && styling.explode && styling.style === 'form')
      for (const key of styling.properties) claimed.add(key);
  }
  // Undeclared fields stay, as text, for the schema's additionalProperties to judge.
  if (nested !== undefined) {
    for (const [key, item] of Object.entries(nested))
      if (!claimed.has(key) && !(key in value)) value[key] = coerceDeep(item, undefined, document);
    return { ok: true, value };
  }
  for (const [key, text] of pairs) {
    if (claimed.has(key)) continue;
    const known = value[key];
    value[key] = known === undefined ? text : Array.isArray(known) ? [...known, text] : [known, text];
  }
  return { ok: true, value };
}

/** A multipart/form-data body as the object its schema describes; malformed multipart is a refusal. */
export async function readMultipart(
  bytes: Uint8Array | string,
  contentType: string,
  content: MediaContent,
  document: unknown,
): Promise<FormResult> {
  let form: FormData;
  try {
    form = await new Response(typeof bytes === 'string' ? bytes : new Uint8Array(bytes), {
      headers: { 'content-type': contentType },
    }).formData();
  } catch (error) {
    return {
      ok: false,
      message:
        `malformed multipart/form-data body (${(error as Error).message}); each part needs a ` +
        `Content-Disposition with a name, between the boundary of the Content-Type`,
    };
  }
  const { properties, encoding } = shapeOf(content, document);
  const declared = new Map(properties);
  const value: Record<string, JsonValue> = {};
  for (const name of new Set(form.keys())) {
    const schema = declared.get(name);
    const kind = kindOf(schema);
    const parts = form.getAll(name);
    const read = async (
      part: NonNullable<ReturnType<FormData['get']>>,
      itemSchema: Obj | undefined,
    ): Promise<{ ok: true; value: JsonValue } | { ok: false; message: string }> => {
      const text = typeof part === 'string' ? part : await part.text();
      const partType = typeof part === 'string' ? '' : part.type.toLowerCase();
      const itemKind = kindOf(itemSchema);
      if (
        jsonEncoded(encoding, name) ||
        (partType !== '' && isJsonMediaType(partType)) ||
        itemKind === 'object' ||
        (itemKind === 'array' && itemSchema === schema)
      ) {
        const parsed = parseJson(text);
        return parsed.ok
          ? { ok: true, value: parsed.value }
          : { ok: false, message: `part "${name}" is not valid JSON: ${parsed.message}` };
      }
      return { ok: true, value: coerce(text, typesOf(itemSchema)) };
    };
    if (kind === 'array' && !(parts.length === 1 && jsonEncoded(encoding, name))) {
      // An array is its repeated parts, each read as one item.
      const items: JsonValue[] = [];
      for (const part of parts) {
        const item = await read(part, resolveSchema(schema?.items, document));
        if (!item.ok) return item;
        items.push(item.value);
      }
      value[name] = items;
      continue;
    }
    const one = await read(parts[0], schema);
    if (!one.ok) return one;
    value[name] =
      parts.length === 1
        ? one.value
        : [
            one.value,
            ...(await Promise.all(parts.slice(1).map(async (p) => (typeof p === 'string' ? p : await p.text())))),
          ];
  }
  return { ok: true, value };
}
