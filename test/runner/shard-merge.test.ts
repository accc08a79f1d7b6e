// verify --shard i/n and merge-reports: the shards of a run split its cases without overlap, and
// their merged reports are the whole run's (cases, verdicts, counts). Each shard, like each job of
// a CI matrix, tests its own fresh mock.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { generateCases } from '../../src/runner/generate/generated-cases.ts';
import { mergeReports, verify, writeMerged, type CaseResult, type VerifyReport } from '../../src/runner/index.ts';
import { parseShard, shardPositions, unitOf } from '../../src/runner/shard.ts';
import { createValidators } from '../../src/validation/validator.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { writeFiftyOperations } from './fifty-operations.ts';

const dir = tempDir('plantstore-shards-');
const SPEC = writeFiftyOperations(dir);
const mocks: MockServer[] = [];
afterAll(() => Promise.all(mocks.map((mock) => mock.close())));

async function run(
  seed: number,
  shard?: { index: number; count: number },
): Promise<{ report: VerifyReport; file: string }> {
  const mock = await startMockServer({ port: 0, spec: SPEC });
  mocks.push(mock);
  const file = join(dir, `seed-${seed}-${shard ? `${shard.index}-of-${shard.count}` : 'whole'}.json`);
  const report = await verify({
    target: mock.url,
    spec: SPEC,
    generate: 3,
    seed,
    uniqueIdBase: 1_000_000n,
    shard,
    reporters: [{ name: 'json', file }],
  });
  return { report, file };
}

// What must be equal between the merged run and the whole one: each case and its verdict, step by step.
const verdicts = (cases: CaseResult[]) =>
  cases.map((c) => ({
    id: c.id,
    name: c.name,
    status: c.status,
    failures: c.failures,
    warnings: c.warnings,
    steps: c.steps.map((s) => ({
      request: s.request && `${s.request.method} ${s.request.path}`,
      // A hostile case sends a fixed value (a key of 2^31): whether an earlier create left that
      // item depends on which cases ran before it, so its status may differ; its verdict may not.
      status: c.probe === undefined ? s.response?.status : undefined,
      findings: s.findings.map((f) => f.code),
    })),
  }));

describe('shards of a generated run on a 50-operation document', () => {
  const SEED = 7;
  let whole: { report: VerifyReport; file: string };
  const parts: Array<{ report: VerifyReport; file: string }> = [];
  beforeAll(async () => {
    whole = await run(SEED);
    for (let index = 1; index <= 3; index++) parts.push(await run(SEED, { index, count: 3 }));
  }, 120_000);

  it('covers the 50 operations with hundreds of cases', () => {
    expect(
      new Set(
        whole.report.cases
          .filter(
            (c) =>
              c.source === 'generated' &&
              !c.id.startsWith('generated/sequence/') &&
              !c.id.startsWith('generated/unsupported-method/'),
          )
          .map(unitOf),
      ).size,
    ).toBe(50);
    expect(whole.report.cases.length).toBeGreaterThan(200);
  });

  it('split the cases without overlap, balanced within one unit of work', () => {
    const sizes = parts.map((p) => p.report.cases.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(whole.report.cases.length);
    const ids = parts.flatMap((p) => p.report.cases.map((c) => c.id));
    expect(new Set(ids).size).toBe(ids.length);
    const largestUnit = Math.max(
      ...Object.values(Object.groupBy(whole.report.cases, unitOf)).map((group) => group!.length),
    );
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(largestUnit);
  });

  it('merge into the whole run: the same cases in the same order, the same verdicts and counts', () => {
    const { report } = mergeReports(parts.map((p) => p.file).reverse());
    expect(verdicts(report.cases)).toEqual(verdicts(whole.report.cases));
    expect(report.summary).toEqual(whole.report.summary);
    expect(report.outcome).toBe(whole.report.outcome);
    expect(report.uncovered).toEqual(whole.report.uncovered);
    expect(report.seed).toBe(SEED);
    expect(report.shard).toBeUndefined();
  });

  it('write one JUnit, one JSON and one HTML report of the whole run', () => {
    const out = { junit: join(dir, 'merged.xml'), json: join(dir, 'merged.json'), html: join(dir, 'merged.html') };
    writeMerged(
      mergeReports(parts.map((p) => p.file)),
      (['junit', 'json', 'html'] as const).map((name) => ({ name, file: out[name] })),
    );
    const json = JSON.parse(readFileSync(out.json, 'utf8')) as VerifyReport;
    expect(json.summary).toEqual(whole.report.summary);
    expect(json.cases.map((c) => c.id)).toEqual(whole.report.cases.map((c) => c.id));
    expect(readFileSync(out.junit, 'utf8')).toContain(
      `tests="${whole.report.summary.total + whole.report.uncovered.length}"`,
    );
    expect(readFileSync(out.html, 'utf8')).toContain(`${whole.report.summary.total}`);
  });

  it('refuse a missing shard, a shard given twice, and a whole run, naming the file', () => {
    expect(() => mergeReports([parts[0].file, parts[2].file])).toThrow(/shard 2\/3 is missing: got 1, 3 of 3/);
    expect(() => mergeReports([parts[0].file, parts[1].file, parts[1].file])).toThrow(/shard 2\/3 is given twice/);
    expect(() => mergeReports([whole.file])).toThrow(/is the report of a whole run, not of a shard/);
    expect(() => mergeReports([join(dir, 'nowhere.json')])).toThrow(/cannot read .*nowhere.json: no such file/);
  });

  it('refuse a shard run with another seed, document or plantstore version', () => {
    const altered = (name: string, change: (report: Record<string, unknown>) => void) => {
      const report = JSON.parse(readFileSync(parts[1].file, 'utf8')) as Record<string, unknown>;
      change(report);
      const file = join(dir, name);
      writeFileSync(file, JSON.stringify(report));
      return [parts[0].file, file, parts[2].file];
    };
    expect(() => mergeReports(altered('seed.json', (r) => (r.seed = 8)))).toThrow(
      /seed.json was run with seed 8, .* with seed 7/,
    );
    expect(() => mergeReports(altered('doc.json', (r) => (r.documentHash = '0123456789abcdef')))).toThrow(
      /doc.json was run with the document of hash 0123456789abcdef/,
    );
    expect(() => mergeReports(altered('version.json', (r) => (r.plantstoreVersion = '9.9.9')))).toThrow(
      /version.json was run with plantstore 9.9.9/,
    );
  });
});

describe('the split', () => {
  it.each([1, 2, 5, 42])(
    'with seed %i, puts every case in exactly one of n shards, for n from 1 to 7',
    async (seed) => {
      const spec = await loadSpec(SPEC);
      const { cases } = await generateCases(spec, listOperations(spec), createValidators(spec), {
        count: 2,
        seed,
        auth: {},
      });
      for (let count = 1; count <= 7; count++) {
        const all = Array.from({ length: count }, (_, i) => shardPositions(cases, { index: i + 1, count })).flat();
        expect(all.sort((a, b) => a - b)).toEqual(cases.map((_, position) => position));
      }
    },
  );

  it('keeps each sequence and each operation whole in one shard', async () => {
    const spec = await loadSpec(SPEC);
    const { cases } = await generateCases(spec, listOperations(spec), createValidators(spec), {
      count: 2,
      seed: 3,
      auth: {},
    });
    const owner = new Map<string, number>();
    for (let index = 1; index <= 4; index++)
      for (const position of shardPositions(cases, { index, count: 4 })) {
        const unit = unitOf(cases[position]);
        expect(owner.get(unit) ?? index).toBe(index);
        owner.set(unit, index);
      }
  });

  it.each(['0/3', '4/3', '1', 'a/b', '1/0', '-1/2'])('refuses --shard %s with the form it takes', (text) => {
    expect(() => parseShard(text)).toThrow(/expected i\/n with 1 <= i <= n, e.g. --shard 2\/4/);
  });
});
