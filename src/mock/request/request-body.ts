// Reads a request body as the operation declares it: media type first (415), then bytes to text
// with a fatal UTF-8 decoder (invalid bytes are an error, never silently replaced), then the guard
// (depth, duplicate keys), then exact JSON. Form bodies (URL-encoded, multipart) are read into the
// object their schema describes (form-body.ts) and a text body under a string schema is its text,
// so the engine validates them all with the same compiled schema.
import { isUtf8 } from '../../platform/host.ts';
import { parseJson, type JsonValue } from '../../json/exact-json.ts';
import { guardJson, mayNestDeeperThan, provesNoDuplicateKeys } from '../../json/json-guard.ts';
import { isJsonMediaType, type MediaContent, type Operation } from '../../document/operations.ts';
import type { HttpRequest } from '../../http/types.ts';
import { textOf } from '../../http/bytes.ts';
import { readMultipart, readUrlEncoded, type FormResult } from './form-body.ts';
import { resolveSchema } from '../../document/schema-shape.ts';
import { typesOf } from './coerce-text.ts';

export type BodyResult =
  /**
   * `text`: the JSON text `value` was parsed from (exactly: it parses to `value` again); `plain`: `value` holds no
   * bigint.
   */
  | { ok: true; value: JsonValue | undefined; content?: MediaContent; text?: string; plain?: boolean }
  | { ok: false; status: 400 | 415; message: string };

const PLAIN_JSON = { essence: 'application/json', charset: undefined };

/** The media type and charset of a Content-Type header (the plain JSON one without any work). */
function parseContentType(header: string): { essence: string; charset: string | undefined } {
  if (header === 'application/json') return PLAIN_JSON;
  const [essence, ...params] = header.split(';').map((part) => part.trim().toLowerCase());
  return {
    essence,
    charset: params
      .find((p) => p.startsWith('charset='))
      ?.slice(8)
      .replace(/"/g, ''),
  };
}

/**
 * Reads and parses the body of a request for an operation; a multipart body is read asynchronously (the platform's
 * parser).
 */
export function readRequestBody(
  operation: Operation,
  request: HttpRequest,
  maxDepth: number,
  document?: unknown,
): BodyResult | Promise<BodyResult> {
  const declared = operation.requestBody;
  const bytes = request.body;
  const empty = bytes.length === 0;
  if (!declared || declared.contents.length === 0) return { ok: true, value: undefined };
  const contentType = request.headers['content-type'];
  if (empty && !contentType) {
    return declared.required
      ? { ok: false, status: 400, message: `a request body is required (${declaredTypes(declared.contents)})` }
      : { ok: true, value: undefined };
  }
  // A body the document does not require may be left out whatever Content-Type the client sets
  // (clients send their default one with no body).
  if (empty && !declared.required) {
    const content = declaredContent(declared.contents, parseContentType(contentType ?? '').essence);
    return content ? { ok: true, value: undefined, content } : { ok: true, value: undefined };
  }
  const { essence, charset } = parseContentType(contentType ?? '');
  const content = declaredContent(declared.contents, essence);
  if (!contentType || !content) {
    return {
      ok: false,
      status: 415,
      message:
        `Content-Type ${contentType ? `"${contentType}"` : 'missing'}: this operation accepts ` +
        `${declaredTypes(declared.contents)}`,
    };
  }
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    return { ok: false, status: 415, message: `charset ${charset} is not supported; send ${essence} in UTF-8` };
  }
  if (essence === 'multipart/form-data' && content.schema !== undefined)
    return readMultipart(bytes, contentType, content, document).then((form) => formBody(form, content));
  const textual =
    isJsonMediaType(essence) ||
    essence === 'application/x-www-form-urlencoded' ||
    (essence.startsWith('text/') && typesOf(resolveSchema(content.schema, document)).includes('string'));
  // Declared, but no schema to read it by: nothing to parse.
  if (!textual) return { ok: true, value: undefined, content };
  // Invalid bytes are an error, never silently replaced (isUtf8 is a native check; toString would replace).
  if (typeof bytes !== 'string' && !isUtf8(bytes))
    return { ok: false, status: 400, message: 'the body is not valid UTF-8' };
  let text = textOf(bytes);
  if (essence === 'application/x-www-form-urlencoded')
    return content.schema === undefined
      ? { ok: true, value: undefined, content }
      : formBody(readUrlEncoded(text, content, document), content);
  if (!isJsonMediaType(essence)) return { ok: true, value: text, content, plain: true };
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a UTF-8 BOM is allowed and ignored (RFC 8259)
  if (isBlank(text)) {
    return declared.required
      ? { ok: false, status: 400, message: 'the body is empty; a JSON value is required' }
      : { ok: true, value: undefined, content };
  }
  // Depth before the parse (a deep text is costly to parse), duplicate keys after it when the
  // parsed value proves there are none (the usual body): the full scan only when it must.
  const deep = mayNestDeeperThan(text, maxDepth);
  const tooDeep = deep ? guardRefusal(text, maxDepth) : undefined;
  if (tooDeep) return tooDeep;
  const parsed = parseJson(text);
  if (!parsed.ok) return { ok: false, status: 400, message: `malformed JSON: ${parsed.message}` };
  const duplicate = !deep && !provesNoDuplicateKeys(text, parsed.value) ? guardRefusal(text, maxDepth) : undefined;
  return duplicate ?? { ok: true, value: parsed.value, content, text, plain: parsed.plain };
}

function formBody(form: FormResult, content: MediaContent): BodyResult {
  return form.ok ? { ok: true, value: form.value, content } : { ok: false, status: 400, message: form.message };
}

/**
 * Empty or only whitespace; trim() only when the first character could be whitespace (a body starts with "{" or "[").
 *
 */
function isBlank(text: string): boolean {
  const first = text.charCodeAt(0);
  return text.length === 0 || ((first <= 0x20 || first > 0x7e) && text.trim() === '');
}

/** The guard's full scan (depth, duplicate keys) as a refusal, or undefined when the text passes. */
function guardRefusal(text: string, maxDepth: number): BodyResult | undefined {
  const guard = guardJson(text, maxDepth);
  return guard.ok ? undefined : { ok: false, status: 400, message: guard.message };
}

/**
 * The declared content for a media type: the exact one, else a wildcard that covers it (a loop: no function per
 * request).
 */
function declaredContent(contents: MediaContent[], essence: string): MediaContent | undefined {
  for (let i = 0; i < contents.length; i++) if (contents[i].mediaType === essence) return contents[i];
  for (let i = 0; i < contents.length; i++) if (matchesWildcard(contents[i].mediaType, essence)) return contents[i];
  return undefined;
}

function matchesWildcard(declared: string, essence: string): boolean {
  if (declared === '*/*') return true;
  return declared.endsWith('/*') && essence.startsWith(declared.slice(0, -1));
}

function declaredTypes(contents: MediaContent[]): string {
  return contents.map((c) => c.mediaType).join(', ');
}
