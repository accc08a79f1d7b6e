// One load of one scenario against one server, from a load generator pinned to the load core:
// wrk when it is on PATH, autocannon (a devDependency) otherwise. Both run as child processes and
// print the same figures; the server's CPU time is read around the load from /proc.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stop, track } from './child-processes.ts';
import { LOAD_CORE, pinned } from './cpu-pinning.ts';
import type { Scenario } from './scenarios.ts';
import { findWrk, parseWrkOutput, wrkArgs } from './wrk-load.ts';

export type GeneratorName = 'wrk' | 'autocannon';
export const GENERATOR_NAMES: readonly GeneratorName[] = ['wrk', 'autocannon'];

export interface LoadPlan {
  url: string;
  scenario: Scenario;
  connections: number;
  /** Whole seconds (wrk takes no fractions). */
  seconds: number;
  /** The first request's id counter; each request of a `$id` scenario takes the next one. */
  idStart: bigint;
}

/** What a load generator prints. */
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
  /** The server's CPU time (all threads, /proc/PID/stat) per answer, in µs; absent off Linux. */
  serverCpuMicrosPerRequest?: number;
}

/** wrk when it is on PATH, autocannon otherwise. */
export const defaultGenerator = (): GeneratorName => (findWrk() ? 'wrk' : 'autocannon');

/** Each load takes its own block of ids, so no two loads of a run ever send the same id. */
const IDS_PER_LOAD = 100_000_000n;
let nextIdBlock = 1n;
export const freshIdStart = (): bigint => IDS_PER_LOAD * nextIdBlock++;

// Linux's clock tick for /proc/PID/stat (USER_HZ): 100 on every architecture Node runs on.
const TICK_MICROS = 10_000;

/** Microseconds the process has spent on a CPU so far (utime + stime), or undefined. */
function cpuMicros(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MICROS;
  } catch {
    return undefined;
  }
}

function commandOf(generator: GeneratorName, plan: LoadPlan): [string, string[]] {
  if (generator === 'wrk') {
    const wrk = findWrk();
    if (!wrk) throw new Error('wrk is not on PATH (apt-get install wrk), or choose --generator autocannon');
    return [wrk, wrkArgs(plan)];
  }
  const json = JSON.stringify({ ...plan, scenario: plan.scenario.name, idStart: String(plan.idStart) });
  return [process.execPath, [join(import.meta.dirname, 'autocannon-load.ts'), json]];
}

function drive(generator: GeneratorName, plan: LoadPlan): Promise<DriverOutput> {
  const [command, args] = pinned(LOAD_CORE, ...commandOf(generator, plan));
  const child = track(spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk));
  // Past the load and its wind-down the generator is stuck.
  const limit = setTimeout(() => void stop(child, 'SIGKILL'), (plan.seconds + 30) * 1000);
  return new Promise((resolve, reject) => {
    // 'close', not 'exit': a process can exit before its output has been read from the pipes
    // (three generators at once met an empty output that way).
    child.once('close', (code, signal) => {
      clearTimeout(limit);
      try {
        if (code !== 0) throw new Error(`${generator} failed (${signal ?? `exit ${code}`}): ${out.trim()}`);
        resolve(
          generator === 'wrk' ? parseWrkOutput(out) : (JSON.parse(out.trim().split('\n').at(-1) ?? '') as DriverOutput),
        );
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** Runs one load against the server with `serverPid` and adds what its figures say together. */
export async function runLoad(generator: GeneratorName, plan: LoadPlan, serverPid: number): Promise<LoadResult> {
  const before = cpuMicros(serverPid);
  const output = await drive(generator, plan);
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
