// `plantstore verify --auth NAME=VALUE`: credentials per security scheme of the document, sent
// where each scheme says and kept out of every report, like the token.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const SPEC = 'test/documents/runner-params.yaml';
const SECRETS = {
  headerKey: 'header-secret-1111',
  queryKey: 'query-secret-2222',
  cookieKey: 'cookie-secret-3333',
  basicAuth: 'alice:basic-secret-4444',
  bearerAuth: 'bearer-secret-5555',
  oauth: 'oauth-secret-6666',
};
const AUTH_ARGS = Object.entries(SECRETS).flatMap(([name, value]) => ['--auth', `${name}=${value}`]);

// Every operation but styledQuery, which today's mock refuses (see against-mock-documents.test.ts).
const FILTERS = ['credentials', 'a request (generated)', 'search:', 'getReport', 'getAccount', 'listTokens'].flatMap(
  (text) => ['--filter', text],
);

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, spec: SPEC });
});
afterAll(() => mock.close());

describe('plantstore verify --auth', () => {
  it('runs every operation with its credentials and writes none of them in any report', async () => {
    const dir = tempDir('plantstore-auth-');
    const result = await runCli([
      'verify',
      '--spec',
      SPEC,
      '--target',
      mock.url,
      '--generate',
      '1',
      ...AUTH_ARGS,
      ...FILTERS,
      '--junit',
      join(dir, 'v.xml'),
      '--json',
      join(dir, 'v.json'),
    ]);
    expect(result.stderr).toBe('');
    const report = JSON.parse(readFileSync(join(dir, 'v.json'), 'utf8')) as {
      uncovered: unknown[];
      cases: Array<{ name: string; status: string; steps: Array<{ findings: Array<{ message: string }> }> }>;
    };
    expect(
      report.cases
        .filter((c) => c.status !== 'passed')
        .map((c) => `${c.name}: ${c.steps.flatMap((s) => s.findings.map((f) => f.message)).join('; ')}`),
    ).toEqual([]);
    expect(result.code).toBe(0);
    expect(report.uncovered).toEqual([]);
    const everything = [result.stdout, readFileSync(join(dir, 'v.xml'), 'utf8'), JSON.stringify(report)].join('\n');
    for (const secret of [...Object.values(SECRETS), Buffer.from(SECRETS.basicAuth).toString('base64')])
      expect(everything).not.toContain(secret);
    expect(everything).toContain('[redacted]');
  }, 30_000);

  it.each([
    ['a scheme the document lacks', ['--auth', 'nope=x'], "the document has no security scheme named 'nope'"],
    ['a flag without "="', ['--auth', 'headerKey'], 'is not NAME=VALUE'],
    ['basic credentials without a colon', ['--auth', 'basicAuth=alice'], 'HTTP basic credentials are USER:PASSWORD'],
  ])('exits 2 on %s', async (_what, args, message) => {
    const result = await runCli([
      'verify',
      '--spec',
      SPEC,
      '--target',
      mock.url,
      '--token',
      't',
      '--generate',
      '1',
      ...args,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('names the schemes the document has when the name is wrong', async () => {
    const result = await runCli([
      'verify',
      '--spec',
      SPEC,
      '--target',
      mock.url,
      '--token',
      't',
      '--generate',
      '1',
      '--auth',
      'nope=x',
    ]);
    expect(result.stderr).toContain(
      'headerKey (apiKey), queryKey (apiKey), cookieKey (apiKey), basicAuth (http basic), bearerAuth (http bearer), oauth (oauth2)',
    );
  });
});
