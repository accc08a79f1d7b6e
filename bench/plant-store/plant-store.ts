// The Plant Store suite: the plantstore mock (as a user starts it, request log on, to a file), Prism
// 5.16 mocking the same document and a bare node:http plant store (bench/lib/baseline-server.ts: what
// this machine can do at all), and with --against REV the mock of another commit. Each is started a
// few times (start-up: spawn to first create answered), then every scenario loads them all at the
// same time on the server core, so that mock ÷ peer is a ratio of costs per request that the
// machine's drift moves alike, and each server's CPU time per answer is read beside its rate; RSS
// after each scenario. Prints tables, ratios and the aims.
import { join } from 'node:path';
import { commitOf, materialize } from '../lib/git-trees.ts';
import { loadAtOnce, oddAnswers, type LoadResult } from '../lib/load.ts';
import type { BenchOptions } from '../lib/options.ts';
import { machineLine } from '../lib/processes.ts';
import { int, median, ms, ratio, SATURATED_PERCENT, table, times, writeResults } from '../lib/report.ts';
import { SCENARIOS } from '../lib/scenarios.ts';
import { benchServer, LOGS, mockCommand, PLANT_STORE, prismCli, ROOT, startServer } from '../lib/server.ts';
import type { RunningServer, ServerCommand } from '../lib/server.ts';

interface Measured {
  server: ServerCommand;
  running: RunningServer;
  startupMs: number[];
  scenarios: Record<string, LoadResult & { rssBytes: number }>;
}

/** The servers of this run: the mock first (every ratio is the mock's rate over a peer's). */
function servers(against: string | undefined): ServerCommand[] {
  const list = [
    mockCommand('plantstore mock'),
    {
      title: 'Prism 5.16',
      args: (port: number) => [prismCli(), 'mock', PLANT_STORE, '--port', `${port}`, '--host', '127.0.0.1'],
    },
    benchServer('bare node:http', 'baseline-server.ts', []),
  ];
  if (against === undefined) return list;
  const commit = commitOf(ROOT, against);
  if (!commit) throw new Error(`--against ${against}: no such commit here (a shallow clone? git fetch --unshallow)`);
  return [
    ...list,
    mockCommand(`mock at ${commit.slice(0, 7)}`, [], materialize(ROOT, commit, join(ROOT, 'node_modules'))),
  ];
}

/** Starts `server` `runs` times (the last one stays up): its start-up samples. */
async function start(server: ServerCommand, runs: number, say: (line: string) => void): Promise<Measured> {
  const startupMs: number[] = [];
  const logFile = join(LOGS, `plant-store-${server.title.replace(/\W+/g, '-')}.log`);
  let running: RunningServer | undefined;
  for (let i = 0; i < runs; i++) {
    await running?.stop();
    running = await startServer(server, { logFile });
    startupMs.push(running.startupMs);
  }
  say(`  ${server.title}: start-up ${startupMs.map((n) => int(n)).join(', ')} ms`);
  return { server, running: running!, startupMs, scenarios: {} };
}

export async function runPlantStore(options: BenchOptions, say: (line: string) => void): Promise<void> {
  const head = `Plant Store: ${machineLine()}; wrk, ${options.connections} connections shared out, ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s per scenario, every server loaded at the same time`;
  const measured: Measured[] = [];
  try {
    for (const server of servers(options.against)) measured.push(await start(server, options.runs ?? 3, say));
    for (const scenario of SCENARIOS) {
      const loads = await loadAtOnce(measured, scenario, options, options.durationSeconds);
      for (const [i, load] of loads.entries())
        measured[i].scenarios[scenario.name] = { ...load, rssBytes: measured[i].running.memory().rssBytes };
      say(
        `  ${scenario.title}: ${loads.map((l, i) => `${measured[i].server.title} ${int(l.requestsPerSecond)}`).join(', ')} req/s`,
      );
    }
  } finally {
    await Promise.all(measured.map((m) => m.running.stop()));
  }
  let saturated = false;
  const rows = SCENARIOS.flatMap((scenario) => {
    const loads = measured.map((m) => m.scenarios[scenario.name]);
    const bound = loads.reduce((sum, l) => sum + l.generatorCpuPercent, 0) >= SATURATED_PERCENT;
    saturated ||= bound;
    return loads.map((l, i) => [
      ...[i === 0 ? scenario.title : '', measured[i].server.title, `${int(l.requestsPerSecond)}${bound ? '*' : ''}`],
      ...[ms(l.p50Ms, 2), ms(l.p99Ms, 2), ms(l.serverCpuMicrosPerRequest, 1), int(l.rssBytes / 2 ** 20)],
      i === 0 ? '' : times(ratio(loads[0].requestsPerSecond, l.requestsPerSecond)),
      i === 0 ? '' : times(ratio(l.serverCpuMicrosPerRequest, loads[0].serverCpuMicrosPerRequest)),
      oddAnswers(l) ? `${int(oddAnswers(l))} (${Object.keys(l.statuses).join('/')})` : '',
    ]);
  });
  const startup = measured.map((m) => [m.server.title, int(median(m.startupMs)), m.startupMs.map(int).join(', ')]);
  const [mock, prism, baseline] = measured.map((m) => m.scenarios.valid);
  const aim = (what: string, ok: boolean, figure: string) => `  ${ok ? 'met ' : 'MISS'}  ${what}: ${figure}`;
  const vs = (peer: typeof mock) => [
    ratio(mock.requestsPerSecond, peer.requestsPerSecond) ?? 0,
    ratio(peer.serverCpuMicrosPerRequest, mock.serverCpuMicrosPerRequest) ?? 0,
  ];
  const [[prismRate, prismCost], [baseRate, baseCost]] = [vs(prism), vs(baseline)];
  const rss = Math.max(...Object.values(measured[0].scenarios).map((l) => l.rssBytes)) / 2 ** 20;
  const startupMs = median(measured[0].startupMs) ?? Infinity;
  const report = [
    head,
    table('scenario|server|req/s|p50 ms|p99 ms|cpu us|RSS MB|mock ÷ it, req/s|it ÷ mock, cpu', rows, 2),
    "  req/s while the servers shared one core (each about 1/n of its rate alone); cpu us: the server's CPU time per answer",
    '  (all its threads), its cost whatever the pace; RSS after the scenario; odd: other statuses, errors, timeouts.',
    ...(measured[1].scenarios['valid-int64'].statuses['400']
      ? [
          '  Prism 5.16 refuses ids past 2^53 with 400 (its int64 check stops at 2^53): its int64 row measures refusals.',
        ]
      : []),
    ...(saturated
      ? [`  *: the wrk processes used >= ${SATURATED_PERCENT}% of their core: they may have set the pace.`]
      : []),
    '',
    table('start-up, spawn to first create answered|median ms|samples ms', startup),
    '',
    'aims, valid creates (informative; a busy machine misses the absolute ones):',
    aim(
      '>= 10x Prism by cost per answer',
      prismCost >= 10,
      `${times(prismCost)} (${times(prismRate)} req/s at the same time)`,
    ),
    aim('>= 0.75x a bare node:http store', baseRate >= 0.75, `${times(baseRate)} req/s (${times(baseCost)} by cost)`),
    aim('p99 <= 5 ms, sharing its core', mock.p99Ms <= 5, `${ms(mock.p99Ms, 2)} ms`),
    aim('RSS after every scenario <= 150 MB', rss <= 150, `${int(rss)} MB`),
    aim('start-up <= 350 ms', startupMs <= 350, `${int(startupMs)} ms`),
  ];
  const figures = measured.map((m) => ({ title: m.server.title, startupMs: m.startupMs, scenarios: m.scenarios }));
  process.stdout.write(`\n${report.join('\n')}\n${writeResults('plant-store', { head, servers: figures })}\n`);
}
