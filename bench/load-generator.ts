// The load generator: a child process of the benchmark, pinned by it to its own core, so that
// the server under test has the other core to itself. It warms the server up, then measures.
// In: one JSON argument (LoadPlan). Out: one JSON line on stdout (LoadOutput).
// The load itself comes from the lean client (http-load-client.ts) by default, or from autocannon
// (plan.generator), to compare the two: see load-drivers.ts.
import { readFileSync } from 'node:fs';
import { histogramOf, type LatencyHistogram } from './latency-histogram.ts';
import { LOAD_DRIVERS } from './load-drivers.ts';
import type { GeneratorName, PhasePlan } from './load-phase.ts';
import { scenario, type ScenarioName } from './scenarios.ts';

export interface LoadPlan {
  url: string;
  scenario: ScenarioName;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** First id counter value (decimal); each request of a factory scenario takes the next one. */
  idStart: string;
  /** What sends the load; plantstore (the lean client) when absent, as in a plan written by hand. */
  generator?: GeneratorName;
  /** The server's pid, to read its CPU time around the measurement (Linux only). */
  serverPid?: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  statuses: Record<string, number>;
  unexpected: number;
  errors: number;
  timeouts: number;
  /** Answers in each whole second of the measurement: a wide spread means the machine was not steady. */
  perSecond: number[];
  /** 2xx answers during warm-up and measurement: resources the server now stores. */
  created: number;
  /** Share of one core the load generator used while measuring; near 100 it may be the bottleneck. */
  generatorCpuPercent: number;
  /**
   * The server's CPU time per answer while measuring, in microseconds (from /proc/PID/stat, in
   * 10 ms ticks: ~1% of a 1.7 s round). What a request costs the server, whatever the pace: a
   * second view beside req/s on a machine whose speed drifts. Absent where it cannot be read.
   */
  serverCpuMicrosPerRequest?: number;
}

/** What the load generator prints: its figures, and its latencies in buckets to merge with other runs'. */
export interface LoadOutput extends LoadResult {
  latencyHistogram: LatencyHistogram;
}

const plan = JSON.parse(process.argv[2] ?? '{}') as LoadPlan;
const drive = LOAD_DRIVERS[plan.generator ?? 'plantstore'];
if (!drive) throw new Error(`unknown generator ${plan.generator}; known: ${Object.keys(LOAD_DRIVERS).join(', ')}`);
const chosen = scenario(plan.scenario);
// One counter for all connections and both phases: every request of a factory scenario gets a fresh id.
let counter = BigInt(plan.idStart);
const factory = chosen.body;
const phase = (seconds: number): PhasePlan => ({
  url: plan.url,
  connections: plan.connections,
  seconds,
  method: 'POST',
  path: '/plants',
  headers: chosen.auth ? { 'content-type': 'application/json', authorization: 'Bearer bench-token' } : { 'content-type': 'application/json' },
  body: typeof factory === 'string' ? factory : () => factory(counter++),
});

const percentile = (sorted: Float64Array, p: number) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
const created = (...byStatus: Record<string, number>[]) =>
  byStatus.reduce((sum, statuses) => sum + Object.entries(statuses).reduce((n, [status, count]) => n + (status.startsWith('2') ? count : 0), 0), 0);

// Linux's clock tick for /proc/PID/stat (USER_HZ): 100 on every architecture Node runs on.
const TICK_NANOS = 10_000_000;

/** Nanoseconds the server (all its threads: GC helpers too) has spent on a CPU so far, or undefined off Linux. */
function serverCpuNanos(): number | undefined {
  if (plan.serverPid === undefined) return undefined;
  try {
    // Fields after the ")" that closes the command name: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${plan.serverPid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_NANOS;
  } catch {
    return undefined;
  }
}

const warmup = plan.warmupSeconds > 0 ? await drive(phase(plan.warmupSeconds)) : undefined;
const cpuBefore = process.cpuUsage();
const serverBefore = serverCpuNanos();
const measured = await drive(phase(plan.durationSeconds));
const serverAfter = serverCpuNanos();
const cpu = process.cpuUsage(cpuBefore);
const sorted = Float64Array.from(measured.latencies).sort();
const count = measured.latencies.length;
const result: LoadOutput = {
  requests: count,
  seconds: measured.seconds,
  requestsPerSecond: count / measured.seconds,
  p50Ms: percentile(sorted, 50),
  p99Ms: percentile(sorted, 99),
  maxMs: count ? sorted[count - 1] : Number.NaN,
  perSecond: measured.perSecond,
  statuses: measured.statuses,
  unexpected: count - (measured.statuses[chosen.expectedStatus] ?? 0),
  errors: measured.errors,
  timeouts: measured.timeouts,
  // Late answers too: the server stored those creates, and the next scenario's RSS reflects them.
  created: created(warmup?.statuses ?? {}, warmup?.lateStatuses ?? {}, measured.statuses, measured.lateStatuses),
  generatorCpuPercent: ((cpu.user + cpu.system) / 1000 / (measured.seconds * 1000)) * 100,
  serverCpuMicrosPerRequest: serverBefore !== undefined && serverAfter !== undefined && count > 0 ? (serverAfter - serverBefore) / 1000 / count : undefined,
  latencyHistogram: histogramOf(sorted),
};
process.stdout.write(`${JSON.stringify(result)}\n`);
