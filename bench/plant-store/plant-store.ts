// The Plant Store suite: the plantstore mock (as a user starts it, request log on), Prism 5.16 on the
// same document, a bare node:http store (what this machine can do at all) and, with --against REV,
// the mock of another commit: start-up (spawn to first create answered), then each scenario loading
// them all at the same time on one core (rates, CPU per answer, RSS), and the mock's ratios to each.
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
  const prism = (port: number) => [prismCli(), 'mock', PLANT_STORE, '--port', `${port}`, '--host', '127.0.0.1'];
  const list = [
    mockCommand('plantstore mock'),
    { title: 'Prism 5.16', args: prism },
    benchServer('bare node:http', 'baseline-server.ts', []),
  ];
  if (against === undefined) return list;
  const commit = commitOf(ROOT, against);
  if (!commit) throw new Error(`--against ${against}: no such commit here (a shallow clone? git fetch --unshallow)`);
  const tree = materialize(ROOT, commit, join(ROOT, 'node_modules'));
  return [...list, mockCommand(`mock at ${commit.slice(0, 7)}`, [], tree)];
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
  const rate = (peer: LoadResult) => times(ratio(mock.requestsPerSecond, peer.requestsPerSecond));
  const cost = (peer: LoadResult) => times(ratio(peer.serverCpuMicrosPerRequest, mock.serverCpuMicrosPerRequest));
  const prismInt64 = measured[1].scenarios['valid-int64'].statuses['400'];
  const report = [
    head,
    table('scenario|server|req/s|p50 ms|p99 ms|cpu us|RSS MB|mock ÷ it, req/s|it ÷ mock, cpu|odd', rows, 2),
    "  req/s while the servers shared one core (each about 1/n of its rate alone); cpu us: the server's CPU time per answer",
    '  (all its threads), its cost whatever the pace; RSS after the scenario; odd: other statuses, errors, timeouts.',
    ...(prismInt64 ? ['  Prism 5.16 refuses ids past 2^53 with 400 (its int64 check stops at 2^53).'] : []),
    ...(saturated
      ? [`  *: the wrk processes used >= ${SATURATED_PERCENT}% of their core: they may have set the pace.`]
      : []),
    '',
    table('start-up, spawn to first create answered|median ms|samples ms', startup),
    `valid creates: ${rate(prism)} Prism's rate at the same time, ${cost(prism)} by cost per answer (aim: 10x);`,
    `  ${rate(baseline)} the bare node:http store's rate, ${cost(baseline)} by cost (aim: 0.75x)`,
  ];
  const figures = measured.map((m) => ({ title: m.server.title, startupMs: m.startupMs, scenarios: m.scenarios }));
  process.stdout.write(`\n${report.join('\n')}\n${writeResults('plant-store', { head, servers: figures })}\n`);
}
