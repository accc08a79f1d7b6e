// The project's own mock passes every shipped fixture and every generated case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { verify, type VerifyReport } from '../../src/runner/index.ts';

let mock: MockServer;
let report: VerifyReport;

beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
  report = await verify({ target: mock.url, token: 'mock-token', generate: 5, seed: 11 });
});
afterAll(() => mock.close());

describe('verify against the plantstore mock', () => {
  it('passes every shipped fixture and every generated case', () => {
    const failed = report.cases.filter((c) => c.status !== 'passed');
    expect(
      failed.map((c) => `${c.name}: ${c.steps.flatMap((s) => s.findings.map((f) => f.message)).join('; ')}`),
    ).toEqual([]);
    expect(report.outcome).toBe('passed');
  });

  it('runs the shipped fixtures and the generated cases', () => {
    expect(report.cases.filter((c) => c.source !== 'generated').length).toBe(23);
    const generated = report.cases.filter((c) => c.source === 'generated');
    expect(generated.filter((c) => c.name.includes('accepts generated example'))).toHaveLength(5);
    expect(generated.some((c) => c.name.includes('removed required field'))).toBe(true);
    expect(generated.some((c) => c.name.includes('malformed JSON'))).toBe(true);
    expect(generated.some((c) => c.name.includes('without credentials'))).toBe(true);
  });

  it("warns, without failing, on the mock's documented off-contract 401 and 415", () => {
    const warned = report.cases.filter((c) => c.warnings > 0).map((c) => c.name);
    expect(warned).toEqual(
      expect.arrayContaining([
        'rejects a request without a token',
        'rejects a body that is not JSON (Content-Type text/plain)',
      ]),
    );
    expect(report.summary.warned).toBe(warned.length);
  });

  it('fails those same warnings under --strict', async () => {
    const strict = await verify({ target: mock.url, token: 'mock-token', strict: true, filter: ['without a token'] });
    expect(strict.outcome).toBe('failed');
    expect(strict.cases[0].steps[0].findings[0]).toMatchObject({ code: 'off-contract-status', severity: 'failure' });
  });

  it('keeps 2^53 + k + 1 exact in the request it reports, k a multiple of 4', () => {
    const pair = report.cases.find((c) => c.name.startsWith('keeps 2^53 + k'))!;
    const [first, second] = pair.steps.map((s) => (s.request!.body as { id: bigint }).id);
    expect(second - first).toBe(1n);
    expect((first - 9007199254740992n) % 4n).toBe(0n);
    expect(first > 9007199254740992n && second < 2n ** 54n).toBe(true);
  });
});
