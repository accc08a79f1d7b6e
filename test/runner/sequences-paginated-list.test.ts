// The list step asks for the largest page the document allows. A page that comes back full may
// be one of several, so the new plant's absence from it is not a failure: the step then only
// checks that the list is valid.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { verify } from '../../src/runner/index.ts';
import { startCrudPlantServer, type CrudPlantServer } from '../fixtures-servers/crud-plant-server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const GROWN = 'test/documents/plant-store-grown.yaml';

let folder: string;
let pagesOfTwo: string;
beforeAll(() => {
  folder = tempDir('plantstore-paginated-');
  const document = parse(readFileSync(GROWN, 'utf8'));
  document.paths['/plants'].get.parameters[0].schema.maximum = 2;
  pagesOfTwo = join(folder, 'grown-limit-max-2.yaml');
  writeFileSync(pagesOfTwo, stringify(document));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let server: CrudPlantServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function listStep(spec: string, options: Parameters<typeof startCrudPlantServer>[0]) {
  server = await startCrudPlantServer(options);
  const report = await verify({ target: server.url, token: 'paginated-token', spec, generate: 1, filter: ['sequence'] });
  return { report, step: report.cases[0].steps.find((s) => s.name === 'find-in-list')! };
}

describe('the list step of a sequence', () => {
  it('asks for the declared maximum limit', async () => {
    const { step } = await listStep(pagesOfTwo, { seeded: 3 });
    expect(step.request!.query).toBe('limit=2');
  });

  it('asks for 1000 when the limit declares no maximum, and finds the plant among the others', async () => {
    const { report, step } = await listStep(GROWN, { seeded: 3 });
    expect(step.request!.query).toBe('limit=1000');
    expect((step.response!.body as unknown[]).length).toBe(4);
    expect(report.outcome).toBe('passed');
  });

  it('passes a full page without the new plant: it may be on a later page', async () => {
    const { report, step } = await listStep(pagesOfTwo, { seeded: 3 });
    expect(step.response!.body).toEqual([{ name: 'seeded 1' }, { name: 'seeded 2' }]);
    expect(step.findings).toEqual([]);
    expect(report.outcome).toBe('passed');
  });

  it('fails a page shorter than the limit without the new plant: that is the whole list', async () => {
    const { report, step } = await listStep(pagesOfTwo, { seeded: 1, defect: 'hides-from-list' });
    expect(step.response!.body).toEqual([{ name: 'seeded 1' }]);
    expect(step.findings.map((f) => f.code)).toEqual(['not-in-list']);
    expect(report.outcome).toBe('failed');
  });
});
