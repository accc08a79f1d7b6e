// The Plant Store suite: the plantstore mock (as a user starts it, request log on, to a file), Prism
// 5.16 mocking the same document and a bare node:http plant store (bench/lib/baseline-server.ts: what
// this machine can do at all), and with --against REV the mock of another commit. Each is started a
// few times (start-up: spawn to first create answered), then every scenario loads them all at the
// same time on the server core, so that mock ÷ peer is a ratio of costs per request that the
// machine's drift moves alike; RSS is read after each scenario. Then the example generator against
// json-schema-faker alone (example-rate.ts). Prints tables, ratios and the aims; plant-store.json.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { commitOf, materialize } from '../lib/git-trees.ts';
import { loadAtOnce, oddAnswers, type LoadResult } from '../lib/load.ts';
import type { BenchOptions } from '../lib/options.ts';
import { machineLine, pinned, SERVER_CORE } from '../lib/processes.ts';
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

/** The example generator's rate against json-schema-faker alone, from example-rate.ts on the server core. */
function exampleRate(count: number): string {
  const [command, args] = pinned(SERVER_CORE, process.execPath, [
    join(import.meta.dirname, 'example-rate.ts'),
    `${count}`,
  ]);
  const run = spawnSync(command, args, { encoding: 'utf8' });
  return run.status === 0
    ? run.stdout.trimEnd()
    : `example generator: example-rate.ts failed: ${run.stderr.trim().split('\n').at(-1)}`;
}

export async function runPlantStore(options: BenchOptions, say: (line: string) => void): Promise<boolean> {
  const head = `Plant Store: ${machineLine()}; wrk, ${options.connections} connections shared out, ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s per scenario, every server loaded at the same time`;
  const measured: Measured[] = [];
  try {
    for (const server of servers(options.against)) measured.push(await start(server, options.runs ?? 3, say));
    for (const scenario of SCENARIOS) {
      const loads = await loadAtOnce(measured, scenario, options, options.durationSeconds);
      loads.forEach(
        (load, i) =>
          (measured[i].scenarios[scenario.name] = { ...load, rssBytes: measured[i].running.memory().rssBytes }),
      );
      say(
        `  ${scenario.title}: ${loads.map((l, i) => `${measured[i].server.title} ${int(l.requestsPerSecond)}`).join(', ')} req/s`,
      );
    }
  } finally {
    await Promise.all(measured.map((m) => m.running.stop()));
  }
  const [mock] = measured;
  let saturated = false;
  const rows = SCENARIOS.flatMap((scenario) => {
    const loads = measured.map((m) => m.scenarios[scenario.name]);
    const bound = loads.reduce((sum, l) => sum + l.generatorCpuPercent, 0) >= SATURATED_PERCENT;
    saturated ||= bound;
    return measured.map((m, i) => {
      const l = loads[i];
      const odd = oddAnswers(l);
      return [
        ...[i === 0 ? scenario.title : '', m.server.title, `${int(l.requestsPerSecond)}${bound ? '*' : ''}`],
        ...[ms(l.p50Ms, 2), ms(l.p99Ms, 2), ms(l.serverCpuMicrosPerRequest, 1), int(l.rssBytes / 2 ** 20)],
        i === 0 ? '' : times(ratio(loads[0].requestsPerSecond, l.requestsPerSecond)),
        odd ? `${int(odd)} (${Object.keys(l.statuses).join('/')})` : '',
      ];
    });
  });
  const startup = measured.map((m) => [
    m.server.title,
    int(median(m.startupMs)),
    m.startupMs.map((n) => int(n)).join(', '),
  ]);
  const valid = (i: number) => measured[i]?.scenarios.valid;
  const aim = (what: string, measuredText: string, ok: boolean) =>
    `  ${ok ? 'met ' : 'MISS'}  ${what}: ${measuredText}`;
  const vsPrism = ratio(valid(0).requestsPerSecond, valid(1).requestsPerSecond) ?? 0;
  const vsBaseline = ratio(valid(0).requestsPerSecond, valid(2).requestsPerSecond) ?? 0;
  const mockStartup = median(mock.startupMs) ?? Infinity;
  const notes = [
    "  req/s while the servers shared one core (each about 1/n of its rate alone); cpu us: the server's CPU time per answer.",
    "  RSS after the scenario (one process per server takes them all); x: plantstore mock req/s over that row's; odd: other statuses, errors, timeouts.",
    ...(valid(1)?.statuses['400'] && SCENARIOS.some((s) => s.name === 'valid-int64')
      ? [
          '  Prism 5.16 refuses ids past 2^53 with 400 (its int64 check stops at 2^53): its int64 row measures refusals.',
        ]
      : []),
    ...(saturated
      ? [`  *: the wrk processes together used >= ${SATURATED_PERCENT}% of their core: they may have set the pace.`]
      : []),
  ];
  const report = [
    head,
    table(['scenario', 'server', 'req/s', 'p50 ms', 'p99 ms', 'cpu us', 'RSS MB', 'mock ÷ it', 'odd'], rows, 2),
    ...notes,
    '',
    table(['start-up, spawn to first create answered', 'median ms', 'samples ms'], startup),
    '',
    'aims (informative; figures from this run):',
    aim('valid creates >= 10x Prism', times(vsPrism), vsPrism >= 10),
    aim('valid creates >= 0.75x the bare node:http store', times(vsBaseline), vsBaseline >= 0.75),
    aim('valid creates p99 <= 5 ms (sharing its core)', `${ms(valid(0).p99Ms, 2)} ms`, valid(0).p99Ms <= 5),
    aim(
      'RSS after every scenario <= 150 MB',
      `${int(Math.max(...Object.values(mock.scenarios).map((s) => s.rssBytes)) / 2 ** 20)} MB`,
      Object.values(mock.scenarios).every((s) => s.rssBytes <= 150 * 2 ** 20),
    ),
    aim('start-up <= 350 ms', `${int(mockStartup)} ms`, mockStartup <= 350),
    '',
    exampleRate(options.quick ? 10_000 : 100_000),
  ];
  const figures = Object.fromEntries(
    measured.map((m) => [m.server.title, { startupMs: m.startupMs, scenarios: m.scenarios }]),
  );
  process.stdout.write(`\n${report.join('\n')}\n${writeResults('plant-store', { head, servers: figures })}\n`);
  return true;
}
