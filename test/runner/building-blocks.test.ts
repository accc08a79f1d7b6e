// The runner's small parts: variables, body comparison, expectations, redaction, curl.
import { describe, expect, it } from 'vitest';
import { compareJson } from '../../src/runner/run/compare-json.ts';
import { toCurl } from '../../src/runner/run/curl.ts';
import { checkExpectations } from '../../src/runner/run/expectations.ts';
import { createRedactor, redactHeaders, redactQuery } from '../../src/runner/run/redact.ts';
import { checkVariable, substitute, substituteText, type VariableScope } from '../../src/runner/run/variables.ts';

const scope: VariableScope = {
  token: 'secret-token',
  uniqueId: 1795000000000000007n,
  steps: new Map([
    [
      'create',
      {
        request: { body: { id: 42, name: 'Fern' } },
        response: { status: 200, headers: { location: '/plants/42' }, body: { name: 'Fern' } },
      },
    ],
  ]),
};

describe('variables', () => {
  it.each([
    ['"{{uniqueId}}" keeps the integer type', '{{uniqueId}}', 1795000000000000007n],
    ['a variable inside text is written as text', 'id-{{uniqueId}}', 'id-1795000000000000007'],
    ['a request field of an earlier step', '{{steps.create.request.body.id}}', 42],
    ['a response header of an earlier step, in any case', '{{ steps.create.response.headers.Location }}', '/plants/42'],
    ['the token', 'Bearer {{token}}', 'Bearer secret-token'],
    // The offset: (ms since 2025 of the run, 59310400000) * 1000 + the case's place (7), times 4.
    ['the largest int64 less the run-unique offset', '{{uniqueBelow 9223372036854775807}}', 9223134795254775779n],
    ['the smallest int64 plus the run-unique offset', '{{uniqueAbove -9223372036854775808}}', -9223134795254775780n],
    ['2^53 plus the offset, a multiple of 4', '{{uniqueAbove 9007199254740992}}', 9244440854741020n],
    ["the case's second unique id, 2^61 above the first", '{{uniqueId 2}}', 4100843009213693959n],
  ])('%s', (_what, input, expected) => {
    expect(substitute(input, scope)).toEqual({ ok: true, value: expected });
  });

  it('fails on a path an earlier step does not have', () => {
    expect(substituteText('{{steps.create.response.body.id}}', scope)).toMatchObject({
      ok: false,
      message: expect.stringContaining('nothing at body.id'),
    });
  });

  it('names the steps that do run earlier when a reference is wrong', () => {
    expect(checkVariable('steps.later.request.body', ['create'])).toContain('earlier steps: create');
    expect(checkVariable('uniqueID', [])).toContain('unknown variable');
    expect(checkVariable('uniqueId 4', [])).toContain('unknown variable');
    expect(checkVariable('uniqueAbove 12', [])).toBeUndefined();
  });
});

describe('comparing bodies', () => {
  it('lets a subset ignore extra properties, but not exact', () => {
    expect(compareJson({ name: 'Fern' }, { name: 'Fern', id: 1 }, 'subset')).toEqual([]);
    expect(compareJson({ name: 'Fern' }, { name: 'Fern', id: 1 }, 'exact')).toEqual([{ pointer: '/id', actual: 1 }]);
  });

  it('compares integers by exact value whether bigint or number', () => {
    expect(compareJson({ id: 9007199254740993n }, { id: 9007199254740993n }, 'exact')).toEqual([]);
    expect(compareJson({ id: 9007199254740992 }, { id: 9007199254740993n }, 'exact')).toHaveLength(1);
    expect(compareJson({ id: 5 }, { id: 5n }, 'exact')).toEqual([]);
  });

  it('reports a missing property with its pointer', () => {
    expect(compareJson({ a: { b: 1 } }, { a: {} }, 'subset')).toEqual([{ pointer: '/a/b', expected: 1 }]);
  });
});

describe('expectations', () => {
  const response = {
    status: 415,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    text: '{"error":415}',
    json: { ok: true as const, value: { error: 415 } },
  };
  it.each([
    [{ status: 415 }, []],
    [{ status: '4xx' as const }, []],
    [{ status: [400, 415] }, []],
    [{ status: 400 }, ['unexpected-status']],
    [{ headers: { 'Content-Type': 'application/json' } }, []],
    [{ headers: { 'content-type': 'text/plain' } }, ['unexpected-header']],
    [{ headers: { 'www-authenticate': true } }, ['unexpected-header']],
    [{ body: { error: 415 }, bodyMatch: 'exact' as const }, []],
    [{ body: { error: 400 } }, ['unexpected-body']],
  ])('judges %j', (expect_, codes) => {
    expect(checkExpectations(expect_, response).map((f) => f.code)).toEqual(codes);
  });
});

describe('redaction and curl', () => {
  it('replaces a secret everywhere, also URL-encoded, and keeps credential schemes readable', () => {
    const redact = createRedactor(['s3cr3t/+token']);
    expect(redact({ message: 'bad token s3cr3t/+token', query: 'access_token=s3cr3t%2F%2Btoken' })).toEqual({
      message: 'bad token [redacted]',
      query: 'access_token=[redacted]',
    });
    expect(redactHeaders({ authorization: 'Basic dXNlcjpwYXNz', cookie: 'a=b', accept: '*/*' })).toEqual({
      authorization: 'Basic [redacted]',
      cookie: '[redacted]',
      accept: '*/*',
    });
    expect(redactHeaders({ authorization: 'Bearer' })).toEqual({ authorization: 'Bearer' });
  });

  it('writes the token mark as $PLANTSTORE_TOKEN and quotes the rest for sh', () => {
    const curl = toCurl(
      { url: 'http://h/plants', method: 'POST', headers: { authorization: 'Bearer MARK' }, body: `{"name":"it's"}` },
      'MARK',
    );
    expect(curl).toBe(
      `curl -sS -i -X POST 'http://h/plants' -H 'authorization: Bearer '"$PLANTSTORE_TOKEN" --data-binary '{"name":"it'\\''s"}'`,
    );
  });

  it('leaves ordinary text alone whatever the secrets: a short one is redacted only by place', () => {
    const redact = createRedactor(['t', 'ab']);
    expect(redact({ message: 'the tag is tt', name: 'a b ab' })).toEqual({ message: 'the tag is tt', name: 'a b ab' });
  });

  it("redacts credential query parameters by name, the document's apiKey names too, keeping the rest as written", () => {
    const names = { headers: new Set(['x-partner-key']), query: new Set(['partnerkey']) };
    expect(redactQuery('ids=1,2&access_token=t&partnerKey=k&t=t', names)).toBe(
      'ids=1,2&access_token=[redacted]&partnerKey=[redacted]&t=t',
    );
    expect(redactHeaders({ 'x-partner-key': 'k', 'x-trace': 't' }, names)).toEqual({
      'x-partner-key': '[redacted]',
      'x-trace': 't',
    });
  });
});
