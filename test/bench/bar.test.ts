// The bar's lines: the paired one judged from the paired valid creates alone (n/a when they were
// not measured); p99 and RSS judged on the mock's figures, with the baseline's beside them.
import { describe, expect, it } from 'vitest';
import { judgeBar } from '../../bench/plant-store/bar.ts';
import type { PairedResult } from '../../bench/plant-store/paired.ts';
import type { ScenarioResult, ServerResult } from '../../bench/plant-store/measure.ts';

const CRITERION = '  paired (same core, same time): valid creates >= 0.75x baseline';
const pairedLine = (paired?: PairedResult) => judgeBar({}, paired).find((line) => line.criterion === CRITERION);
const pair = (plantstore: number, baseline: number): PairedResult => ({
  plantstore,
  baseline,
  ratio: plantstore / baseline,
  seconds: 5,
  generatorCpuPercent: 40,
  odd: 0,
});

describe('judgeBar, paired line', () => {
  it.each([
    [pair(7500, 10000), 'PASS', '0.75x (7,500 / 10,000 req/s)'],
    [pair(6700, 10000), 'MISS', '0.67x (6,700 / 10,000 req/s)'],
    [undefined, 'n/a', 'not measured'],
    [pair(10, 0), 'n/a', 'not measured'],
  ] as const)('judges %o as %s', (paired, verdict, measured) => {
    expect(pairedLine(paired)).toEqual({ criterion: CRITERION, measured, verdict });
  });

  it('sits right under the 0.75x baseline line', () => {
    const criteria = judgeBar({}).map((line) => line.criterion);
    expect(criteria.indexOf(CRITERION)).toBe(criteria.indexOf('valid creates >= 0.75x baseline req/s') + 1);
  });
});

describe('judgeBar, against Prism', () => {
  const valid = (requestsPerSecond: number) =>
    ({
      scenarios: { valid: { requestsPerSecond, p99Ms: 2, rssBytes: 100 * 1024 * 1024, storedAfter: 1000 } },
      startupMs: { median: 200 },
    }) as unknown as ServerResult;
  it.each([
    [6000, 'MISS', 'PASS'],
    [12000, 'PASS', 'PASS'],
    [4000, 'MISS', 'MISS'],
  ] as const)(
    "judges valid creates at %d req/s against Prism's 1,000: 10x %s, issue 20's 5x %s",
    (rate, tenfold, fivefold) => {
      const lines = judgeBar({ plantstore: valid(rate), prism: valid(1000) });
      expect(lines.find((l) => l.criterion === 'valid creates >= 10x Prism req/s')?.verdict).toBe(tenfold);
      expect(lines.find((l) => l.criterion === '  issue 20: valid creates >= 5x Prism req/s')).toEqual({
        criterion: '  issue 20: valid creates >= 5x Prism req/s',
        measured: `${(rate / 1000).toFixed(2)}x`,
        verdict: fivefold,
      });
    },
  );
});

describe('judgeBar, p99 and RSS', () => {
  const valid = (p99Ms: number, rssMb: number, storedAfter: number) => ({
    valid: { p99Ms, rssBytes: rssMb * 1024 * 1024, storedAfter } as ScenarioResult,
  });
  const server = (scenarios: ServerResult['scenarios']) =>
    ({ scenarios, startupMs: { median: 200 } }) as unknown as ServerResult;
  const line = (lines: ReturnType<typeof judgeBar>, start: string) => lines.find((l) => l.criterion.startsWith(start));

  it('judges the mock and shows the baseline of the same run beside it', () => {
    const lines = judgeBar({
      plantstore: server(valid(5.78, 124, 178951)),
      baseline: server(valid(3.97, 171, 272022)),
    });
    expect(line(lines, 'valid creates p99')).toEqual({
      criterion: 'valid creates p99 <= 5 ms',
      measured: '5.78 ms (baseline 3.97 ms)',
      verdict: 'MISS',
    });
    expect(line(lines, 'valid creates RSS')).toEqual({
      criterion: 'valid creates RSS after load <= 150 MB',
      measured: '124 MB (178,951 plants stored; baseline 171 MB)',
      verdict: 'PASS',
    });
  });

  it('judges the mock alone when the baseline was not measured', () => {
    const lines = judgeBar({ plantstore: server(valid(4.1, 151, 299000)) });
    expect(line(lines, 'valid creates p99')).toMatchObject({ measured: '4.10 ms', verdict: 'PASS' });
    expect(line(lines, 'valid creates RSS')).toMatchObject({
      measured: '151 MB (299,000 plants stored)',
      verdict: 'MISS',
    });
  });
});
