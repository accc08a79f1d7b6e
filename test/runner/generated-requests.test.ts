// Every operation of a document gets generated requests: parameters drawn from their schemas and
// written in their styles, the credentials each security scheme asks for (from --token and
// --auth), and, where the runner cannot build a request, a reason instead of a case.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateCases, type GeneratedCases } from '../../src/runner/generate/generated-cases.ts';
import type { Case, FixtureRequest } from '../../src/runner/fixture.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { type LoadedSpec } from '../../src/document/loaded-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import { createValidators } from '../../src/validation/validator.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const PARAMS = 'test/documents/runner-params.yaml';
const AUTH = {
  headerKey: 'header-key-1',
  queryKey: 'query-key-2',
  cookieKey: 'cookie-key-3',
  basicAuth: 'alice:s3cret',
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

let spec: LoadedSpec;
let all: GeneratedCases;
beforeAll(async () => {
  spec = await loadSpec(PARAMS);
  all = await generate(AUTH, 3);
});

function generate(auth: Record<string, string>, count: number): Promise<GeneratedCases> {
  return generateCases(spec, listOperations(spec), createValidators(spec), { count, seed: 5, auth });
}

const request = (cases: Case[], id: string): FixtureRequest => {
  const found = cases.find((c) => c.id === id);
  if (!found) throw new Error(`no case ${id}; there are ${cases.map((c) => c.id).join(', ')}`);
  return found.steps[0].request;
};

describe('generated requests for every operation', () => {
  it('gives every operation cases when the run has its credentials', () => {
    expect(all.uncovered).toEqual([]);
    const operations = new Set(
      all.cases.filter((c) => !c.id.startsWith('generated/unsupported-method/')).map((c) => c.id.split('/')[1]),
    );
    expect([...operations].sort()).toEqual([
      'getAccount',
      'getPoint',
      'getQuota',
      'getReport',
      'getSession',
      'listTokens',
      'search',
      'styledQuery',
    ]);
  });

  it('fills path parameters from their schemas: integers in range, a uuid', () => {
    const report = request(all.cases, 'generated/getReport/valid-1').path.split('/');
    expect(Number(report[2])).toBeGreaterThanOrEqual(2000);
    expect(Number(report[3])).toBeLessThanOrEqual(12);
    expect(request(all.cases, 'generated/getAccount/valid-1').path).toMatch(/^\/accounts\/[0-9a-f-]{36}$/);
  });

  it('sends required query and header parameters, and optional ones in every other case', () => {
    const first = request(all.cases, 'generated/search/valid-1');
    expect(first.rawQuery?.find((piece) => piece.startsWith('q='))).toMatch(/^q=[a-z]+$/);
    expect(first.rawQuery?.some((piece) => piece.startsWith('page='))).toBe(true);
    expect(first.headers?.['x-request-id']).toMatch(UUID);
    const second = request(all.cases, 'generated/search/valid-2');
    expect(second.rawQuery?.map((piece) => piece.split('=')[0])).toEqual(['q']);
  });

  it('writes arrays and objects in the style each parameter declares', () => {
    const query = request(all.cases, 'generated/styledQuery/valid-1').rawQuery!;
    expect(query.find((piece) => piece.startsWith('tags='))).toMatch(/^tags=(red|green|blue)(,(red|green|blue)){1,2}$/);
    expect(query.find((piece) => piece.startsWith('ids='))).toMatch(/^ids=\d\|\d$/);
    expect(query.find((piece) => piece.startsWith('words='))).toMatch(/^words=[ab]%20[ab]$/);
    expect(query.find((piece) => piece.startsWith('filter'))).toMatch(/^filter%5Bcolor%5D=(red|blue)$/);
    expect(request(all.cases, 'generated/getPoint/valid-1').path).toMatch(/^\/points\/;x=\d;y=\d$/);
  });

  it.each([
    [
      'an API key in a header',
      'generated/search/valid-1',
      (r: FixtureRequest) => r.headers?.['x-api-key'],
      'header-key-1',
    ],
    ['an API key in the query', 'generated/getQuota/valid-1', (r: FixtureRequest) => r.query?.api_key, 'query-key-2'],
    [
      'an API key in a cookie',
      'generated/getSession/valid-1',
      (r: FixtureRequest) => r.headers?.cookie,
      'session=cookie-key-3',
    ],
    [
      'basic credentials',
      'generated/getReport/valid-1',
      (r: FixtureRequest) => r.headers?.authorization,
      `Basic ${Buffer.from('alice:s3cret').toString('base64')}`,
    ],
    [
      'a bearer token (--token)',
      'generated/getAccount/valid-1',
      (r: FixtureRequest) => r.headers?.authorization,
      'Bearer {{token}}',
    ],
    [
      'an oauth2 token, the first alternative',
      'generated/listTokens/valid-1',
      (r: FixtureRequest) => r.headers?.authorization,
      'Bearer {{token}}',
    ],
  ])('presents %s', (_what, id, pick, expected) => {
    expect(pick(request(all.cases, id))).toBe(expected);
  });

  it('uses an --auth value for a bearer scheme in place of --token', async () => {
    const { cases } = await generate({ ...AUTH, bearerAuth: 'given-bearer' }, 1);
    expect(request(cases, 'generated/getAccount/valid-1').headers?.authorization).toBe('Bearer given-bearer');
  });

  it('rejects, as negative cases, a missing required parameter and missing credentials', () => {
    const search = all.cases
      .filter((c) => c.id.startsWith('generated/search/'))
      .map((c) => [c.id.split('/')[2], c.steps[0].expect.status]);
    expect(search).toEqual(
      expect.arrayContaining([
        ['missing-query-q', '4xx'],
        ['missing-header-X-Request-Id', '4xx'],
        ['no-credentials', '4xx'],
      ]),
    );
    const without = request(all.cases, 'generated/getQuota/no-credentials');
    expect(without.query?.api_key).toBeUndefined();
  });

  it('sends an API key declared as a parameter too once, as the credential, and never drops it as a "missing parameter"', () => {
    const quota = request(all.cases, 'generated/getQuota/valid-1');
    expect(quota.query).toEqual({ api_key: 'query-key-2' });
    expect(quota.rawQuery).toBeUndefined();
    expect(all.cases.map((c) => c.id)).not.toContain('generated/getQuota/missing-query-api_key');
  });

  it('expects a 2xx without path parameters, and only the contract with them (the item may not exist)', () => {
    expect(all.cases.find((c) => c.id === 'generated/search/valid-1')!.steps[0].expect).toEqual({ status: '2xx' });
    expect(all.cases.find((c) => c.id === 'generated/getAccount/valid-1')!.steps[0].expect).toEqual({});
  });

  it('gives the same requests for the same seed', async () => {
    const again = await generate(AUTH, 3);
    expect(again.cases).toEqual(all.cases);
  });

  it('says which operations got no case without the credentials they need, and which flag to pass', async () => {
    const { uncovered } = await generate({}, 1);
    expect(uncovered.map((u) => u.operationId)).toEqual(['search', 'getReport', 'getQuota', 'getSession']);
    expect(uncovered[0].reason).toContain('--auth headerKey=KEY (API key in the header "X-API-Key")');
    expect(uncovered[1].reason).toContain('--auth basicAuth=USER:PASSWORD');
  });
});

describe('an operation the generator cannot draw a value for', () => {
  it('is reported with the reason, and the other operations still get cases', async () => {
    const spec = await loadSpec(PARAMS);
    const source = {
      valid: () => [],
      invalid: () => [],
      value: (pointer: string) => {
        if (pointer.includes('/~1quota/') || pointer.includes('~1reports')) throw new Error('unsatisfiable');
        return 'x';
      },
    };
    const { cases, uncovered } = await generateCases(
      spec,
      listOperations(spec),
      createValidators(spec),
      { count: 1, seed: 1, auth: AUTH },
      source,
    );
    expect(uncovered).toEqual([
      {
        operationId: 'getReport',
        method: 'GET',
        path: '/reports/{year}/{month}',
        reason: expect.stringContaining('the example generator failed (unsatisfiable)'),
      },
    ]);
    expect(cases.some((c) => c.id.startsWith('generated/search/'))).toBe(true);
  });
});

describe('a path whose parameter the document does not declare', () => {
  it('is reported, not sent with "{name}" in the path', async () => {
    const file = join(tempDir('plantstore-undeclared-'), 'undeclared.yaml');
    writeFileSync(
      file,
      "openapi: 3.1.0\ninfo: { title: t, version: '1' }\npaths:\n  /things/{thingId}:\n    get:\n      operationId: getThing\n      responses:\n        '200': { description: ok }\n",
    );
    const loaded = await loadSpec(file);
    const { cases, uncovered } = await generateCases(loaded, listOperations(loaded), createValidators(loaded), {
      count: 1,
      seed: 1,
      auth: {},
    });
    expect(cases).toEqual([]);
    expect(uncovered[0].reason).toBe(
      'the path parameter {thingId} is not declared, so no value can be generated for it',
    );
  });
});
