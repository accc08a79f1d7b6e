// A collection with replace (PUT) and merge (PATCH) gets them in its sequences, on the item the
// sequence created: replace it with a new valid body and read it back, then merge into it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { verify } from '../../src/runner/index.ts';
import { generateCases, type CaseSource } from '../../src/runner/generate/generated-cases.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import { createValidators } from '../../src/validation/validator.ts';

const CRUD = 'test/documents/plant-store-crud.yaml';
const STEPS = [
  'create',
  'read',
  'create-2',
  'limit-honoured',
  'find-in-list',
  'replace',
  'read-after-replace',
  'merge',
  'delete',
  'read-after-delete',
  'delete-2',
];

// Every operation's generated body is the same plant (the merge schema allows it too).
const fixed: CaseSource = {
  valid: (_operation, count) => Array.from({ length: count }, () => ({ id: 7, name: 'Fern', tag: 'green' })),
  invalid: () => [],
  value: () => 7,
};

describe('replace and merge in a sequence', () => {
  it('replaces and merges the created item, keeping its key and giving it a new label', async () => {
    const spec = await loadSpec(CRUD);
    const { cases } = await generateCases(
      spec,
      listOperations(spec),
      createValidators(spec),
      { count: 1, seed: 1, auth: {} },
      fixed,
    );
    const [sequence] = cases.filter((c) => c.id.startsWith('generated/sequence/'));
    expect(sequence.steps.map((s) => s.name)).toEqual(STEPS);
    const step = (name: string) => sequence.steps.find((s) => s.name === name)!;
    expect(step('replace').request).toMatchObject({
      method: 'PUT',
      path: '/plants/{{uniqueId}}',
      body: { id: '{{uniqueId}}', name: 'plant replaced {{uniqueId}}', tag: 'green' },
    });
    expect(step('read-after-replace').expect).toEqual({
      status: '2xx',
      body: { name: 'plant replaced {{uniqueId}}', tag: 'green' },
    });
    // The merge schema has no id: the key stays in the path only.
    expect(step('merge').request).toMatchObject({
      method: 'PATCH',
      path: '/plants/{{uniqueId}}',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: { name: 'plant merged {{uniqueId}}', tag: 'green' },
    });
  });
});

describe('replace and merge against the plantstore mock', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, spec: CRUD });
  });
  afterAll(() => mock.close());

  it('pass every step, and the read after the replace sees the new body', async () => {
    const report = await verify({
      target: mock.url,
      token: 'mock-token',
      spec: CRUD,
      generate: 2,
      seed: 9,
      filter: ['sequence'],
    });
    expect(report.cases.map((c) => [c.status, c.steps.map((s) => s.name)])).toEqual([
      ['passed', STEPS],
      ['passed', STEPS],
    ]);
    const readBack = report.cases[0].steps.find((s) => s.name === 'read-after-replace')!;
    expect(String((readBack.response!.body as { name: string }).name)).toMatch(/^plant replaced \d+$/);
  });
});
