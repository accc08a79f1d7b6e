// The measuring core's load: wrk (one thread, pinned to the load core) sends one scenario to one server
// and counts its answers by status (wrk-load.lua); the server's CPU time is read around it from /proc.
// Servers loaded at the same time on one core (loadAtOnce) feel the machine's drift alike, so the
// ratio of their rates is the ratio of their costs per request.
import { execFile, type ExecFileException } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { cpuMicros, LOAD_CORE, pinned, track } from './processes.ts';
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

/** What wrk's script prints (bench/lib/wrk-load.lua). */
export interface DriverOutput {
  requests: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers by status; connect, read and write errors; timeouts; the generator's CPU time during the load. */
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  cpuSeconds: number;
}

export interface LoadResult extends DriverOutput {
  requestsPerSecond: number;
  /** Answers with another status than the scenario's, and 2xx answers (resources the server now stores). */
  unexpected: number;
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
export function wrkArgs({ connections, seconds, url, idStart, scenario: s }: LoadPlan): string[] {
  const script = join(import.meta.dirname, 'wrk-load.lua');
  const options = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, url];
  return [...options, '--', `${idStart}`, s.idPrefix, `${s.idWidth}`, s.body, s.auth ? 'Bearer bench-token' : ''];
}

/** The JSON line the script prints after wrk's own summary. */
export function parseWrkOutput(out: string): DriverOutput {
  const line = out.split('\n').findLast((l) => l.startsWith('{'));
  if (!line) throw new Error(`wrk printed no figures: ${out.trim().split('\n').slice(-3).join(' / ')}`);
  return JSON.parse(line) as DriverOutput;
}

function drive(plan: LoadPlan): Promise<DriverOutput> {
  const [command, args] = pinned(LOAD_CORE, findWrk() ?? 'wrk', wrkArgs(plan));
  // Killed when stuck past its load and wind-down.
  const limits = { timeout: (plan.seconds + 30) * 1000, killSignal: 'SIGKILL' } as const;
  return new Promise((resolve, reject) => {
    const done = (error: ExecFileException | null, stdout: string, stderr: string) =>
      error
        ? reject(new Error(`wrk failed (${error.signal ?? error.code}): ${stdout}${stderr}`))
        : resolve(parseWrkOutput(stdout));
    track(execFile(command, args, limits, done));
  });
}

/** Runs one load against the server with `serverPid` and adds what its figures say together. */
export async function runLoad(_generator: GeneratorName, plan: LoadPlan, serverPid: number): Promise<LoadResult> {
  const before = cpuMicros(serverPid);
  const output = await drive(plan);
  const after = cpuMicros(serverPid);
  const { requests, seconds, statuses } = output;
  const count = (match: (status: string) => boolean) =>
    Object.entries(statuses).reduce((n, [status, k]) => n + (match(status) ? k : 0), 0);
  return {
    ...output,
    requestsPerSecond: requests / seconds,
    unexpected: count((status) => status !== String(plan.scenario.expectedStatus)),
    created: count((status) => status.startsWith('2')),
    generatorCpuPercent: (output.cpuSeconds / seconds) * 100,
    serverCpuMicrosPerRequest: before === undefined || after === undefined ? undefined : (after - before) / requests,
  };
}

/** A warm-up load (not counted) and then the measured one; `created` counts both. */
export async function warmAndMeasure(
  generator: GeneratorName,
  plan: Omit<LoadPlan, 'idStart'>,
  warmupSeconds: number,
  serverPid: number,
): Promise<LoadResult> {
  const load = (seconds: number) => runLoad(generator, { ...plan, seconds, idStart: freshIdStart() }, serverPid);
  const warm = warmupSeconds > 0 ? (await load(warmupSeconds)).created : 0;
  const measured = await load(plan.seconds);
  return { ...measured, created: measured.created + warm };
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
  const { generator, warmupSeconds } = settings;
  const connections = Math.max(1, Math.floor(settings.connections / servers.length));
  const load = ({ running }: (typeof servers)[number]) =>
    warmAndMeasure(generator, { url: running.url, scenario, connections, seconds }, warmupSeconds, running.pid);
  const loads = await Promise.all(servers.map(load));
  for (const s of servers) {
    const exit = s.running.exit();
    if (exit) throw new Error(`${s.server.title} exited during the load (${exit}); its output: ${s.running.logFile}`);
  }
  return loads;
}

/** Answers with another status than expected, errors and timeouts. */
export const oddAnswers = (load: { unexpected: number; errors: number; timeouts: number }) =>
  load.unexpected + load.errors + load.timeouts;
