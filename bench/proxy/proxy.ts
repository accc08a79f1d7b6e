// The proxy suite: valid creates through `plantstore proxy`, `prism proxy` and a bare node:http + undici
// pass-through (the floor) to one bare upstream, and to the upstream alone: added latency with one
// connection, throughput with many. The targets share the upstream, so they take turns, in --runs
// interleaved rounds (medians).
import { join } from 'node:path';
import { oddAnswers, warmAndMeasure } from '../lib/load.ts';
import type { BenchOptions } from '../lib/options.ts';
import { machineLine } from '../lib/processes.ts';
import { int, median, ms, table, times, writeResults } from '../lib/report.ts';
import { scenario } from '../lib/scenarios.ts';
import { benchServer, LOGS, PLANT_STORE, prismCli, ROOT, startServer, type RunningServer } from '../lib/server.ts';

export async function runProxy(options: BenchOptions, say: (line: string) => void): Promise<void> {
  const rounds = options.runs ?? 3;
  const machine = machineLine(); // the load as the suite starts
  const log = (title: string) => ({ logFile: join(LOGS, `proxy-${title.replace(/\W+/g, '-')}.log`) });
  const started: [string, RunningServer][] = [];
  const figures = new Map<string, { p50: number; p99: number; rps: number; cpu?: number; odd: number }[]>();
  try {
    const upstream = await startServer(benchServer('upstream', 'baseline-server.ts', []), log('upstream'));
    started.push(['upstream alone', upstream]);
    const bin = join(ROOT, 'bin', 'plantstore.js');
    const ours = (port: number) => [bin, 'proxy', '--upstream', upstream.url, '--port', `${port}`, '--quiet'];
    const prism = (port: number) => [prismCli(), 'proxy', PLANT_STORE, upstream.url, '--port', `${port}`];
    const proxies = [
      benchServer('bare pass-through', 'passthrough-proxy.ts', ['--upstream', upstream.url]),
      { title: 'plantstore proxy', asCommand: true, args: ours },
      {
        title: 'prism proxy 5.16',
        args: (port: number) => [...prism(port), '--host', '127.0.0.1', '--errors', 'false'],
      },
    ];
    for (const proxy of proxies) started.push([proxy.title, await startServer(proxy, log(proxy.title))]);
    const plan = { scenario: scenario('valid'), seconds: options.durationSeconds };
    const load = ({ url, pid }: RunningServer, connections: number, warmup: number) =>
      warmAndMeasure(options.generator, { ...plan, url, connections }, warmup, pid);
    for (let round = 1; round <= rounds; round++) {
      say(`bench: proxy round ${round}/${rounds}`);
      for (const [title, server] of started) {
        const one = await load(server, 1, options.warmupSeconds);
        const many = await load(server, options.connections, 0);
        const [odd, cpu] = [oddAnswers(one) + oddAnswers(many), many.serverCpuMicrosPerRequest];
        figures.set(title, [
          ...(figures.get(title) ?? []),
          { p50: one.p50Ms, p99: one.p99Ms, rps: many.requestsPerSecond, cpu, odd },
        ]);
      }
    }
  } finally {
    await Promise.all(started.map(([, server]) => server.stop()));
  }
  const [direct, floor, ours, prism] = started.map(([title]) => {
    const all = figures.get(title)!;
    const of = (key: 'p50' | 'p99' | 'rps' | 'cpu') => median(all.map((f) => f[key])) ?? NaN;
    const odd = all.reduce((n, f) => n + f.odd, 0);
    return { title, p50: of('p50'), p99: of('p99'), rps: of('rps'), cpu: of('cpu'), odd };
  });
  const added = (t: typeof direct, key: 'p50' | 'p99') => (t === direct ? '' : ms(t[key] - direct[key], 3));
  const rows = [direct, floor, ours, prism].map((t) => [
    ...[t.title, ms(t.p50, 3), ms(t.p99, 3), added(t, 'p50'), added(t, 'p99')],
    ...[int(t.rps), times(ours.rps / t.rps), ms(t.cpu), times(t.cpu / ours.cpu), `${t.odd}`],
  ]);
  const text = [
    `\nproxy: ${machine}; valid creates through each proxy to the same upstream; wrk, latency with 1 connection, throughput with ${options.connections}, ${options.durationSeconds} s each, median of ${rounds} interleaved round(s)`,
    table('target|p50 ms|p99 ms|added p50|added p99|req/s|plantstore ÷ it|cpu us|it ÷ plantstore, cpu|odd', rows),
    `plantstore proxy: ${added(ours, 'p50')} ms added at p50 (aim: under 1 ms); ${times(ours.rps / prism.rps)} prism proxy's throughput, which costs ${times(prism.cpu / ours.cpu)} its CPU per exchange (aim: 10x);`,
    `  ${ms(ours.p50 - floor.p50, 3)} ms more than the bare pass-through at p50, ${times(ours.rps / floor.rps)} its throughput (each proxy shares its core with the upstream)`,
  ];
  process.stdout.write(`${text.join('\n')}\n${writeResults('proxy', { rounds: Object.fromEntries(figures) })}\n`);
}
