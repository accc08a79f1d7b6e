// What a proxy costs (`npm run bench -- --proxy-only`): `plantstore proxy` and `prism proxy` in front
// of the same fast upstream (the bare node:http Plant Store), beside the upstream alone and a bare
// node:http + undici pass-through (the floor: what is left above it is what judging the contract
// costs). Valid creates with fresh ids, so every exchange is checked both ways: latency with one
// connection (what a proxy adds to one request, p50 and p99), then throughput with many. Rounds
// are interleaved and each figure is the median: every target meets the machine's drift alike.
import { warmAndMeasure } from '../lib/load.ts';
import type { BenchOptions } from '../lib/options.ts';
import { scenario } from '../lib/scenarios.ts';
import { benchServer, PLANT_STORE, prismCli, ROOT, startServer, type RunningServer } from '../lib/server.ts';
import { int, median } from '../lib/table.ts';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

interface Figures {
  p50: number;
  p99: number;
  requestsPerSecond: number;
  statuses: Record<string, number>;
}

/** The proxy suite; its exit code (0 unless the harness itself fails). */
export async function runProxyBench(options: BenchOptions, say: (line: string) => void): Promise<number> {
  const { connections, durationSeconds: seconds, rounds } = options;
  const logFile = (title: string) => ({
    logFile: join(tmpdir(), `plantstore-bench-${title.replace(/\W+/g, '-')}.log`),
  });
  const started: RunningServer[] = [];
  try {
    const upstream = await startServer(benchServer('upstream', 'baseline-server.ts', []), logFile('upstream'));
    started.push(upstream);
    const proxies = [
      benchServer('bare pass-through', 'passthrough-proxy.ts', ['--upstream', upstream.url]),
      {
        title: 'plantstore proxy',
        asCommand: true,
        args: (port: number) => [
          join(ROOT, 'bin', 'plantstore.js'),
          'proxy',
          ...['--upstream', upstream.url, '--port', String(port), '--quiet'],
        ],
      },
      {
        title: 'prism proxy 5.16',
        args: (port: number) => [
          prismCli(),
          ...['proxy', PLANT_STORE, upstream.url, '--port', String(port), '--host', '127.0.0.1', '--errors', 'false'],
        ],
      },
    ];
    const targets: [string, RunningServer][] = [['upstream alone', upstream]];
    for (const proxy of proxies) {
      const server = await startServer(proxy, logFile(proxy.title));
      started.push(server);
      targets.push([proxy.title, server]);
    }
    const load = (server: RunningServer, many: number, warmup: number) =>
      warmAndMeasure(
        options.generator,
        { url: server.url, scenario: scenario('valid'), connections: many, seconds },
        warmup,
        server.pid,
      );
    const measured = new Map<string, Figures[]>(targets.map(([name]) => [name, []]));
    for (let round = 1; round <= rounds; round++) {
      say(`bench: proxy round ${round}/${rounds}`);
      for (const [name, server] of targets) {
        const one = await load(server, 1, options.warmupSeconds);
        const many = await load(server, connections, 0);
        const statuses: Record<string, number> = { ...one.statuses };
        for (const [status, n] of Object.entries(many.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
        measured.get(name)!.push({
          p50: one.p50Ms,
          p99: one.p99Ms,
          requestsPerSecond: many.requestsPerSecond,
          statuses,
        });
      }
    }
    const rows = targets.map(([name]): [string, Figures] => {
      const all = measured.get(name)!;
      const of = (pick: (f: Figures) => number) => median(all.map(pick)) ?? Number.NaN;
      const statuses: Record<string, number> = {};
      for (const f of all)
        for (const [status, n] of Object.entries(f.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
      return [
        name,
        { p50: of((f) => f.p50), p99: of((f) => f.p99), requestsPerSecond: of((f) => f.requestsPerSecond), statuses },
      ];
    });
    process.stdout.write(`${formatProxyFigures(rows, options)}\n`);
    return 0;
  } catch (error) {
    say(`bench proxy: ${(error as Error).message}`);
    return 1;
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

function formatProxyFigures(rows: Array<[string, Figures]>, options: BenchOptions): string {
  const [, direct] = rows[0];
  const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : '-').padStart(9);
  const lines = [
    `proxy benchmark: valid creates through each proxy to the same bare node:http upstream; ${options.generator}, latency with 1 connection, throughput with ${options.connections}, ${options.durationSeconds} s each, median of ${options.rounds} interleaved round(s)`,
    `${''.padEnd(20)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'added p50'.padStart(11)}${'added p99'.padStart(11)}${'req/s'.padStart(10)}  statuses`,
  ];
  for (const [name, f] of rows) {
    const added = f === direct ? ['', ''] : [f.p50 - direct.p50, f.p99 - direct.p99].map((n) => `${n.toFixed(3)}`);
    lines.push(
      `${name.padEnd(20)}${ms(f.p50)}${ms(f.p99)}${added[0].padStart(11)}${added[1].padStart(11)}${int(f.requestsPerSecond).padStart(10)}  ${JSON.stringify(f.statuses)}`,
    );
  }
  const [, floor, ours, prism] = rows.map(([, f]) => f);
  if (ours && prism && floor) {
    lines.push(
      `plantstore proxy: ${(ours.p50 - direct.p50).toFixed(3)} ms added at p50 (aim: under 1 ms); ${(ours.requestsPerSecond / prism.requestsPerSecond).toFixed(1)}x the throughput of prism proxy (aim: 10x or more)`,
      `  against the bare pass-through (node:http + undici, no checks): ${(ours.p50 - floor.p50).toFixed(3)} ms more at p50, ${((100 * ours.requestsPerSecond) / floor.requestsPerSecond).toFixed(0)}% of its throughput;`,
      `  the pass-through itself is ${(floor.requestsPerSecond / prism.requestsPerSecond).toFixed(1)}x prism proxy (every proxy here shares its core with the upstream, so no proxy can pass the upstream alone)`,
    );
  }
  return lines.join('\n');
}
