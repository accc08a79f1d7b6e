// The paired line of the bar: judged from the paired valid creates alone, n/a when they were not measured.
import { describe, expect, it } from 'vitest';
import { judgeBar } from '../../bench/bar.ts';
import type { PairedResult } from '../../bench/measure-paired.ts';

const CRITERION = '  paired (same core, same time): valid creates >= 0.75x baseline';
const pairedLine = (paired?: PairedResult) => judgeBar({}, paired).find((line) => line.criterion === CRITERION);
const pair = (plantstore: number, baseline: number): PairedResult => ({ plantstore, baseline, ratio: plantstore / baseline, seconds: 5, generatorCpuPercent: 40, odd: 0 });

describe('judgeBar, paired line', () => {
  it.each([
    [pair(7500, 10000), 'PASS', '0.75x (7,500 / 10,000 req/s)'],
    [pair(6700, 10000), 'MISS', '0.67x (6,700 / 10,000 req/s)'],
    [undefined, 'n/a', 'not measured'],
    [pair(10, 0), 'n/a', 'not measured'],
  ] as const)('judges %o as %s', (paired, verdict, measured) => {
    expect(pairedLine(paired)).toEqual({ criterion: CRITERION, measured, verdict });
  });

  it('sits right under the 0.75x baseline line and its CPU view', () => {
    const criteria = judgeBar({}).map((line) => line.criterion);
    expect(criteria.indexOf(CRITERION)).toBe(criteria.indexOf('valid creates >= 0.75x baseline req/s') + 2);
  });
});
