// The contract checks judge an answer against the document alone, with no socket.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/exact-json.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import { createRouter, type Router } from '../../src/document/router.ts';
import { createValidators, type Validators } from '../../src/validation/validator.ts';
import { checkContract } from '../../src/runner/run/contract-checks.ts';

let route: Router;
let validators: Validators;
beforeAll(async () => {
  const spec = await loadSpec();
  route = createRouter(listOperations(spec));
  validators = createValidators(spec);
});

const JSON_TYPE = { 'content-type': 'application/json' };

function judge(
  status: number,
  text: string,
  headers: Record<string, string> = JSON_TYPE,
  options: { strict?: boolean; method?: string; path?: string; rejection?: boolean } = {},
) {
  const findings = checkContract({
    route: route(options.method ?? 'POST', options.path ?? '/plants'),
    response: { status, headers, text, json: text === '' ? undefined : parseJson(text) },
    validators,
    strict: options.strict ?? false,
    rejection: options.rejection,
  });
  return findings.map((f) => `${f.severity} ${f.code}${f.pointer !== undefined ? ` ${f.pointer}` : ''}`);
}

describe('contract checks on every answer', () => {
  it.each([
    ['a declared 200 with a Plant', 200, '{"name":"Fern"}', JSON_TYPE, []],
    ['a declared 400 with an Error', 400, '{"error":400,"message":"bad"}', JSON_TYPE, []],
    ['a 200 without the required name', 200, '{"tag":"x"}', JSON_TYPE, ['failure missing-required-field /name']],
    ['a 200 whose name is a number', 200, '{"name":5}', JSON_TYPE, ['failure wrong-field-type /name']],
    [
      'a 400 whose error is not an int32',
      400,
      '{"error":9999999999,"message":"x"}',
      JSON_TYPE,
      ['failure schema-violation /error'],
    ],
    ['an undeclared 201', 201, '{"name":"Fern"}', JSON_TYPE, ['failure undeclared-status']],
    ['a 500', 500, '{"error":500,"message":"boom"}', JSON_TYPE, ['failure server-error']],
    ['a 302', 302, '', { location: '/x' }, ['failure redirect']],
    [
      'a 200 served as text/plain',
      200,
      '{"name":"Fern"}',
      { 'content-type': 'text/plain' },
      ['failure undeclared-content-type'],
    ],
    ['a 200 without a Content-Type', 200, '{"name":"Fern"}', {}, ['failure missing-content-type']],
    ['a 200 with charset parameter', 200, '{"name":"Fern"}', { 'content-type': 'application/json; charset=utf-8' }, []],
    ['a 200 that is not JSON', 200, 'name=Fern', JSON_TYPE, ['failure body-not-json']],
    ['a 200 without a body', 200, '', JSON_TYPE, ['failure missing-body']],
    [
      'a 401 (documented off-contract)',
      401,
      '{"error":401,"message":"no"}',
      JSON_TYPE,
      ['warning off-contract-status'],
    ],
    [
      'a 415 (documented off-contract)',
      415,
      '{"error":415,"message":"no"}',
      JSON_TYPE,
      ['warning off-contract-status'],
    ],
  ])('judges %s', (_what, status, text, headers, expected) => {
    expect(judge(status, text, headers)).toEqual(expected);
  });

  it('turns the off-contract warning into a failure under --strict', () => {
    expect(judge(401, '{"error":401,"message":"no"}', JSON_TYPE, { strict: true })).toEqual([
      'failure off-contract-status',
    ]);
  });

  it('warns, and fails only under --strict, when a request made to be refused gets an undeclared 4xx', () => {
    expect(judge(422, '{"error":422,"message":"no"}', JSON_TYPE, { rejection: true })).toEqual([
      'warning undeclared-rejection-status',
    ]);
    expect(judge(422, '{"error":422,"message":"no"}', JSON_TYPE, { rejection: true, strict: true })).toEqual([
      'failure undeclared-rejection-status',
    ]);
    expect(judge(422, '{"error":422,"message":"no"}', JSON_TYPE)).toEqual(['failure undeclared-status']);
  });

  it('holds only a JSON answer to a schema: an undeclared media type fails on its Content-Type alone', () => {
    expect(judge(200, 'name,tag', { 'content-type': 'text/csv' })).toEqual(['failure undeclared-content-type']);
    expect(judge(200, '{"tag":"x"}', { 'content-type': 'application/vnd.plant+json' })).toEqual([
      'failure undeclared-content-type',
    ]);
  });

  it('warns about a 404 for a path the document does not have, and takes a 405 for a method it does not have', () => {
    expect(judge(404, '', {}, { path: '/nothing' })).toEqual(['warning off-contract-status']);
    // RFC 9110 §15.5.6: 405 is the right answer to a method the path does not declare.
    expect(judge(405, '', {}, { method: 'GET' })).toEqual([]);
  });
});

describe('contract checks on an operation that declares no response', () => {
  it('warns that nothing can be judged, and fails only under --strict', async () => {
    const spec = await loadSpec('test/corpus/documents/oai/non-oauth-scopes.yaml');
    const ownRoute = createRouter(listOperations(spec));
    const codes = (strict: boolean) =>
      checkContract({
        route: ownRoute('GET', '/users'),
        response: { status: 200, headers: {}, text: '' },
        validators: createValidators(spec),
        strict,
      }).map((f) => `${f.severity} ${f.code}`);
    expect(codes(false)).toEqual(['warning no-declared-responses']);
    expect(codes(true)).toEqual(['failure no-declared-responses']);
  });
});

describe('contract checks on shapes from public documents', () => {
  let shapes: { route: Router; validators: Validators };
  beforeAll(async () => {
    const spec = await loadSpec('test/documents/runner-corpus-shapes.yaml');
    shapes = { route: createRouter(listOperations(spec)), validators: createValidators(spec) };
  });
  const judgeShape = (
    method: string,
    path: string,
    status: number,
    text: string,
    headers: Record<string, string> = {},
  ) =>
    checkContract({
      route: shapes.route(method, path),
      response: { status, headers, text, json: text === '' ? undefined : parseJson(text) },
      validators: shapes.validators,
      strict: false,
    }).map((f) => `${f.severity} ${f.code}`);

  it.each([
    [
      'a declared 302 (an OAuth authorize endpoint)',
      'GET',
      '/authorize',
      302,
      '',
      { location: 'https://client.example/cb?code=1' },
      [],
    ],
    ['an undeclared 307 on the same operation', 'GET', '/authorize', 307, '', { location: '/x' }, ['failure redirect']],
    [
      'a 204 without the JSON body its document declares (HTTP never sends one)',
      'POST',
      '/teams/t1/removeUser',
      204,
      '',
      {},
      [],
    ],
    [
      'an empty PDF, whose schema (a binary string) takes ""',
      'GET',
      '/quotes/q1/pdf',
      200,
      '',
      { 'content-type': 'application/pdf' },
      [],
    ],
    [
      'an empty text whose schema needs one character',
      'GET',
      '/banner',
      200,
      '',
      { 'content-type': 'text/plain' },
      ['failure missing-body'],
    ],
  ])('judges %s', (_what, method, path, status, text, headers, expected) => {
    expect(judgeShape(method, path, status, text, headers)).toEqual(expected);
  });
});
