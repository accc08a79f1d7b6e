// Issue 20's adapter comparison: the verdict against the 2x bar, the report's ratios, and a clear
// refusal where git has not got the two commits (a shallow clone).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adapterTrees, HistoryMissing } from '../../bench/adapters/trees.ts';
import { adaptersVerdict, formatAdapters, validRatio, type AdaptersReport } from '../../bench/adapters/adapters.ts';
import { loadResult } from '../helpers/load-result.ts';

const load = (requestsPerSecond: number, serverCpuMicrosPerRequest = 30) =>
  loadResult(requestsPerSecond, { serverCpuMicrosPerRequest, cpuSeconds: 0.5, generatorCpuPercent: 10 });

function report(
  own: number,
  adapter: number,
  today: number,
  seconds = { warmupSeconds: 2, durationSeconds: 5 },
): AdaptersReport {
  return {
    titles: { ownLayer: 'own layer 4da330f', adapter: 'node:http 9ce56d0', today: 'this checkout' },
    settings: { generator: 'wrk', connections: 50, ...seconds, pinning: 'on core 1, the generators on core 0' },
    loadAverage: { before: [1.5, 1, 1], after: [2, 1, 1] },
    scenarios: { valid: { ownLayer: load(own, 17), adapter: load(adapter, 30), today: load(today, 31) } },
  };
}

describe('adaptersVerdict', () => {
  it.each([
    [1.52, 'under 2x: node:http kept'],
    [1.999, 'under 2x: node:http kept'],
    [2, "2x or more: by issue 20's bar the own layer would have been kept (and made safe)"],
    [undefined, 'no verdict: valid creates were not measured on both adapters'],
    [Number.NaN, 'no verdict: valid creates were not measured on both adapters'],
  ])('reads %s as %j', (ratio, verdict) => {
    expect(adaptersVerdict(ratio)).toBe(verdict);
  });

  it('gives no verdict from short loads, whichever side of the bar they fell', () => {
    expect(adaptersVerdict(3.26, true)).toBe(
      'no verdict from short loads (3.26x): run it with the default 2 s warm-up and 5 s, or longer',
    );
  });
});

describe('formatAdapters', () => {
  it('prints own layer ÷ adapter and today ÷ adapter per scenario, the bar and the verdict', () => {
    const text = formatAdapters(report(15_000, 10_000, 9_900));
    expect(validRatio(report(15_000, 10_000, 9_900))).toBe(1.5);
    expect(text).toMatch(/^valid creates +15,000 \(17 us\) +10,000 \(30 us\) +9,900 \(31 us\) +1\.50x +0\.99x$/m);
    expect(text).toContain(
      "issue 20's bar: keep the own layer only if it answers >= 2x the node:http adapter's valid creates: 1.50x",
    );
    expect(text.split('\n').at(-1)).toBe('verdict: under 2x: node:http kept');
  });

  it('says so when the loads were too short to judge by', () => {
    const text = formatAdapters(report(30_000, 10_000, 10_000, { warmupSeconds: 1, durationSeconds: 1 }));
    expect(text).toContain('short loads:');
    expect(text.split('\n').at(-1)).toBe(
      'verdict: no verdict from short loads (3.00x): run it with the default 2 s warm-up and 5 s, or longer',
    );
  });
});

describe('adapterTrees', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it.each([
    ['a folder without git', false],
    ['a repository without the two commits (as a shallow clone is)', true],
  ])('refuses %s with one line that says what to do', (_, withGit) => {
    const dir = mkdtempSync(join(tmpdir(), 'plantstore-adapters-test-'));
    dirs.push(dir);
    if (withGit) execFileSync('git', ['init', '--quiet', dir]);
    expect(() => adapterTrees(dir)).toThrow(HistoryMissing);
    expect(() => adapterTrees(dir)).toThrow(
      'the adapters part needs commits 9ce56d0^ and 9ce56d0 from git, and this checkout has not got them (a shallow clone, or no git): run `git fetch --unshallow` and try again',
    );
  });
});
