// A correct Plant Store server written independently of the mock passes the shipped fixtures
// and the generated cases.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { verify } from '../../src/runner/index.ts';
import { startPlantServer, type PlantServer } from '../fixtures-servers/plant-server.ts';

let server: PlantServer;
beforeAll(async () => {
  server = await startPlantServer();
});
afterAll(() => server.close());

it('passes a correct server written independently of the mock', async () => {
  const report = await verify({
    target: server.url,
    token: 'independent-token',
    generate: 10,
    seed: 3,
    concurrency: 4,
  });
  const failed = report.cases.filter((c) => c.status !== 'passed');
  expect(
    failed.map((c) => `${c.name}: ${c.steps.flatMap((s) => s.findings.map((f) => f.message)).join('; ')}`),
  ).toEqual([]);
  expect(report.summary.passed).toBe(report.summary.total);
});
