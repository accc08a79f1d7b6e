// The list step asks for a page of 100 (or the declared maximum when smaller). A page that comes
// back full may be one of several: with an `offset` parameter the runner reads the next pages
// until the plant turns up or a page comes back short; without one, the plant's absence from a
// full page is not a failure, and the step only checks that the list is valid.
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
let pagesOfTwoWithOffset: string;
beforeAll(() => {
  folder = tempDir('plantstore-paginated-');
  const document = parse(readFileSync(GROWN, 'utf8'));
  document.paths['/plants'].get.parameters[0].schema.maximum = 2;
  pagesOfTwo = join(folder, 'grown-limit-max-2.yaml');
  writeFileSync(pagesOfTwo, stringify(document));
  document.paths['/plants'].get.parameters.push({
    name: 'offset',
    in: 'query',
    schema: { type: 'integer', minimum: 0 },
  });
  pagesOfTwoWithOffset = join(folder, 'grown-limit-max-2-offset.yaml');
  writeFileSync(pagesOfTwoWithOffset, stringify(document));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let server: CrudPlantServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function listStep(spec: string, options: Parameters<typeof startCrudPlantServer>[0]) {
  server = await startCrudPlantServer(options);
  const report = await verify({
    target: server.url,
    token: 'paginated-token',
    spec,
    generate: 1,
    filter: ['sequence'],
  });
  return { report, step: report.cases[0].steps.find((s) => s.name === 'find-in-list')! };
}

describe('the list step of a sequence', () => {
  it('asks for the declared maximum limit', async () => {
    const { step } = await listStep(pagesOfTwo, { seeded: 3 });
    expect(step.request!.query).toBe('limit=2');
  });

  it('asks for 100 when the limit declares no maximum, and finds the plant among the others', async () => {
    const { report, step } = await listStep(GROWN, { seeded: 3 });
    expect(step.request!.query).toBe('limit=100');
    // The three seeded plants, the sequence's own, and the second one the limit check made.
    expect((step.response!.body as unknown[]).length).toBe(5);
    expect(report.outcome).toBe('passed');
  });

  it('passes a full page without the new plant when the list has no offset: it may be on a later page', async () => {
    const { report, step } = await listStep(pagesOfTwo, { seeded: 3 });
    expect(step.response!.body).toEqual([{ name: 'seeded 1' }, { name: 'seeded 2' }]);
    expect(step.findings).toEqual([]);
    expect(report.outcome).toBe('passed');
  });

  it('pages on with offset until the plant turns up', async () => {
    const { report, step } = await listStep(pagesOfTwoWithOffset, { seeded: 3 });
    expect(server!.requests.filter((r) => r.startsWith('GET /plants?limit=2'))).toEqual([
      'GET /plants?limit=2',
      'GET /plants?limit=2&offset=2',
    ]);
    expect(step.request!.query).toBe('limit=2&offset=2');
    expect(step.response!.body).toEqual([
      { name: 'seeded 3' },
      expect.objectContaining({ name: expect.stringMatching(/^plant \d+$/) }),
    ]);
    expect(step.findings).toEqual([]);
    expect(report.outcome).toBe('passed');
  });

  it('fails when the last page is short and none of the pages held the plant', async () => {
    const { report, step } = await listStep(pagesOfTwoWithOffset, { seeded: 3, defect: 'hides-from-list' });
    expect(step.request!.query).toBe('limit=2&offset=2');
    expect(step.findings.map((f) => f.code)).toEqual(['not-in-list']);
    expect(step.findings[0].message).toMatch(
      /^the list \(page 2: 1 element, fewer than the limit 2, so it is the last page\)/,
    );
    expect(report.outcome).toBe('failed');
  });

  it('fails a page shorter than the limit without the new plant: that is the whole list', async () => {
    const { report, step } = await listStep(pagesOfTwo, { seeded: 1, defect: 'hides-from-list' });
    expect(step.response!.body).toEqual([{ name: 'seeded 1' }]);
    expect(step.findings.map((f) => f.code)).toEqual(['not-in-list']);
    expect(report.outcome).toBe('failed');
  });
});
