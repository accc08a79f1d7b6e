// The Redis part of the benchmark: valid creates against the mock in memory and the mock on Redis
// (mock --state redis://), and against one and two replicas on one Redis behind the same small
// round-robin balancer (tcp-balancer.ts, which reads no HTTP and so costs little CPU), all in one
// run, as ratios. Redis is Debian's redis-server on a free port, without persistence (the mock is
// measured, not the disk). The replicas, the balancer and Redis may run on any core, and each
// replica row says what share of a core every process took (the load generator's included): on a
// machine of few cores, that shows whether a second replica had a core to run on. Last, the mock
// in memory of the commit before the engine learned to await a shared store, and this checkout's,
// loaded at the same time: the await must cost the in-memory path nothing.
// Run: npm run bench -- --redis-only [--duration S] [--connections N]
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAtOnce } from '../lib/load.ts';
import { commitOf, materialize } from '../lib/git-trees.ts';
import { freePort, pinningUnavailable, stop, track } from '../lib/processes.ts';
import { warmAndMeasure, type GeneratorName, type LoadResult } from '../lib/load.ts';
import type { BenchOptions } from '../lib/options.ts';
import { scenario } from '../lib/scenarios.ts';
import { ROOT, type RunningServer, startServer } from '../lib/server.ts';

const say = (line: string) => process.stderr.write(`${line}\n`);
/** The last commit before the engine awaited a shared store (the optimistic view): "before". */
export const BEFORE_AWAIT_COMMIT = '86dd8ad4940be64abf6afe9611e1ecafae2654a6';

/** Microseconds a process has spent on a CPU so far (Linux's /proc; USER_HZ is 100), or NaN. */
function cpuMicros(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}
const logDir = join(ROOT, 'bench', 'results', 'logs');

async function startRedis(): Promise<{ url: string; pid?: number; stop(): Promise<void> }> {
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
  return { url: `redis://127.0.0.1:${port}/0`, pid: child.pid, stop: () => stop(child) };
}

const mock = (title: string, extra: string[], root = ROOT) => ({
  title,
  args: (port: number) => [join(root, 'bin', 'plantstore.js'), 'mock', '--port', String(port), '--quiet', ...extra],
});
const balancer = (title: string, upstreams: RunningServer[]) => ({
  title,
  args: (port: number) => [
    join(ROOT, 'bench', 'redis', 'tcp-balancer.ts'),
    ...upstreams.flatMap((u) => ['--upstream', u.url]),
    '--port',
    String(port),
  ],
});

/** The machine's busy and total CPU time so far, in µs of all cores (Linux's /proc/stat), or NaN. */
function machineMicros(): { busy: number; total: number } {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, n) => sum + n, 0);
    // idle and iowait are the 4th and 5th fields
    return { busy: (total - fields[3] - fields[4]) * 10_000, total: total * 10_000 };
  } catch {
    return { busy: Number.NaN, total: Number.NaN };
  }
}

/** Lets a started server (all its threads) run on every core again: the replica rows are not pinned. */
function unpin(server: RunningServer): void {
  if (!pinningUnavailable)
    execFileSync('/usr/bin/taskset', ['-a', '-p', '-c', `0-${availableParallelism() - 1}`, String(server.pid)], {
      stdio: 'ignore',
    });
}

/** A replica row: the load's figures, and each process's share of one core over the measured seconds (%). */
type ReplicaRow = LoadResult & { cpuPercent: Record<string, number> };

/** A warm-up, then the measured load through the balancer, with the CPU each process took meanwhile. */
async function measureReplicas(
  label: string,
  target: RunningServer,
  processes: Record<string, number | undefined>,
  { durationSeconds: seconds, connections, generator }: BenchOptions,
): Promise<ReplicaRow> {
  say(`bench: ${label}: ${seconds} s of valid creates, ${connections} connections`);
  const plan = { url: target.url, scenario: scenario('valid'), connections };
  await warmAndMeasure(generator, { ...plan, seconds: 1 }, 0, target.pid);
  const before = Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, cpuMicros(pid)]));
  const machineBefore = machineMicros();
  const result = await warmAndMeasure(generator, { ...plan, seconds }, 0, target.pid);
  const machine = machineMicros();
  const share = (micros: number) => Math.round((micros / (result.seconds * 1e6)) * 100);
  const cpuPercent: Record<string, number> = { generator: Math.round(result.generatorCpuPercent) };
  for (const [name, pid] of Object.entries(processes)) cpuPercent[name] = share(cpuMicros(pid) - before[name]);
  // What the rest of the machine took meanwhile (other people's work on a shared machine), and what stayed idle.
  const ours = Object.values(cpuPercent).reduce((sum, percent) => sum + percent, 0);
  cpuPercent['everything else'] = share(machine.busy - machineBefore.busy) - ours;
  cpuPercent.idle = share(machine.total - machineBefore.total - (machine.busy - machineBefore.busy));
  return { ...result, cpuPercent };
}

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
  return [mean(a1, a2), mean(b1, b2)];
}

/** Two loads of one setup as one: their requests over their seconds. */
function mean(x: LoadResult, y: LoadResult): LoadResult {
  return {
    ...y,
    requests: x.requests + y.requests,
    seconds: x.seconds + y.seconds,
    requestsPerSecond: (x.requests + y.requests) / (x.seconds + y.seconds),
    p50Ms: (x.p50Ms + y.p50Ms) / 2,
    p99Ms: Math.max(x.p99Ms, y.p99Ms),
    unexpected: x.unexpected + y.unexpected,
    serverCpuMicrosPerRequest:
      x.serverCpuMicrosPerRequest === undefined || y.serverCpuMicrosPerRequest === undefined
        ? undefined
        : (x.serverCpuMicrosPerRequest * x.requests + y.serverCpuMicrosPerRequest * y.requests) /
          (x.requests + y.requests),
  };
}

/** Two loads of one replica setup as one, each process's share of a core averaged. */
function meanRow(x: ReplicaRow, y: ReplicaRow): ReplicaRow {
  const cpuPercent: Record<string, number> = {};
  for (const name of Object.keys(x.cpuPercent))
    cpuPercent[name] = Math.round((x.cpuPercent[name] + y.cpuPercent[name]) / 2);
  return { ...mean(x, y), cpuPercent };
}

/** Runs the Redis part; returns the exit code (0 unless the harness failed). */
export async function runRedisBench(options: BenchOptions): Promise<number> {
  const { durationSeconds: seconds, connections } = options;
  const loadAtStart = loadavg()[0];
  mkdirSync(logDir, { recursive: true });
  const redis = await startRedis();
  const log = (name: string) => ({ logFile: join(logDir, `redis-${name}.log`) });
  const rows: Record<string, LoadResult & { cpuPercent?: Record<string, number> }> = {};
  let redisCpuMicrosPerRequest = Number.NaN;
  try {
    const memory = await startServer(mock('memory', []), log('memory'));
    const onRedis = await startServer(mock('redis', ['--state', redis.url, '--state-prefix', 'one']), log('redis'));
    // Redis works only for the loads on Redis: its CPU time over the pair, per answer on Redis.
    const redisCpuBefore = cpuMicros(redis.pid);
    [rows.memory, rows.redis] = await pair(
      [
        { label: 'mock in memory', target: memory },
        { label: 'mock on Redis', target: onRedis },
      ],
      options,
    );
    redisCpuMicrosPerRequest = (cpuMicros(redis.pid) - redisCpuBefore) / rows.redis.requests;
    await Promise.all([memory.stop(), onRedis.stop()]);
    const single = await startServer(
      mock('replica', ['--state', redis.url, '--state-prefix', 'balanced-one']),
      log('replica'),
    );
    const replicas = [
      await startServer(mock('replica a', ['--state', redis.url, '--state-prefix', 'balanced-two']), log('replica-a')),
      await startServer(mock('replica b', ['--state', redis.url, '--state-prefix', 'balanced-two']), log('replica-b')),
    ];
    const toOne = await startServer(balancer('balancer to one', [single]), log('balancer-one'));
    const toTwo = await startServer(balancer('balancer to two', replicas), log('balancer-two'));
    for (const server of [single, ...replicas, toOne, toTwo]) unpin(server);
    // In the order one, two, two, one (as `pair`), each row the mean of its two loads.
    const one = { balancer: toOne.pid, replica: single.pid, redis: redis.pid };
    const two = { balancer: toTwo.pid, 'replica a': replicas[0].pid, 'replica b': replicas[1].pid, redis: redis.pid };
    const loads = [
      await measureReplicas('one replica on Redis behind the balancer', toOne, one, options),
      await measureReplicas('two replicas on Redis behind the balancer', toTwo, two, options),
    ];
    loads.push(
      await measureReplicas('two replicas on Redis behind the balancer', toTwo, two, options),
      await measureReplicas('one replica on Redis behind the balancer', toOne, one, options),
    );
    [rows.oneReplica, rows.twoReplicas] = [meanRow(loads[0], loads[3]), meanRow(loads[1], loads[2])];
    await Promise.all([toOne, toTwo, single, ...replicas].map((server) => server.stop()));
    const before = commitOf(ROOT, BEFORE_AWAIT_COMMIT);
    if (!before)
      say(`bench: no commit ${BEFORE_AWAIT_COMMIT.slice(0, 7)} here (a shallow clone?): memory before/after left out`);
    else {
      const servers = [
        { server: mock('before', [], materialize(ROOT, before, join(ROOT, 'node_modules'))) },
        { server: mock('this checkout', []) },
      ];
      const running = [];
      for (const { server } of servers)
        running.push({ server, running: await startServer(server, log(server.title.replace(/ /g, '-'))) });
      try {
        say(
          `bench: the mock in memory before the await (${before.slice(0, 7)}) and now, at the same time: ${seconds} s`,
        );
        [rows.memoryBefore, rows.memoryNow] = await loadAtOnce(
          running,
          scenario('valid'),
          { generator: options.generator, connections, warmupSeconds: 1 },
          seconds,
        );
      } finally {
        await Promise.all(running.map((r) => r.running.stop()));
      }
    }
  } finally {
    await redis.stop();
  }

  const rate = (row: LoadResult) => Math.round(row.requestsPerSecond);
  const lines = Object.entries(rows).map(
    ([name, row]) =>
      `${name.padEnd(12)} ${String(rate(row)).padStart(7)} req/s  p50 ${row.p50Ms.toFixed(2)} ms  p99 ${row.p99Ms.toFixed(2)} ms  unexpected ${row.unexpected}  ${
        row.cpuPercent
          ? `% of a core: ${Object.entries(row.cpuPercent)
              .map(([process, percent]) => `${process} ${percent}`)
              .join(', ')}`
          : `mock CPU ${row.serverCpuMicrosPerRequest?.toFixed(0) ?? '?'} µs/answer`
      }`,
  );
  const ratios = {
    redisToMemory: rows.redis.requestsPerSecond / rows.memory.requestsPerSecond,
    twoToOne: rows.twoReplicas.requestsPerSecond / rows.oneReplica.requestsPerSecond,
    // What an answer costs, whatever else the machine runs: the mock's CPU, and Redis's own beside it.
    cpuRedisToMemory:
      (rows.redis.serverCpuMicrosPerRequest ?? Number.NaN) / (rows.memory.serverCpuMicrosPerRequest ?? Number.NaN),
    redisCpuMicrosPerRequest,
    ...(rows.memoryNow && {
      memoryNowToBefore: rows.memoryNow.requestsPerSecond / rows.memoryBefore.requestsPerSecond,
    }),
  };
  process.stdout.write(
    `${lines.join('\n')}\nmock on Redis / in memory: ${ratios.redisToMemory.toFixed(2)} (the mock's CPU per answer: ${ratios.cpuRedisToMemory.toFixed(2)}x memory's, and Redis's own ${redisCpuMicrosPerRequest.toFixed(0)} µs)\ntwo replicas / one (behind the balancer): ${ratios.twoToOne.toFixed(2)}\n${ratios.memoryNowToBefore === undefined ? '' : `in memory, now / before the await (at the same time): ${ratios.memoryNowToBefore.toFixed(2)}\n`}(${availableParallelism()} cores, load average ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0].toFixed(2)} at the end)\n`,
  );
  writeFileSync(
    join(ROOT, 'bench', 'results', 'redis.json'),
    `${JSON.stringify({ at: new Date().toISOString(), seconds, connections, rows, ratios, loadAtStart, loadAverage: loadavg() }, null, 2)}\n`,
  );
  return 0;
}
