// The proxy's figures: `plantstore proxy` and `prism proxy` in front of the same fast upstream (the
// benchmark's bare node:http Plant Store), each measured with autocannon as the upstream alone is:
// latency with one connection (what a proxy adds to one request, p50 and p99), then throughput
// with many, beside a bare node:http + undici pass-through (bench/passthrough-proxy.ts) as the floor.
// Valid creates with fresh ids, so every exchange is validated both ways.
// Run: npm run bench -- --proxy-only [--duration S] [--rounds N] [--connections N] [--quick]   (or node bench/proxy.ts)
// autocannon runs in this process (the servers are pinned to their core where taskset exists).
// A benchmark, not a test: it prints figures and ratios measured in the same run, asserts nothing.
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startServer, type RunningServer } from './server-process.ts';
import { ROOT, type ServerDefinition } from './servers.ts';

const DOCUMENT = join(ROOT, 'openapi', 'plant-store.yaml');

interface Figures {
  p50: number;
  p99: number;
  requestsPerSecond: number;
  statuses: Record<string, number>;
}

let nextId = 1;

/**
 * One load: valid creates with fresh ids over `connections` keep-alive connections; every latency kept (autocannon's
 * histogram has 1 ms steps).
 */
function load(
  url: string,
  connections: number,
  seconds: number,
): Promise<{ latencies: number[]; statuses: Record<string, number>; seconds: number }> {
  const headers = { authorization: 'Bearer bench-token', 'content-type': 'application/json' };
  const requests = [
    {
      method: 'POST',
      path: '/plants',
      headers,
      setupRequest: (request: object) => ({ ...request, body: `{"id":${nextId++},"name":"Fern","tag":"bench"}` }),
    },
  ];
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    const started = performance.now();
    const instance = autocannon({ url, connections, duration: seconds, timeout: 10, requests }, (error) => {
      if (error) reject(error);
      else resolve({ latencies, statuses, seconds: (performance.now() - started) / 1000 });
    });
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      latencies.push(ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

async function measure(url: string, connections: number, seconds: number): Promise<Figures> {
  await load(url, connections, Math.min(1, seconds)); // warm-up: JIT, pools, compiled schemas
  const latency = await load(url, 1, seconds);
  const many = await load(url, connections, seconds);
  const sorted = latency.latencies.sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const result of [latency, many])
    for (const [status, n] of Object.entries(result.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    requestsPerSecond: many.latencies.length / many.seconds,
    statuses,
  };
}

/** Runs the proxy part; the exit code (0 unless the harness itself fails). */
export async function runProxyBench(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string', default: '3' },
      rounds: { type: 'string', default: '3' },
      connections: { type: 'string', default: '16' },
      quick: { type: 'boolean', default: false },
    },
    strict: false,
  });
  const seconds = values.quick ? 1 : Number(values.duration);
  const connections = Number(values.connections);
  const rounds = values.quick ? 1 : Number(values.rounds);
  if (!(seconds > 0) || !Number.isInteger(connections) || connections < 1 || !Number.isInteger(rounds) || rounds < 1) {
    process.stderr.write(
      `bench proxy: --duration must be seconds above 0, --connections and --rounds whole numbers of 1 or more\n`,
    );
    return 2;
  }
  const logs = tmpdir();
  const started: RunningServer[] = [];
  try {
    const upstream = await startServer(
      {
        title: 'bare node:http upstream',
        args: (port) => [join(ROOT, 'bench', 'baseline-server.ts'), '--port', String(port)],
      },
      { logFile: join(logs, 'plantstore-bench-upstream.log') },
    );
    started.push(upstream);
    const proxies: ServerDefinition[] = [
      {
        name: 'baseline',
        title: 'bare pass-through',
        stateful: true,
        args: (port) => [
          join(ROOT, 'bench', 'passthrough-proxy.ts'),
          '--upstream',
          upstream.url,
          '--port',
          String(port),
        ],
      },
      {
        name: 'plantstore',
        title: 'plantstore proxy',
        stateful: true,
        asCommand: true,
        args: (port) => [
          join(ROOT, 'bin', 'plantstore.js'),
          'proxy',
          '--upstream',
          upstream.url,
          '--port',
          String(port),
          '--quiet',
        ],
      },
      {
        name: 'prism',
        title: 'prism proxy 5.16',
        stateful: true,
        args: (port) => [
          createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js'),
          'proxy',
          DOCUMENT,
          upstream.url,
          '--port',
          String(port),
          '--host',
          '127.0.0.1',
          '--errors',
          'false',
        ],
      },
    ];
    const targets: Array<[string, string]> = [['upstream alone', upstream.url]];
    for (const definition of proxies) {
      const server = await startServer(definition, {
        logFile: join(logs, `plantstore-bench-${definition.title.replace(/\W+/g, '-')}.log`),
      });
      started.push(server);
      targets.push([definition.title, server.url]);
    }
    // Interleaved rounds, the median of each figure: the machine's load drifts over a run, and
    // every target then meets the same drift.
    const measured = new Map<string, Figures[]>(targets.map(([name]) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      for (const [name, url] of targets) measured.get(name)!.push(await measure(url, connections, seconds));
    }
    const rows: Array<[string, Figures]> = targets.map(([name]) => [name, medianFigures(measured.get(name)!)]);
    process.stdout.write(`${formatProxyFigures(rows, connections, seconds, rounds)}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`bench proxy: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

function medianFigures(all: Figures[]): Figures {
  const median = (pick: (f: Figures) => number) => all.map(pick).sort((a, b) => a - b)[Math.floor(all.length / 2)];
  const statuses: Record<string, number> = {};
  for (const f of all)
    for (const [status, n] of Object.entries(f.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  return {
    p50: median((f) => f.p50),
    p99: median((f) => f.p99),
    requestsPerSecond: median((f) => f.requestsPerSecond),
    statuses,
  };
}

function formatProxyFigures(
  rows: Array<[string, Figures]>,
  connections: number,
  seconds: number,
  rounds: number,
): string {
  const [, direct] = rows[0];
  const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : '-').padStart(9);
  const lines = [
    `proxy benchmark: valid creates through each proxy to the same bare node:http upstream; autocannon, latency with 1 connection, throughput with ${connections}, ${seconds} s each, median of ${rounds} interleaved round(s)`,
    `${''.padEnd(20)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'added p50'.padStart(11)}${'added p99'.padStart(11)}${'req/s'.padStart(10)}  statuses`,
  ];
  for (const [name, f] of rows) {
    const added = f === direct ? ['', ''] : [f.p50 - direct.p50, f.p99 - direct.p99].map((n) => `${n.toFixed(3)}`);
    lines.push(
      `${name.padEnd(20)}${ms(f.p50)}${ms(f.p99)}${added[0].padStart(11)}${added[1].padStart(11)}${Math.round(f.requestsPerSecond).toString().padStart(10)}  ${JSON.stringify(f.statuses)}`,
    );
  }
  const ours = rows.find(([name]) => name.startsWith('plantstore'))?.[1];
  const prism = rows.find(([name]) => name.startsWith('prism'))?.[1];
  const floor = rows.find(([name]) => name.startsWith('bare'))?.[1];
  if (ours && prism && floor) {
    lines.push(
      `plantstore proxy: ${(ours.p50 - direct.p50).toFixed(3)} ms added at p50 (aim: under 1 ms); ${(ours.requestsPerSecond / prism.requestsPerSecond).toFixed(1)}x the throughput of prism proxy (aim: 10x or more)`,
    );
    lines.push(
      `  against the bare pass-through (node:http + undici, no checks): ${(ours.p50 - floor.p50).toFixed(3)} ms more at p50, ${((100 * ours.requestsPerSecond) / floor.requestsPerSecond).toFixed(0)}% of its throughput;`,
    );
    lines.push(
      `  the pass-through itself is ${(floor.requestsPerSecond / prism.requestsPerSecond).toFixed(1)}x prism proxy (every proxy here shares its core with the upstream, so no proxy can pass the upstream alone)`,
    );
  }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await runProxyBench(process.argv.slice(2));
