// Selecting and scheduling cases: --filter, --bail, --concurrency, --seed; and the usage errors
// that stop a run before any request.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PlantstoreError } from '../../src/errors.ts';
import { verify } from '../../src/runner/index.ts';
import { startPlantServer, type PlantServer } from '../fixtures-servers/plant-server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

let server: PlantServer;
let broken: PlantServer;
beforeAll(async () => {
  server = await startPlantServer();
  broken = await startPlantServer('validation-not-enforced');
});
afterAll(async () => {
  await server.close();
  await broken.close();
});

const usageError = async (run: Promise<unknown>) => {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlantstoreError);
  return error as PlantstoreError;
};

describe('running cases', () => {
  it('runs only the cases --filter selects, by name or id', async () => {
    const report = await verify({ target: server.url, token: 't', filter: ['int64', 'DUPLICATE'] });
    expect(report.cases.map((c) => c.source)).toEqual(expect.arrayContaining(['fixtures/plant-store/int64.yaml']));
    expect(
      report.cases.every(
        (c) => c.id.includes('int64') || c.name.toLowerCase().includes('duplicate') || c.name.includes('same id'),
      ),
    ).toBe(true);
    expect(report.cases.length).toBeGreaterThan(1);
  });

  it('stops starting cases after the first failure with --bail and reports the rest as skipped', async () => {
    const report = await verify({ target: broken.url, token: 't', bail: true });
    expect(report.summary.failed).toBe(1);
    expect(report.summary.skipped).toBe(report.summary.total - report.summary.failed - report.summary.passed);
    expect(report.summary.skipped).toBeGreaterThan(0);
    expect(report.cases.find((c) => c.status === 'skipped')!.skipReason).toContain('--bail');
  });

  it('gives the same results in the same order with --concurrency 8', async () => {
    const serial = await verify({ target: server.url, token: 't' });
    const parallel = await verify({ target: server.url, token: 't', concurrency: 8 });
    expect(parallel.cases.map((c) => [c.id, c.status])).toEqual(serial.cases.map((c) => [c.id, c.status]));
  });

  it('builds the same generated cases from the same seed, and others from another seed', async () => {
    const bodies = async (seed: number) => {
      const report = await verify({
        target: server.url,
        token: 't',
        fixtures: [],
        generate: 4,
        seed,
        uniqueIdBase: 1000n,
      });
      return report.cases.map((c) => [c.name, c.steps[0].request!.body]);
    };
    const first = await bodies(21);
    expect(await bodies(21)).toEqual(first);
    expect(await bodies(22)).not.toEqual(first);
  });

  it("gives every case its own {{uniqueId}}, above the last run's", async () => {
    const ids = async () =>
      (await verify({ target: server.url, token: 't', filter: ['creates a plant'] })).cases.map((c) =>
        BigInt((c.steps[0].request!.body as { id: bigint }).id),
      );
    // The base is the clock in ms: the second run is a millisecond later on a faked Date.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const first = await ids();
      vi.setSystemTime(Date.now() + 1);
      const second = await ids();
      expect(new Set(first).size).toBe(first.length);
      expect(second.every((id) => first.every((old) => id > old))).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("adds --header values to every request; a fixture's own headers win", async () => {
    const report = await verify({
      target: server.url,
      token: 't',
      filter: ['without a token', 'with a tag'],
      headers: { 'x-run': 'ci', authorization: 'Bearer from-flag' },
    });
    expect(report.cases.every((c) => c.steps[0].request!.headers['x-run'] === 'ci')).toBe(true);
    expect(report.cases.find((c) => c.name.includes('with a tag'))!.steps[0].request!.headers.authorization).toBe(
      'Bearer [redacted]',
    );
  });
});

describe('usage and configuration errors', () => {
  it('asks for a token when a case uses {{token}}', async () => {
    const error = await usageError(verify({ target: server.url }));
    expect(error.code).toBe('USAGE');
    expect(error.message).toContain('{{token}}');
  });

  it('rejects a target that is not an http(s) URL', async () => {
    expect((await usageError(verify({ target: 'ftp://example.com', token: 't' }))).message).toContain('http://');
    expect((await usageError(verify({ target: 'localhost:4010', token: 't' }))).code).toBe('USAGE');
  });

  it('rejects a --filter that matches nothing, naming some cases', async () => {
    expect((await usageError(verify({ target: server.url, token: 't', filter: ['no such case'] }))).message).toContain(
      'no case matches',
    );
  });

  it('has nothing to run with another document and neither fixtures nor --generate', async () => {
    expect(
      (await usageError(verify({ target: server.url, spec: 'test/documents/plant-store-3.0.json' }))).message,
    ).toContain('nothing to run');
  });

  it('fails on an unreadable --ca file', async () => {
    expect((await usageError(verify({ target: server.url, token: 't', ca: '/no/such/ca.pem' }))).message).toContain(
      '--ca',
    );
  });

  it('reports a malformed fixture file as FIXTURE_INVALID before sending anything', async () => {
    const dir = tempDir('plantstore-bad-');
    writeFileSync(join(dir, 'bad.yaml'), 'name: x\nrequest: {method: POST, path: /plants}\nexpect: {status: 700}\n');
    const error = await usageError(verify({ target: server.url, token: 't', fixtures: [dir] }));
    expect(error.code).toBe('FIXTURE_INVALID');
    expect(error.details[0]).toMatch(/bad\.yaml:3:\d+: \/expect\/status/);
  });
});
