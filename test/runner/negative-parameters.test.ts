// Generated negative cases break parameters as well as bodies: each path, query or header
// parameter gets a value outside its schema (below its minimum, not its type, ...), and the server
// must refuse it with a 4xx. A grown document whose `limit` has a minimum of 1 is the example.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { startMockServer } from '../../src/mock/server.ts';
import { verify, type VerifyReport } from '../../src/runner/index.ts';
import {
  startCrudPlantServer,
  type CrudPlantServer,
  type CrudPlantServerOptions,
} from '../fixtures-servers/crud-plant-server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

let folder: string;
let limitFromOne: string;
beforeAll(() => {
  folder = tempDir('plantstore-negative-parameters-');
  const document = parse(readFileSync('test/documents/plant-store-grown.yaml', 'utf8'));
  document.paths['/plants'].get.parameters[0].schema.minimum = 1;
  limitFromOne = join(folder, 'grown-limit-from-1.yaml');
  writeFileSync(limitFromOne, stringify(document));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let server: CrudPlantServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(options: CrudPlantServerOptions): Promise<VerifyReport> {
  server = await startCrudPlantServer({ limitMinimum: 1, ...options });
  return verify({
    target: server.url,
    token: 'negative-token',
    spec: limitFromOne,
    generate: 1,
    filter: ['listPlants', 'getPlant'],
  });
}

const failures = (report: VerifyReport) => report.cases.filter((c) => c.status === 'failed').map((c) => c.name);

describe('negative parameter cases', () => {
  it('send limit=0 where the minimum is 1, and limit=not-a-number, expecting a 4xx', async () => {
    const report = await run({});
    const limitCases = report.cases.filter((c) => c.id.startsWith('generated/listPlants/invalid-query-limit-'));
    expect(limitCases.map((c) => c.steps[0].request!.query)).toEqual(['limit=0', 'limit=not-a-number']);
    expect(limitCases.map((c) => c.name)).toEqual([
      'listPlants: rejects the query parameter "limit" below the minimum 1 (0)',
      'listPlants: rejects the query parameter "limit" not an integer ("not-a-number")',
    ]);
  });

  it('break a path parameter too: an id that is not an integer', async () => {
    const report = await run({});
    const pathCases = report.cases.filter((c) => c.id.startsWith('generated/getPlant/invalid-path-id-'));
    expect(pathCases.map((c) => c.steps[0].request!.path)).toEqual(['/plants/not-a-number']);
    expect(pathCases.every((c) => c.status === 'passed')).toBe(true);
  });

  it('pass a server that refuses them', async () => {
    expect(failures(await run({}))).toEqual([]);
  });

  it('fail a server that accepts limit=0 below the minimum of 1', async () => {
    expect(failures(await run({ defect: 'accepts-bad-limit' }))).toEqual([
      'listPlants: rejects the query parameter "limit" below the minimum 1 (0)',
      'listPlants: rejects the query parameter "limit" not an integer ("not-a-number")',
    ]);
  });

  it('pass against the plantstore mock of the same document', async () => {
    const mock = await startMockServer({ port: 0, spec: limitFromOne });
    try {
      const report = await verify({ target: mock.url, token: 'negative-token', spec: limitFromOne, generate: 2 });
      expect(
        report.cases
          .filter((c) => c.status !== 'passed')
          .map((c) => `${c.name}: ${c.steps.flatMap((s) => s.findings.map((f) => f.message)).join('; ')}`),
      ).toEqual([]);
      expect(report.cases.some((c) => c.name.includes('"limit" below the minimum 1'))).toBe(true);
    } finally {
      await mock.close();
    }
  });
});

describe('a grown document whose server ignores limit', () => {
  it('fails at the sequence step that asks for fewer items than it created', async () => {
    server = await startCrudPlantServer({ defect: 'ignores-limit' });
    const report = await verify({
      target: server.url,
      token: 'negative-token',
      spec: 'test/documents/plant-store-grown.yaml',
      generate: 1,
      filter: ['sequence'],
    });
    expect(report.outcome).toBe('failed');
    const step = report.cases[0].steps.at(-1)!;
    expect(step.name).toBe('limit-honoured');
    expect(step.findings).toContainEqual(
      expect.objectContaining({
        code: 'limit-ignored',
        message: 'the list holds 2 items, more than the limit 1 it was asked for',
      }),
    );
  });
});
