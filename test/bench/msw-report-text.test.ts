// The MSW part's report puts plantstore beside @mswjs/source with their ratio, says they do not do
// the same work, and prints a failure as a result instead of a figure.
import { describe, expect, it } from 'vitest';
import { formatMswReport, type MswReport } from '../../bench/msw/report-text.ts';

const report: MswReport = {
  startedAt: '2026-11-25T12:00:00.000Z',
  wallSeconds: 42,
  machine: { cores: 2, node: 'v24.21.0', loadAverageBefore: [1, 1, 1], loadAverageAfter: [2, 2, 2] },
  settings: { runs: 3, warmupSeconds: 1, seconds: 2 },
  versions: { msw: '2.15.0', '@mswjs/source': '0.5.0' },
  documents: [
    {
      name: 'Plant Store',
      file: 'openapi/plant-store.yaml',
      request: 'POST /plants, valid create',
      preparedModuleBytes: 20480,
      first: [
        { name: 'plantstore, prepared module', runs: 3, fromStartMs: 300, fromCreateMs: 60, statuses: { 200: 3 } },
        { name: '@mswjs/source fromOpenApi', runs: 3, fromStartMs: 200, fromCreateMs: 20, statuses: { 200: 3 } },
      ],
      steady: [
        { name: 'plantstore', answersPerSecond: 2000, p50Ms: 0.4, p99Ms: 1.2, statuses: { 200: 4000 } },
        { name: '@mswjs/source', answersPerSecond: 4000, p50Ms: 0.2, p99Ms: 0.6, statuses: { 200: 8000 } },
      ],
    },
    {
      name: 'Stripe',
      file: 'api/stripe.com.json',
      request: 'GET /v1/account',
      preparedModuleBytes: 2_500_000,
      first: [
        { name: 'plantstore, prepared module', runs: 3, fromStartMs: 900, fromCreateMs: 400, statuses: { 200: 3 } },
        {
          name: '@mswjs/source fromOpenApi',
          runs: 3,
          statuses: {},
          failed: 'the handlers could not be made: Maximum call stack size exceeded',
        },
      ],
      steady: [
        { name: 'plantstore', answersPerSecond: 1000, p50Ms: 0.9, p99Ms: 3, statuses: { 200: 2000 } },
        {
          name: '@mswjs/source',
          statuses: {},
          failed: 'the handlers could not be made: Maximum call stack size exceeded',
        },
      ],
    },
  ],
  bundle: 'browser bundle: not measured (bench/msw/bundle-size.ts is not in this checkout)',
};
const text = formatMswReport(report);
const lines = text.split('\n');
const rowsOf = (start: string) => lines.filter((line) => line.startsWith(start));

describe('formatMswReport', () => {
  it('says the ratio prices different work, not the same job done faster', () => {
    expect(text).toContain('not like for like');
    expect(text).toContain(
      '@mswjs/source answers an example generated from the response schema without looking at the request',
    );
  });

  it('prints first answers from the start and from the create call, with their ratio', () => {
    expect(rowsOf('plantstore, prepared module')[0]).toMatch(/300\s+60\s+3 x 200$/);
    expect(rowsOf('prepared ÷ @mswjs/source')[0]).toMatch(/1\.50x\s+3\.00x$/);
  });

  it('prints the steady state side by side with the ratio of answers/s, p50 and p99', () => {
    expect(rowsOf('plantstore ÷ @mswjs/source')[0]).toMatch(/0\.50x\s+2\.00x\s+2\.00x$/);
  });

  it('prints a document @mswjs/source cannot load as a result, without ratios', () => {
    expect(rowsOf('@mswjs/source fromOpenApi')[1]).toMatch(
      /-\s+-\s+failed: the handlers could not be made: Maximum call stack size exceeded$/,
    );
    expect(rowsOf('plantstore ÷ @mswjs/source')[1]).toMatch(/-\s+-\s+-$/);
  });

  it('ends with the bundle line, whatever bench/msw/bundle-size.ts said', () => {
    expect(text).toContain(report.bundle);
  });
});
