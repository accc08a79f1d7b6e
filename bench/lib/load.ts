// The measuring core every suite uses: one load of one scenario against one server, from a load
// generator pinned to the load core, and several servers loaded at the same time (their ratio is
// then a cost ratio, which the machine's drift moves alike). The generator is wrk when it is on
// PATH (written in C: at the mock's pace it costs its core about half what the server spends per
// request; docs/performance.md), autocannon (a devDependency) otherwise. Both run as child
// processes and print the same figures; the server's CPU time is read around the load from /proc.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { LOAD_CORE, pinned, stop, track } from './processes.ts';
import type { Scenario } from './scenarios.ts';

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

/** wrk's path on PATH, or undefined. */
export function findWrk(): string | undefined {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'wrk'))
    .find((file) => existsSync(file));
}

/** wrk's arguments for `plan`: one thread (one core), the scenario's parts for the script. */
export function wrkArgs(plan: LoadPlan): string[] {
  const { scenario } = plan;
  return [
    '-t1',
    `-c${plan.connections}`,
    `-d${plan.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    join(import.meta.dirname, 'wrk-load.lua'),
    plan.url,
    '--',
    String(plan.idStart),
    scenario.idPrefix,
    String(scenario.idWidth),
    scenario.body,
    scenario.auth ? 'Bearer bench-token' : '',
  ];
}

interface WrkLine {
  requests: number;
  micros: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  cpuSeconds: number;
}

/** Parses the JSON line the script prints after wrk's own summary. */
export function parseWrkOutput(out: string): DriverOutput {
  const line = out.split('\n').findLast((l) => l.startsWith('{'));
  if (!line) throw new Error(`wrk printed no figures: ${out.trim().split('\n').slice(-3).join(' / ')}`);
  const w = JSON.parse(line) as WrkLine;
  const ms = (micros: number) => (w.requests > 0 ? micros / 1000 : Number.NaN);
  return {
    requests: w.requests,
    seconds: w.micros / 1e6,
    p50Ms: ms(w.p50),
    p99Ms: ms(w.p99),
    maxMs: ms(w.max),
    statuses: w.statuses,
    errors: w.errors,
    timeouts: w.timeouts,
    cpuSeconds: w.cpuSeconds,
  };
}

/** Answers with another status than expected, errors and timeouts. */
export const oddAnswers = (load: { unexpected: number; errors: number; timeouts: number }) =>
  load.unexpected + load.errors + load.timeouts;
