// An operation that declares no success, only errors (BigOven's image scan): its valid requests
// are held to what it declares, not to a 2xx it never promised.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { verify } from '../../src/runner/verify.ts';

const SPEC = 'test/documents/errors-only.yaml';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ spec: SPEC, port: 0, quiet: true });
});
afterAll(() => mock.close());

describe('an operation that declares only errors', () => {
  it('passes against the mock: its valid cases expect no 2xx', async () => {
    const report = await verify({ target: mock.url, spec: SPEC, generate: 2, hostile: 0 });
    const valid = report.cases.filter((c) => c.id.startsWith('generated/scan/valid'));
    expect(valid.length).toBeGreaterThan(0);
    expect(report.cases.filter((c) => c.status !== 'passed').map((c) => c.id)).toEqual([]);
  });
});
