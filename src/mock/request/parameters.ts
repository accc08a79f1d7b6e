// Path, query, header and cookie parameters: required ones must be there, and each value, read
// back in its declared style (parameter-styles.ts) and as the types its schema says (the wire
// only carries text), must be valid against that schema.
import { parseJson, type JsonValue } from '../../json/exact-json.ts';
import { coerceRaw, kindOf } from './coerce-text.ts';
import { escapePointerToken, getAtPointer } from '../../document/json-pointer.ts';
import { isJsonMediaType, type Operation, type ParameterSpec } from '../../document/operations.ts';
import { formatIssues, type Validators } from '../../validation/validator.ts';
import type { HttpRequest } from '../../http/types.ts';
import { resolveSchema } from '../../document/schema-shape.ts';
import { cookiePairs, readStyled, stylingOf, type ParameterSource, type Styling } from './parameter-styles.ts';

export type ParameterResult = { ok: true; values: Record<string, JsonValue> } | { ok: false; message: string };

const NONE: ParameterResult = Object.freeze({ ok: true, values: Object.freeze({}) as Record<string, JsonValue> });

// OpenAPI: header parameters named Accept, Content-Type or Authorization are ignored (those are
// described by the content and security objects).
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

type Obj = Record<string, unknown>;

interface Prepared {
  param: ParameterSpec;
  styling: Styling;
  schema: Obj | undefined;
  /** Where the schema to validate against is: the parameter's schema, or its `content` media type's. */
  schemaPointer: string | undefined;
  /** A `content` parameter: its text is a value of that media type (JSON is parsed). */
  contentType?: string;
}

const preparedCache = new WeakMap<Operation, Prepared[]>();

/** Reads and checks the declared parameters of a request. */
export function readParameters(
  operation: Operation,
  pathParams: Record<string, string>,
  request: HttpRequest,
  validators: Validators,
  document: unknown,
): ParameterResult {
  if (operation.parameters.length === 0) return NONE;
  let prepared = preparedCache.get(operation);
  if (!prepared) {
    prepared = operation.parameters
      .filter((p) => !(p.in === 'header' && IGNORED_HEADERS.has(p.name.toLowerCase())))
      // A path parameter the path does not name (The Noun Project's `id` on `/icon/{term}`) can never be sent.
      .filter((p) => !(p.in === 'path' && !operation.path.includes(`{${p.name}}`)))
      .map((p) => prepare(p, document));
    preparedCache.set(operation, prepared);
  }
  const source: ParameterSource = {
    path: pathParams,
    query: request.query === '' ? [] : [...new URLSearchParams(request.query)],
    headers: request.headers,
    cookies: prepared.some((p) => p.param.in === 'cookie') ? cookiePairs(request.headers.cookie) : [],
  };
  const values: Record<string, JsonValue> = {};
  const problems: string[] = [];
  for (const { param, styling, schema, schemaPointer, contentType } of prepared) {
    const where = `${param.in} parameter "${param.name}"`;
    const read =
      contentType !== undefined
        ? readStyled(param, { ...styling, kind: 'primitive' }, source)
        : readStyled(param, styling, source);
    if (!read.present) {
      if (param.required) problems.push(`${where} is required`);
      continue;
    }
    if ('error' in read) {
      problems.push(`${where}: ${read.error}`);
      continue;
    }
    let value: JsonValue;
    if (contentType !== undefined) {
      const parsed = isJsonMediaType(contentType) ? parseJson(read.raw as string) : undefined;
      if (parsed && !parsed.ok) {
        problems.push(`${where}: not valid ${contentType}: ${parsed.message}`);
        continue;
      }
      value = parsed ? parsed.value : (read.raw as string);
    } else {
      value = coerceRaw(read.raw, styling.kind, schema, document);
    }
    if (schemaPointer !== undefined) {
      const check = validators.at(schemaPointer);
      let result = check(value);
      // A value whose schema takes an object or a string (Stripe's anyOf an object and "") may
      // carry the object as JSON text: read so only when the text reading does not fit.
      if (!result.ok && contentType === undefined) {
        const asJson = coerceRaw(read.raw, styling.kind, schema, document, true);
        const second = check(asJson);
        if (second.ok) [value, result] = [asJson, second];
      }
      if (!result.ok) {
        problems.push(`${where}: ${formatIssues(result.issues, 'value')}`);
        continue;
      }
    }
    values[param.name] = value;
  }
  return problems.length > 0 ? { ok: false, message: problems.join('; ') } : { ok: true, values };
}

function prepare(param: ParameterSpec, document: unknown): Prepared {
  const pointer = param.schemaPointer.replace(/\/schema$/, '');
  const declared = (getAtPointer(document, pointer) ?? {}) as Obj;
  const content =
    declared.content !== null && typeof declared.content === 'object'
      ? Object.entries(declared.content as Obj)[0]
      : undefined;
  if (param.schema === undefined && content) {
    const [mediaType, media] = content;
    const hasSchema = media !== null && typeof media === 'object' && (media as Obj).schema !== undefined;
    return {
      param,
      styling: stylingOf(param, {}, 'primitive', []),
      schema: undefined,
      schemaPointer: hasSchema ? `${pointer}/content/${escapePointerToken(mediaType)}/schema` : undefined,
      contentType: mediaType.toLowerCase(),
    };
  }
  const schema = resolveSchema(param.schema, document);
  const kind = kindOf(schema, document);
  const properties =
    schema && typeof schema.properties === 'object' && schema.properties !== null ? Object.keys(schema.properties) : [];
  return {
    param,
    styling: stylingOf(param, declared, kind, properties),
    schema,
    schemaPointer: param.schema === undefined ? undefined : param.schemaPointer,
  };
}
