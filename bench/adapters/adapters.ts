// The HTTP layer's decision, measured again (`npm run bench -- --adapters`): the mock of 9ce56d0^
// (its own HTTP/1.1 layer on node:net), of 9ce56d0 (the thin node:http adapter that replaced it)
// and of this checkout, each from its own tree (trees.ts), loaded at the same time
// (bench/lib/compare.ts), so that the ratio of two rates is the ratio of their costs per request.
// The bar: keep the own layer only if it answers at least 2x the adapter's valid creates.
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { adapterTrees, HistoryMissing } from './trees.ts';
import type { BenchOptions } from '../lib/options.ts';
import { compareAtOnce } from '../lib/compare.ts';
import { oddAnswers as odd, type LoadResult } from '../lib/load.ts';
import { LOAD_CORE, pinningUnavailable, SERVER_CORE } from '../lib/processes.ts';
import { SATURATED_PERCENT, table } from '../lib/table.ts';
import { scenario, type ScenarioName } from '../lib/scenarios.ts';
import { mockCommand, RESULTS, ROOT } from '../lib/server.ts';

/** The own layer had to answer at least this many times the adapter's valid creates to stay. */
export const BAR = 2;

const SCENARIOS = (['valid', 'invalid-body', 'missing-token'] as const satisfies ScenarioName[]).map(scenario);

export type MockName = 'ownLayer' | 'adapter' | 'today';

export interface AdaptersReport {
  /** Column titles, with the commit each tree was taken from. */
  titles: Record<MockName, string>;
  settings: Pick<BenchOptions, 'generator' | 'connections' | 'warmupSeconds' | 'durationSeconds'> & { pinning: string };
  loadAverage: { before: number[]; after: number[] };
  /** Per scenario, the three loads measured at the same time. */
  scenarios: Partial<Record<ScenarioName, Record<MockName, LoadResult>>>;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const times = (n: number) => (Number.isFinite(n) ? `${n.toFixed(2)}x` : '-');

/** Loads too short to judge by: the node:http mocks may still be warming up in the first scenario. */
const short = (settings: AdaptersReport['settings']) => settings.warmupSeconds < 2 || settings.durationSeconds < 5;

/**
 * The verdict line for the own layer ÷ adapter ratio on valid creates (undefined: not measured), from loads long
 * enough or `short`.
 */
export function adaptersVerdict(ratio: number | undefined, isShort = false): string {
  if (ratio === undefined || !Number.isFinite(ratio))
    return 'no verdict: valid creates were not measured on both adapters';
  if (isShort)
    return `no verdict from short loads (${times(ratio)}): run it with the default 2 s warm-up and 5 s, or longer`;
  return ratio < BAR
    ? `under ${BAR}x: node:http kept`
    : `${BAR}x or more: by issue 20's bar the own layer would have been kept (and made safe)`;
}

/** The own layer's valid creates over the adapter's, from the same loads, when measured. */
export function validRatio(report: AdaptersReport): number | undefined {
  const valid = report.scenarios.valid;
  return valid && valid.adapter.requestsPerSecond > 0
    ? valid.ownLayer.requestsPerSecond / valid.adapter.requestsPerSecond
    : undefined;
}

export function formatAdapters(report: AdaptersReport): string {
  const { settings, titles } = report;
  const cell = (load: LoadResult) =>
    `${int(load.requestsPerSecond)} (${load.serverCpuMicrosPerRequest?.toFixed(0) ?? '-'} us)`;
  let saturated = false;
  const rows = SCENARIOS.flatMap((s) => {
    const loads = report.scenarios[s.name];
    if (!loads) return [];
    const bound =
      loads.ownLayer.generatorCpuPercent + loads.adapter.generatorCpuPercent + loads.today.generatorCpuPercent >=
      SATURATED_PERCENT;
    saturated ||= bound;
    const over = (name: MockName) => loads[name].requestsPerSecond / loads.adapter.requestsPerSecond;
    const strange = odd(loads.ownLayer) + odd(loads.adapter) + odd(loads.today);
    return [
      [
        s.title,
        cell(loads.ownLayer),
        cell(loads.adapter),
        cell(loads.today),
        `${times(over('ownLayer'))}${bound ? '*' : ' '}`,
        times(over('today')),
        strange ? int(strange) : '',
      ],
    ];
  });
  const ratio = validRatio(report);
  const connections = Math.max(1, Math.floor(settings.connections / 3));
  return [
    `adapters (issue 20): three mocks (--quiet) loaded at the same time ${settings.pinning}, ${connections} connections each from its own ${settings.generator}, ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured per scenario; load average ${report.loadAverage.before[0].toFixed(2)} before, ${report.loadAverage.after[0]?.toFixed(2) ?? '-'} after`,
    table(
      [
        'scenario',
        `${titles.ownLayer} req/s`,
        `${titles.adapter} req/s`,
        `${titles.today} req/s`,
        'own ÷ adapter',
        'today ÷ adapter',
        'odd',
      ],
      rows,
      1,
    ),
    '  req/s while the three shared the core (each about a third of its rate alone), with its CPU time per answer; the ratios are cost ratios, which the drift moves alike.',
    ...(short(settings)
      ? [
          '  short loads: the first scenario can catch the node:http mocks still warming up (docs/performance.md §5: --quick runs minutes apart disagree).',
        ]
      : []),
    ...(saturated
      ? [
          `  *: the three load generators together used >= ${SATURATED_PERCENT}% of their core: they may have set the pace, pulling the ratios toward 1.`,
        ]
      : []),
    `issue 20's bar: keep the own layer only if it answers >= ${BAR}x the node:http adapter's valid creates: ${ratio === undefined ? 'not measured' : times(ratio)}`,
    `verdict: ${adaptersVerdict(ratio, short(settings))}`,
  ].join('\n');
}

/** Runs the adapters suite; its exit code: 0, 1 when the harness failed, 2 without the git history. */
export async function runAdaptersBench(options: BenchOptions, say: (line: string) => void): Promise<number> {
  let trees;
  try {
    trees = adapterTrees(ROOT);
  } catch (error) {
    say(`bench: ${(error as Error).message}`);
    return error instanceof HistoryMissing ? 2 : 1;
  }
  for (const note of trees.notes) say(`bench: note: ${note}`);
  const names: MockName[] = ['ownLayer', 'adapter', 'today'];
  const titles: Record<MockName, string> = {
    ownLayer: `own layer ${trees.ownLayer.commit.slice(0, 7)}`,
    adapter: `node:http ${trees.adapter.commit.slice(0, 7)}`,
    today: 'this checkout',
  };
  const roots: Record<MockName, string> = { ownLayer: trees.ownLayer.root, adapter: trees.adapter.root, today: ROOT };
  const report: AdaptersReport = {
    titles,
    settings: {
      generator: options.generator,
      connections: options.connections,
      warmupSeconds: options.warmupSeconds,
      durationSeconds: options.durationSeconds,
      pinning: pinningUnavailable
        ? `unpinned (${pinningUnavailable})`
        : `on core ${SERVER_CORE}, the generators on core ${LOAD_CORE}`,
    },
    loadAverage: { before: loadavg(), after: [] },
    scenarios: {},
  };
  let failed = false;
  try {
    // As a user starts it (the command, its #! line's flags), without the request log: the HTTP
    // layer is then a larger share of each answer, which can only widen the gap between them.
    const mocks = names.map((name) => mockCommand(titles[name], ['--quiet'], roots[name]));
    const loads = await compareAtOnce(mocks, SCENARIOS, options, 'adapters', say);
    for (const [i, s] of SCENARIOS.entries())
      report.scenarios[s.name] = Object.fromEntries(names.map((name, k) => [name, loads[i][k]])) as Record<
        MockName,
        LoadResult
      >;
  } catch (error) {
    say(`bench: the adapters suite stopped: ${(error as Error).message}`);
    failed = true;
  }
  report.loadAverage.after = loadavg();
  process.stdout.write(`\n${formatAdapters(report)}\n`);
  writeFileSync(join(RESULTS, 'adapters.json'), `${JSON.stringify(report, null, 2)}\n`);
  return failed ? 1 : 0;
}
