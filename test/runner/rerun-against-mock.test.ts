// A verify run leaves items on the server; the next run against the same server must still pass.
// The runs use the clock's {{uniqueId}} base (no uniqueIdBase), as a user's runs do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { verify, type VerifyReport } from '../../src/runner/index.ts';

const failuresOf = (report: VerifyReport) =>
  report.cases
    .filter((c) => c.status !== 'passed')
    .map((c) => `${c.name}: ${c.steps.flatMap((s) => s.findings.map((f) => f.message)).join('; ')}`);

describe('verify run three times in a row against the same mock', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
  });
  afterAll(() => mock.close());

  it.each([1, 2, 3])('passes the shipped fixtures and the generated cases, run %i', async () => {
    const report = await verify({ target: mock.url, token: 'mock-token', generate: 3 });
    expect(failuresOf(report)).toEqual([]);
  });
});

describe('verify --generate run three times in a row against a mock of the grown document', () => {
  const spec = resolve('test/documents/plant-store-grown.yaml');
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, spec });
  });
  afterAll(() => mock.close());

  it.each([1, 2, 3])('passes every generated case and sequence, run %i', async () => {
    const report = await verify({ target: mock.url, spec, token: 'mock-token', generate: 3 });
    expect(failuresOf(report)).toEqual([]);
    expect(report.cases.some((c) => c.id.startsWith('generated/sequence'))).toBe(true);
  });
});
