// OpenAPI runtime expressions: read as the specification's ABNF writes them, and evaluated against
// one exchange.
import { describe, expect, it } from 'vitest';
import { parseLinkValue, parseRuntimeExpression, type RuntimeExpression } from '../../src/runner/runtime-expression.ts';
import { evaluate, evaluateLinkValue, type Exchange } from '../../src/runner/run/runtime-values.ts';

const EXCHANGE: Exchange = {
  url: 'http://api.test/users/42?fields=name',
  method: 'GET',
  request: {
    params: { userId: '42' },
    query: 'fields=name&tag=a&tag=b',
    headers: { 'x-request-id': 'r-1' },
    body: { a: { 'b/c': [10, 20] } },
  },
  response: {
    status: 201,
    headers: { location: '/users/42', 'x-rate-limit': '9' },
    body: { id: 42, name: 'Ada', 'a~b': true, items: [{ id: 'first' }] },
  },
};

describe('runtime expressions', () => {
  it.each([
    ['$url', 'http://api.test/users/42?fields=name'],
    ['$method', 'GET'],
    ['$statusCode', 201],
    ['$request.path.userId', '42'],
    ['$request.query.fields', 'name'],
    ['$request.query.tag', 'a'],
    ['$request.header.X-Request-ID', 'r-1'],
    ['$request.body#/a/b~1c/1', 20],
    ['$response.header.Location', '/users/42'],
    ['$response.body#/id', 42],
    ['$response.body#/a~0b', true],
    ['$response.body#/items/0/id', 'first'],
    ['$response.body', EXCHANGE.response!.body],
  ])('reads %s', (text, value) => {
    const parsed = parseRuntimeExpression(text);
    expect(parsed.ok).toBe(true);
    expect(evaluate((parsed as { value: RuntimeExpression }).value, EXCHANGE)).toEqual(value);
  });

  it.each([['$response.body#/missing'], ['$request.path.other'], ['$response.header.X-None'], ['$request.query.none']])(
    'has no value for %s where the exchange has none',
    (text) => {
      const parsed = parseRuntimeExpression(text);
      expect(evaluate((parsed as { value: RuntimeExpression }).value, EXCHANGE)).toBeUndefined();
    },
  );

  it.each([
    ['$response.bodyy#/id', 'after $response. comes header., query., path. or body'],
    ['$response.body#id', '"id" is not a JSON pointer'],
    ['$request.header.bad name', '"bad name" is not a header name'],
    ['$status', 'it starts with none of the expression names'],
    ['$response.cookie.x', 'after $response. comes header., query., path. or body'],
  ])('refuses %s, saying why', (text, why) => {
    const parsed = parseRuntimeExpression(text);
    expect(parsed.ok).toBe(false);
    expect((parsed as { message: string }).message).toContain(why);
  });

  it('reads a link value as one expression, text with embedded expressions, or a constant', () => {
    const value = (raw: unknown) => {
      const parsed = parseLinkValue(raw);
      if (!parsed.ok) throw new Error(parsed.message);
      return evaluateLinkValue(parsed.value, EXCHANGE);
    };
    expect(value('$response.body#/id')).toBe(42);
    expect(value('user-{$response.body#/id}-{$request.query.fields}')).toBe('user-42-name');
    expect(value('plain text')).toBe('plain text');
    expect(value(3)).toBe(3);
    expect(value({ nested: '$not-read' })).toEqual({ nested: '$not-read' });
    expect(value('{$response.body#/missing}')).toBeUndefined();
  });
});
