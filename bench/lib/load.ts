// The measuring core's load: wrk (in C, one thread, pinned to the load core) sends one scenario to
// one server and counts its answers by status (bench/lib/wrk-load.lua); the server's CPU time is read
// around the load from /proc. Several servers loaded at the same time on the same core (loadAtOnce)
// feel the machine's drift alike, so the ratio of their rates is the ratio of their costs per request:
// every suite's ratios come from loads run that way, or one right after the other where a shared
// upstream forbids it (the proxy suite).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { cpuMicros, LOAD_CORE, pinned, stop, track } from './processes.ts';
import type { Scenario } from './scenarios.ts';
import type { RunningServer } from './server.ts';

/** The load generator; wrk only (autocannon filled its own core before the mock's: docs/performance.md §3). */
export type GeneratorName = 'wrk';

export interface LoadPlan {
  url: string;
  scenario: Scenario;
  connections: number;
  /** Whole seconds (wrk takes no fractions). */
  seconds: number;
  /** The first request's id counter; each request of a `$id` scenario takes the next one. */
  idStart: bigint;
}

/** What wrk's script prints, read into milliseconds and seconds. */
export interface DriverOutput {
  requests: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers by status. */
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  /** The generator's CPU time during the load. */
  cpuSeconds: number;
}

export interface LoadResult extends DriverOutput {
  requestsPerSecond: number;
  /** Answers with another status than the scenario's. */
  unexpected: number;
  /** 2xx answers: resources the server now stores. */
  created: number;
  /** Share of its core the generator used; near 100 it, not the server, may set the pace. */
  generatorCpuPercent: number;
  /** The server's CPU time (all threads) per answer, in µs; absent off Linux. */
  serverCpuMicrosPerRequest?: number;
}

/** wrk's path on PATH, or undefined. */
export const findWrk = (): string | undefined =>
  (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'wrk'))
    .find((file) => existsSync(file));

/** Each load takes its own block of ids, so no two loads of a run ever send the same id. */
let nextIdBlock = 1n;
const freshIdStart = (): bigint => 100_000_000n * nextIdBlock++;

/** wrk's arguments for `plan`: one thread (one core), the scenario's parts for the script. */
export function wrkArgs(plan: LoadPlan): string[] {
  const { scenario: s } = plan;
  const script = join(import.meta.dirname, 'wrk-load.lua');
  const auth = s.auth ? 'Bearer bench-token' : '';
  const scriptArgs = [String(plan.idStart), s.idPrefix, String(s.idWidth), s.body, auth];
  return [
    '-t1',
    `-c${plan.connections}`,
    `-d${plan.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    script,
    plan.url,
    '--',
    ...scriptArgs,
  ];
}

/** Parses the JSON line the script prints after wrk's own summary. */
export function parseWrkOutput(out: string): DriverOutput {
  const line = out.split('\n').findLast((l) => l.startsWith('{'));
  if (!line) throw new Error(`wrk printed no figures: ${out.trim().split('\n').slice(-3).join(' / ')}`);
  const w = JSON.parse(line) as Omit<DriverOutput, 'seconds' | 'p50Ms' | 'p99Ms' | 'maxMs'> & Record<string, number>;
  const ms = (micros: number) => (w.requests > 0 ? micros / 1000 : Number.NaN);
  const { requests, statuses, errors, timeouts, cpuSeconds } = w;
  return {
    requests,
    seconds: w.micros / 1e6,
    p50Ms: ms(w.p50),
    p99Ms: ms(w.p99),
    maxMs: ms(w.max),
    statuses,
    errors,
    timeouts,
    cpuSeconds,
  };
}

function drive(plan: LoadPlan): Promise<DriverOutput> {
  const wrk = findWrk();
  if (!wrk) return Promise.reject(new Error('wrk is not on PATH: install it (apt-get install wrk, brew install wrk)'));
  const [command, args] = pinned(LOAD_CORE, wrk, wrkArgs(plan));
  const child = track(spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk));
  const limit = setTimeout(() => void stop(child, 'SIGKILL'), (plan.seconds + 30) * 1000); // stuck past its wind-down
  return new Promise((resolve, reject) => {
    // 'close', not 'exit': a process can exit before its output has been read from the pipes.
    child.once('close', (code, signal) => {
      clearTimeout(limit);
      if (code !== 0) reject(new Error(`wrk failed (${signal ?? `exit ${code}`}): ${out.trim()}`));
      else
        try {
          resolve(parseWrkOutput(out));
        } catch (error) {
          reject(error);
        }
    });
  });
}

/** Runs one load against the server with `serverPid` and adds what its figures say together. */
export async function runLoad(_generator: GeneratorName, plan: LoadPlan, serverPid: number): Promise<LoadResult> {
  const before = cpuMicros(serverPid);
  const output = await drive(plan);
  const after = cpuMicros(serverPid);
  const count = (match: (status: string) => boolean) =>
    Object.entries(output.statuses).reduce((n, [status, k]) => n + (match(status) ? k : 0), 0);
  return {
    ...output,
    requestsPerSecond: output.requests / output.seconds,
    unexpected: count((status) => status !== String(plan.scenario.expectedStatus)),
    created: count((status) => status.startsWith('2')),
    generatorCpuPercent: (output.cpuSeconds / output.seconds) * 100,
    serverCpuMicrosPerRequest:
      before !== undefined && after !== undefined && output.requests > 0
        ? (after - before) / output.requests
        : undefined,
  };
}

/** A warm-up load (not counted) and then the measured one; `created` counts both. */
export async function warmAndMeasure(
  generator: GeneratorName,
  plan: Omit<LoadPlan, 'idStart'>,
  warmupSeconds: number,
  serverPid: number,
): Promise<LoadResult> {
  const warm =
    warmupSeconds > 0
      ? await runLoad(generator, { ...plan, seconds: warmupSeconds, idStart: freshIdStart() }, serverPid)
      : undefined;
  const measured = await runLoad(generator, { ...plan, idStart: freshIdStart() }, serverPid);
  return { ...measured, created: measured.created + (warm?.created ?? 0) };
}

/**
 * Loads every server with `scenario` at the same time, after the same warm-up, the connections shared
 * out evenly, each from a wrk of its own on the load core. Throws when a server exited meanwhile:
 * against it the load only counted refused connections.
 */
export async function loadAtOnce(
  servers: readonly { server: { title: string }; running: RunningServer }[],
  scenario: Scenario,
  settings: { generator: GeneratorName; connections: number; warmupSeconds: number },
  seconds: number,
): Promise<LoadResult[]> {
  const connections = Math.max(1, Math.floor(settings.connections / servers.length));
  const loads = await Promise.all(
    servers.map((s) =>
      warmAndMeasure(
        settings.generator,
        { url: s.running.url, scenario, connections, seconds },
        settings.warmupSeconds,
        s.running.pid,
      ),
    ),
  );
  for (const s of servers) {
    const exit = s.running.exit();
    if (exit) throw new Error(`${s.server.title} exited during the load (${exit}); its output: ${s.running.logFile}`);
  }
  return loads;
}

/** Answers with another status than expected, errors and timeouts. */
export const oddAnswers = (load: { unexpected: number; errors: number; timeouts: number }) =>
  load.unexpected + load.errors + load.timeouts;
