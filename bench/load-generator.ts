// The load generator: a child process of the benchmark, pinned by it to its own core, so that
// the server under test has the other core to itself. It warms the server up, then measures.
// In: one JSON argument (LoadPlan). Out: one JSON line on stdout (LoadResult).
// Latencies are recorded here in full (autocannon's histogram has 1 ms steps, too coarse for a
// p50 under a millisecond), for every answer whatever its status.
import autocannon from 'autocannon';
import { scenario, type ScenarioName } from './scenarios.ts';

export interface LoadPlan {
  url: string;
  scenario: ScenarioName;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** First id counter value (decimal); each request of a factory scenario takes the next one. */
  idStart: string;
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
}

const plan = JSON.parse(process.argv[2] ?? '{}') as LoadPlan;
const chosen = scenario(plan.scenario);
let counter = BigInt(plan.idStart);

function requests() {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (chosen.auth) headers.authorization = 'Bearer bench-token';
  const body = chosen.body;
  if (typeof body === 'string') return [{ method: 'POST', path: '/plants', headers, body }];
  // One counter for all connections (the closure is shared): every request gets a fresh id.
  return [{ method: 'POST', path: '/plants', headers, setupRequest: (request: object) => ({ ...request, body: body(counter++) }) }];
}

function run(seconds: number, record: boolean): Promise<{ latencies: number[]; perSecond: number[]; statuses: Record<string, number>; errors: number; timeouts: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const perSecond: number[] = [];
    const statuses: Record<string, number> = {};
    const started = performance.now();
    const instance = autocannon({ url: plan.url, connections: plan.connections, duration: seconds, timeout: 10, requests: requests() }, (error, result) => {
      if (error) reject(error);
      // The last bucket is a partial second (autocannon's wind-down): not a rate.
      else resolve({ latencies, perSecond: perSecond.slice(0, Math.floor(seconds)), statuses, errors: result.errors, timeouts: result.timeouts, seconds: (performance.now() - started) / 1000 });
    });
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      if (record) {
        latencies.push(ms);
        const second = Math.floor((performance.now() - started) / 1000);
        perSecond[second] = (perSecond[second] ?? 0) + 1;
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
  });
}

const percentile = (sorted: Float64Array, p: number) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);

const warmup = plan.warmupSeconds > 0 ? await run(plan.warmupSeconds, false) : undefined;
const created = (statuses: Record<string, number> = {}) => Object.entries(statuses).reduce((sum, [status, n]) => sum + (status.startsWith('2') ? n : 0), 0);
const cpuBefore = process.cpuUsage();
const measured = await run(plan.durationSeconds, true);
const cpu = process.cpuUsage(cpuBefore);
const sorted = Float64Array.from(measured.latencies).sort();
const count = measured.latencies.length;
const result: LoadResult = {
  requests: count,
  seconds: measured.seconds,
  requestsPerSecond: count / measured.seconds,
  p50Ms: percentile(sorted, 50),
  p99Ms: percentile(sorted, 99),
  maxMs: count ? sorted[count - 1] : Number.NaN,
  perSecond: Array.from(measured.perSecond, (n) => n ?? 0),
  statuses: measured.statuses,
  unexpected: count - (measured.statuses[chosen.expectedStatus] ?? 0),
  errors: measured.errors,
  timeouts: measured.timeouts,
  created: created(warmup?.statuses) + created(measured.statuses),
  generatorCpuPercent: ((cpu.user + cpu.system) / 1000 / (measured.seconds * 1000)) * 100,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
