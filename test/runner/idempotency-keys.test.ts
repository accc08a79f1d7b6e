// A document that takes an Idempotency-Key header: a server refuses a key it has seen with another
// body, so every generated request carries a key of its own, and a run against the mock (which keeps
// the keys) passes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { verify } from '../../src/runner/verify.ts';

const SPEC = 'test/documents/idempotent-payments.yaml';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ spec: SPEC, port: 0, quiet: true });
});
afterAll(() => mock.close());

describe('generated requests with an Idempotency-Key header', () => {
  it('send a run-unique UUID per request, so the mock that keeps the keys accepts every valid case', async () => {
    const report = await verify({ target: mock.url, spec: SPEC, generate: 5, hostile: 0 });
    const valid = report.cases.filter((c) => c.id.startsWith('generated/createPayment/valid'));
    expect(valid.length).toBeGreaterThan(1);
    expect(valid.map((c) => c.status)).toEqual(valid.map(() => 'passed'));
    const keys = valid.map((c) => c.steps[0].request?.headers?.['idempotency-key']);
    for (const key of keys) expect(key).toMatch(UUID);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
