// The Redis part of the benchmark: valid creates against the mock in memory and the mock on Redis
// (mock --state redis://), and against one and two replicas on one Redis behind the same small
// round-robin proxy (bench/lib/passthrough-proxy.ts), all in one run, as ratios. Redis is Debian's
// redis-server on a free port, without persistence (the mock is measured, not the disk).
// Run: npm run bench -- --redis-only [--duration S] [--connections N]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, stop, track } from '../lib/processes.ts';
import { warmAndMeasure, type GeneratorName, type LoadResult } from '../lib/load.ts';
import type { BenchOptions } from '../lib/options.ts';
import { scenario } from '../lib/scenarios.ts';
import { ROOT, type RunningServer, startServer } from '../lib/server.ts';

const say = (line: string) => process.stderr.write(`${line}\n`);
const logDir = join(ROOT, 'bench', 'results', 'logs');

async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = track(
    spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        mkdtempSync(join(tmpdir(), 'bench-redis-')),
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    ),
  );
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.on('data', (chunk: Buffer) => /Ready to accept connections/.test(chunk.toString()) && resolve());
  });
  return { url: `redis://127.0.0.1:${port}/0`, stop: () => stop(child) };
}

const mock = (title: string, extra: string[]) => ({
  title,
  args: (port: number) => [join(ROOT, 'bin', 'plantstore.js'), 'mock', '--port', String(port), '--quiet', ...extra],
});
const proxy = (title: string, upstreams: RunningServer[]) => ({
  title,
  args: (port: number) => [
    join(ROOT, 'bench', 'lib', 'passthrough-proxy.ts'),
    ...upstreams.flatMap((u) => ['--upstream', u.url]),
    '--port',
    String(port),
  ],
});

async function measure(
  label: string,
  target: RunningServer,
  seconds: number,
  connections: number,
  generator: GeneratorName,
): Promise<LoadResult> {
  say(`bench: ${label}: ${seconds} s of valid creates, ${connections} connections`);
  return warmAndMeasure(
    generator,
    { url: target.url, scenario: scenario('valid'), connections, seconds },
    1,
    target.pid,
  );
}

/**
 * Two setups loaded in the order A B B A, each figure the mean of its two loads: the drift of a
 * shared machine during the run then weighs on both alike.
 */
async function pair(
  [a, b]: [{ label: string; target: RunningServer }, { label: string; target: RunningServer }],
  { durationSeconds: seconds, connections, generator }: BenchOptions,
): Promise<[LoadResult, LoadResult]> {
  const a1 = await measure(a.label, a.target, seconds, connections, generator);
  const b1 = await measure(b.label, b.target, seconds, connections, generator);
  const b2 = await measure(b.label, b.target, seconds, connections, generator);
  const a2 = await measure(a.label, a.target, seconds, connections, generator);
  const mean = (x: LoadResult, y: LoadResult): LoadResult => ({
    ...y,
    requests: x.requests + y.requests,
    seconds: x.seconds + y.seconds,
    requestsPerSecond: (x.requests + y.requests) / (x.seconds + y.seconds),
    p50Ms: (x.p50Ms + y.p50Ms) / 2,
    p99Ms: Math.max(x.p99Ms, y.p99Ms),
    unexpected: x.unexpected + y.unexpected,
  });
  return [mean(a1, a2), mean(b1, b2)];
}

/** Runs the Redis part; returns the exit code (0 unless the harness failed). */
export async function runRedisBench(options: BenchOptions): Promise<number> {
  const { durationSeconds: seconds, connections } = options;
  mkdirSync(logDir, { recursive: true });
  const redis = await startRedis();
  const log = (name: string) => ({ logFile: join(logDir, `redis-${name}.log`) });
  const rows: Record<string, LoadResult> = {};
  try {
    const memory = await startServer(mock('memory', []), log('memory'));
    const onRedis = await startServer(mock('redis', ['--state', redis.url, '--state-prefix', 'one']), log('redis'));
    [rows.memory, rows.redis] = await pair(
      [
        { label: 'mock in memory', target: memory },
        { label: 'mock on Redis', target: onRedis },
      ],
      options,
    );
    await Promise.all([memory.stop(), onRedis.stop()]);
    const single = await startServer(
      mock('replica', ['--state', redis.url, '--state-prefix', 'proxied-one']),
      log('replica'),
    );
    const replicas = [
      await startServer(mock('replica a', ['--state', redis.url, '--state-prefix', 'proxied-two']), log('replica-a')),
      await startServer(mock('replica b', ['--state', redis.url, '--state-prefix', 'proxied-two']), log('replica-b')),
    ];
    const toOne = await startServer(proxy('proxy to one', [single]), log('proxy-one'));
    const toTwo = await startServer(proxy('proxy to two', replicas), log('proxy-two'));
    [rows.oneReplica, rows.twoReplicas] = await pair(
      [
        { label: 'one replica on Redis behind the proxy', target: toOne },
        { label: 'two replicas on Redis behind the proxy', target: toTwo },
      ],
      options,
    );
    await Promise.all([toOne, toTwo, single, ...replicas].map((server) => server.stop()));
  } finally {
    await redis.stop();
  }

  const rate = (row: LoadResult) => Math.round(row.requestsPerSecond);
  const lines = Object.entries(rows).map(
    ([name, row]) =>
      `${name.padEnd(12)} ${String(rate(row)).padStart(7)} req/s  p50 ${row.p50Ms.toFixed(2)} ms  p99 ${row.p99Ms.toFixed(2)} ms  unexpected ${row.unexpected}`,
  );
  const ratios = {
    redisToMemory: rows.redis.requestsPerSecond / rows.memory.requestsPerSecond,
    twoToOne: rows.twoReplicas.requestsPerSecond / rows.oneReplica.requestsPerSecond,
  };
  process.stdout.write(
    `${lines.join('\n')}\nmock on Redis / in memory: ${ratios.redisToMemory.toFixed(2)}\ntwo replicas / one (behind the proxy): ${ratios.twoToOne.toFixed(2)}\n(${availableParallelism()} cores, load average ${loadavg()[0].toFixed(2)})\n`,
  );
  writeFileSync(
    join(ROOT, 'bench', 'results', 'redis.json'),
    `${JSON.stringify({ at: new Date().toISOString(), seconds, connections, rows, ratios, loadAverage: loadavg() }, null, 2)}\n`,
  );
  return 0;
}
