// OpenAPI runtime expressions (OAS 3.0/3.1 "Runtime Expressions"), the values a Link's `parameters`
// and `requestBody` take from an exchange: `$url`, `$method`, `$statusCode`, and
// `$request.` / `$response.` followed by `header.NAME`, `query.NAME`, `path.NAME` or
// `body#/json/pointer`. A value may also embed expressions in text (`/items/{$response.body#/id}`).
// No kept npm package reads them, so this is the spec's ABNF, read by hand.

export type RuntimeExpression =
  | { kind: 'url' | 'method' | 'statusCode' }
  | { kind: 'request' | 'response'; source: 'header' | 'query' | 'path'; name: string }
  | { kind: 'request' | 'response'; source: 'body'; pointer: string };

/** A link value as written: one expression, text with `{expression}`s in it, or a constant. */
export type LinkValue =
  | { kind: 'expression'; expression: RuntimeExpression }
  | { kind: 'template'; parts: Array<string | RuntimeExpression> }
  | { kind: 'constant'; value: unknown };

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

// RFC 9110 token characters: what a header name may hold.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const POINTER = /^(\/([^~/]|~[01])*)*$/;

/** Reads one runtime expression (`$response.body#/id`). */
export function parseRuntimeExpression(text: string): Parsed<RuntimeExpression> {
  const fail = (why: string): Parsed<RuntimeExpression> => ({
    ok: false,
    message:
      `"${text}" is not a runtime expression: ${why} (write $url, $method, $statusCode, or ` +
      `$request./$response. followed by header.NAME, query.NAME, path.NAME or body#/pointer)`,
  });
  if (text === '$url') return { ok: true, value: { kind: 'url' } };
  if (text === '$method') return { ok: true, value: { kind: 'method' } };
  if (text === '$statusCode') return { ok: true, value: { kind: 'statusCode' } };
  const side = /^\$(request|response)\.(.*)$/s.exec(text);
  if (!side) return fail('it starts with none of the expression names');
  const kind = side[1] as 'request' | 'response';
  const rest = side[2];
  if (rest === 'body') return { ok: true, value: { kind, source: 'body', pointer: '' } };
  if (rest.startsWith('body#')) {
    const pointer = rest.slice(5);
    return POINTER.test(pointer)
      ? { ok: true, value: { kind, source: 'body', pointer } }
      : fail(`"${pointer}" is not a JSON pointer`);
  }
  const named = /^(header|query|path)\.(.+)$/s.exec(rest);
  if (!named) return fail(`after $${kind}. comes header., query., path. or body`);
  const source = named[1] as 'header' | 'query' | 'path';
  if (source === 'header' && !TOKEN.test(named[2])) return fail(`"${named[2]}" is not a header name`);
  return { ok: true, value: { kind, source, name: named[2] } };
}

/**
 * Reads a link's parameter or body value: a string that is one expression, a string with `{$...}` expressions
 * embedded, or any other value as a constant.
 */
export function parseLinkValue(value: unknown): Parsed<LinkValue> {
  if (typeof value !== 'string') return { ok: true, value: { kind: 'constant', value } };
  if (value.startsWith('$')) {
    const expression = parseRuntimeExpression(value);
    return expression.ok ? { ok: true, value: { kind: 'expression', expression: expression.value } } : expression;
  }
  if (!value.includes('{$')) return { ok: true, value: { kind: 'constant', value } };
  const parts: Array<string | RuntimeExpression> = [];
  let at = 0;
  for (const match of value.matchAll(/\{(\$[^{}]*)\}/g)) {
    const expression = parseRuntimeExpression(match[1]);
    if (!expression.ok) return expression;
    if (match.index > at) parts.push(value.slice(at, match.index));
    parts.push(expression.value);
    at = match.index + match[0].length;
  }
  if (at < value.length) parts.push(value.slice(at));
  return { ok: true, value: { kind: 'template', parts } };
}
