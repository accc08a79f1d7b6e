// Stateful sequences (issue 7): which steps a document gets, and the plantstore mock passing them.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { stringifyJson } from '../../src/json/exact-json.ts';
import { verify, type VerifyReport } from '../../src/runner/index.ts';
import type { Case } from '../../src/runner/fixture.ts';
import { generateCases, type CaseSource } from '../../src/runner/generate/generated-cases.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import { createValidators } from '../../src/validation/validator.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const GROWN = 'test/documents/plant-store-grown.yaml';
const TOKEN = 'sequence-secret-token';

let folder: string;
beforeAll(() => {
  folder = tempDir('plantstore-sequences-');
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The grown document without some of its operations, written to a file. */
function grownWithout(...operations: Array<'listPlants' | 'getPlant' | 'deletePlant'>): string {
  const document = parse(readFileSync(GROWN, 'utf8'));
  const where = {
    listPlants: ['/plants', 'get'],
    getPlant: ['/plants/{id}', 'get'],
    deletePlant: ['/plants/{id}', 'delete'],
  } as const;
  for (const name of operations) delete document.paths[where[name][0]][where[name][1]];
  if (Object.keys(document.paths['/plants/{id}']).every((key) => key === 'parameters'))
    delete document.paths['/plants/{id}'];
  const file = join(folder, `grown-without-${operations.join('-')}.yaml`);
  writeFileSync(file, stringify(document));
  return file;
}

const fixedBodies: CaseSource = {
  valid: (_operation, count) => Array.from({ length: count }, () => ({ id: 7, name: 'Fern', tag: 'green' })),
  invalid: () => [],
  value: () => 7,
};

async function sequencesOf(
  file: string,
  count = 1,
  source: CaseSource | undefined = fixedBodies,
  seed = 1,
): Promise<Case[]> {
  const spec = await loadSpec(file);
  const { cases } = await generateCases(
    spec,
    listOperations(spec),
    createValidators(spec),
    { count, seed, auth: {} },
    source,
  );
  return cases.filter((c) => c.id.startsWith('generated/sequence/'));
}

describe('the sequences a document gets', () => {
  it.each([
    [
      'the grown document',
      () => GROWN,
      ['create', 'read', 'create-2', 'limit-honoured', 'find-in-list', 'delete', 'read-after-delete', 'delete-2'],
    ],
    ['no delete', () => grownWithout('deletePlant'), ['create', 'read', 'create-2', 'limit-honoured', 'find-in-list']],
    ['only create and read', () => grownWithout('deletePlant', 'listPlants'), ['create', 'read']],
    [
      'no read',
      () => grownWithout('getPlant'),
      ['create', 'create-2', 'limit-honoured', 'find-in-list', 'delete', 'delete-2'],
    ],
    ['only create and delete', () => grownWithout('getPlant', 'listPlants'), ['create', 'delete']],
  ])('runs only the steps whose operations exist: %s', async (_what, file, steps) => {
    const [sequence] = await sequencesOf(file());
    expect(sequence.steps.map((s) => s.name)).toEqual(steps);
    expect(sequence.name).toBe(`/plants sequence 1 (seed 1): ${steps.join(', ')}`);
  });

  it('generates no sequence for the built-in one-operation document', async () => {
    expect(await sequencesOf('openapi/plant-store.yaml')).toEqual([]);
  });

  it('generates no sequence when create has nothing to follow it', async () => {
    expect(await sequencesOf(grownWithout('listPlants', 'getPlant', 'deletePlant'))).toEqual([]);
  });

  it('gives the plant a run-unique id and name, and expects them back in the read, the list and the path', async () => {
    const [sequence] = await sequencesOf(GROWN);
    const [create, read, create2, limited, list, remove, gone, remove2] = sequence.steps;
    expect(create.request.body).toEqual({ id: '{{uniqueId}}', name: 'plant {{uniqueId}}', tag: 'green' });
    // Plant declares no id: what is read back is what was sent, cut to the response schema.
    expect(read.request.path).toBe('/plants/{{uniqueId}}');
    expect(read.expect).toEqual({ status: '2xx', body: { name: 'plant {{uniqueId}}', tag: 'green' } });
    // A second plant, with the case's second unique id, then a list asked for 1 must hold at most 1.
    expect(create2.request.body).toEqual({ id: '{{uniqueId 2}}', name: 'plant {{uniqueId 2}}', tag: 'green' });
    expect(limited).toMatchObject({
      request: { method: 'GET', path: '/plants', query: { limit: 1 } },
      expect: { status: '2xx', listAtMost: 1 },
    });
    expect(list.request.query).toEqual({ limit: 100 });
    expect(list.expect).toEqual({
      status: '2xx',
      listContains: { item: { name: 'plant {{uniqueId}}', tag: 'green' }, limit: 100 },
    });
    expect(remove2).toMatchObject({
      request: { method: 'DELETE', path: '/plants/{{uniqueId 2}}' },
      expect: { status: '2xx' },
    });
    expect(remove).toMatchObject({
      request: { method: 'DELETE', path: '/plants/{{uniqueId}}' },
      expect: { status: '2xx' },
    });
    // getPlant declares 200 and 404: "not found" is a 404.
    expect(gone).toMatchObject({ request: { method: 'GET', path: '/plants/{{uniqueId}}' }, expect: { status: [404] } });
  });

  it('makes N sequences for --generate N, the same for the same seed', async () => {
    const first = await sequencesOf(GROWN, 3, undefined, 5);
    const again = await sequencesOf(GROWN, 3, undefined, 5);
    expect(first.map((c) => c.id)).toEqual([
      'generated/sequence/plants/1',
      'generated/sequence/plants/2',
      'generated/sequence/plants/3',
    ]);
    expect(stringifyJson(again as never)).toBe(stringifyJson(first as never));
  });
});

describe('sequences against the plantstore mock with the grown document', () => {
  let mock: MockServer;
  let report: VerifyReport;
  let json = '';
  beforeAll(async () => {
    mock = await startMockServer({ spec: GROWN, port: 0 });
    report = await verify({
      target: mock.url,
      token: TOKEN,
      spec: GROWN,
      generate: 2,
      seed: 4,
      reporters: [{ name: 'json', stream: { write: (chunk) => (json += chunk) } }],
    });
  });
  afterAll(() => mock.close());

  it('runs two sequences of five steps, and they pass', () => {
    const sequences = report.cases.filter((c) => c.id.startsWith('generated/sequence/'));
    expect(sequences.map((c) => [c.status, c.steps.map((s) => `${s.name} ${s.response?.status}`)])).toEqual([
      [
        'passed',
        [
          'create 200',
          'read 200',
          'create-2 200',
          'limit-honoured 200',
          'find-in-list 200',
          'delete 204',
          'read-after-delete 404',
          'delete-2 204',
        ],
      ],
      [
        'passed',
        [
          'create 200',
          'read 200',
          'create-2 200',
          'limit-honoured 200',
          'find-in-list 200',
          'delete 204',
          'read-after-delete 404',
          'delete-2 204',
        ],
      ],
    ]);
  });

  it('passes every other generated case too', () => {
    expect(report.outcome).toBe('passed');
  });

  it('keeps the token out of the report', () => {
    expect(json).toContain('Bearer [redacted]');
    expect(json).not.toContain(TOKEN);
  });
});
