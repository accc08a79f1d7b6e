// Keys of created items are unique across cases, sequences and runs for every key type: an
// integer becomes {{uniqueId}}, a uuid {{uniqueUuid}}, a short patterned string {{uniqueString}},
// each still valid against the key's schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { verify, type VerifyReport } from '../../src/runner/index.ts';
import { generateCases } from '../../src/runner/generate/generated-cases.ts';
import { uniqueString, uniqueUuid } from '../../src/runner/generate/unique-values.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import { createValidators } from '../../src/validation/validator.ts';

const SPEC = 'test/documents/runner-keys.yaml';

describe('run-unique values', () => {
  it.each([0n, 1n, 1_700_000_000_000_000_123n, 2n ** 64n - 1n])('writes %s as a uuid and a short string', (id) => {
    expect(uniqueUuid(id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uniqueString(id)).toMatch(/^[0-9a-z]{1,13}$/);
  });

  it('gives different ids different values', () => {
    const ids = [1_700_000_000_000_000_000n, 1_700_000_000_000_000_001n, 1_700_000_000_000_000_016n];
    expect(new Set(ids.map(uniqueUuid)).size).toBe(3);
    expect(new Set(ids.map(uniqueString)).size).toBe(3);
  });
});

describe('generated creates', () => {
  it.each([
    ['a uuid key', 'createDevice', '/devices', '{{uniqueUuid}}'],
    ['a string key with maxLength 16 and a pattern', 'createCode', '/codes', '{{uniqueString}}'],
    ['an integer key', 'createTicket', '/tickets', '{{uniqueId}}'],
  ])(
    'send %s as a run-unique value, in single cases and in sequences',
    async (_what, operationId, collection, variable) => {
      const spec = await loadSpec(SPEC);
      const { cases } = await generateCases(spec, listOperations(spec), createValidators(spec), {
        count: 2,
        seed: 1,
        auth: {},
      });
      const creates = cases.filter(
        (c) =>
          c.id.startsWith(`generated/${operationId}/valid-`) || c.id.startsWith(`generated/sequence${collection}/`),
      );
      expect(creates).toHaveLength(4);
      for (const created of creates) expect((created.steps[0].request.body as { id: unknown }).id).toBe(variable);
    },
  );
});

describe('creates against the mock, which refuses a key it already holds', () => {
  let mock: MockServer;
  const runs: VerifyReport[] = [];
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, spec: SPEC });
    // Two runs against the same state, as a CI job re-run would do.
    for (const uniqueIdBase of [1_000_000n, 2_000_000n])
      runs.push(
        await verify({
          target: mock.url,
          token: 'mock-token',
          spec: SPEC,
          generate: 3,
          seed: 1,
          uniqueIdBase,
          filter: ['create', 'sequence'],
        }),
      );
  });
  afterAll(() => mock.close());

  it('passes every create and sequence in both runs', () => {
    for (const report of runs) expect(report.cases.filter((c) => c.status !== 'passed').map((c) => c.name)).toEqual([]);
  });

  it('never sends the same key twice', () => {
    const keys = runs.flatMap((report) =>
      report.cases.flatMap((c) =>
        c.steps
          .filter((s) => s.request?.method === 'POST' && /\/valid-|sequence/.test(c.id))
          .map((s) => `${s.request!.path} ${String((s.request!.body as { id: unknown }).id)}`),
      ),
    );
    expect(keys.length).toBe(2 * 3 * 3 * 2);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
