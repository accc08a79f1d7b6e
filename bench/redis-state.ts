// The Redis part of the benchmark: valid creates against the mock in memory and the mock on Redis
// (mock --state redis://), and against one and two replicas on one Redis behind the same small
// round-robin proxy (bench/passthrough-proxy.ts), all in one run, as ratios. Redis is Debian's
// redis-server on a free port, without persistence (the mock is measured, not the disk).
// Run: npm run bench -- --redis-only [--seconds S] [--connections N]
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { stop, track } from './child-processes.ts';
import { freePort } from './free-port.ts';
import { defaultGenerator, warmAndMeasure, type LoadResult } from './load-generator.ts';
import { scenario } from './scenarios.ts';
import { startServer, type RunningServer } from './server-process.ts';
import { ROOT } from './servers.ts';

const say = (line: string) => process.stderr.write(`${line}\n`);
const logDir = join(ROOT, 'bench', 'results', 'logs');

async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = track(
    spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', mkdtempSync(join(tmpdir(), 'bench-redis-'))],
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
  args: (port: number) => [join(ROOT, 'bench', 'passthrough-proxy.ts'), ...upstreams.flatMap((u) => ['--upstream', u.url]), '--port', String(port)],
});

async function measure(label: string, servers: RunningServer[], target: RunningServer, seconds: number, connections: number): Promise<LoadResult> {
  say(`bench: ${label}: ${seconds} s of valid creates, ${connections} connections`);
  const result = await warmAndMeasure(defaultGenerator(), { url: target.url, scenario: scenario('valid'), connections, seconds }, 1, target.pid);
  for (const server of servers) await server.stop();
  return result;
}

/** Runs the Redis part; returns the exit code (0 unless the harness failed). */
export async function runRedisBench(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { seconds: { type: 'string', default: '5' }, connections: { type: 'string', default: '32' } } });
  const seconds = Number(values.seconds);
  const connections = Number(values.connections);
  mkdirSync(logDir, { recursive: true });
  const redis = await startRedis();
  const log = (name: string) => ({ logFile: join(logDir, `redis-${name}.log`) });
  const rows: Record<string, LoadResult> = {};
  try {
    const memory = await startServer(mock('memory', []), log('memory'));
    rows.memory = await measure('mock in memory', [memory], memory, seconds, connections);
    const onRedis = await startServer(mock('redis', ['--state', redis.url, '--state-prefix', 'one']), log('redis'));
    rows.redis = await measure('mock on Redis', [onRedis], onRedis, seconds, connections);
    const single = await startServer(mock('replica', ['--state', redis.url, '--state-prefix', 'proxied-one']), log('replica'));
    const singleProxy = await startServer(proxy('proxy to one', [single]), log('proxy-one'));
    rows.oneReplica = await measure('one replica on Redis behind the proxy', [singleProxy, single], singleProxy, seconds, connections);
    const pair = [
      await startServer(mock('replica a', ['--state', redis.url, '--state-prefix', 'proxied-two']), log('replica-a')),
      await startServer(mock('replica b', ['--state', redis.url, '--state-prefix', 'proxied-two']), log('replica-b')),
    ];
    const pairProxy = await startServer(proxy('proxy to two', pair), log('proxy-two'));
    rows.twoReplicas = await measure('two replicas on Redis behind the proxy', [pairProxy, ...pair], pairProxy, seconds, connections);
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

if (import.meta.main) process.exit(await runRedisBench(process.argv.slice(2)));
