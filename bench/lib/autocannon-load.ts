// One load from autocannon, for machines without wrk: a child process of the benchmark, pinned to
// the load core. In: one JSON argument (LoadPlan with the scenario's name). Out: one JSON line
// (DriverOutput). autocannon costs its core more per request than the mock does (docs/performance.md,
// "Load generators"): the report marks its figures when it saturates.
// Latencies are recorded here (autocannon's histogram keeps whole milliseconds and 2xx only).
import autocannon from 'autocannon';
import type { DriverOutput } from './load.ts';
import { bodyOf, headersOf, scenario as scenarioNamed, type ScenarioName } from './scenarios.ts';

const plan = JSON.parse(process.argv[2] ?? '{}') as {
  url: string;
  scenario: ScenarioName;
  connections: number;
  seconds: number;
  idStart: string;
};
const scenario = scenarioNamed(plan.scenario);
let counter = BigInt(plan.idStart);
const request = { method: 'POST', path: '/plants', headers: headersOf(scenario) };
// setupRequest runs per request, one closure for all connections: one counter, fresh ids.
const requests = scenario.body.includes('$id')
  ? [{ ...request, setupRequest: (r: object) => ({ ...r, body: bodyOf(scenario, counter++) }) }]
  : [{ ...request, body: scenario.body }];
const latencies: number[] = [];
const statuses: Record<string, number> = {};
const cpuBefore = process.cpuUsage();
const started = performance.now();
const instance = autocannon(
  { url: plan.url, connections: plan.connections, duration: plan.seconds, timeout: 10, requests },
  (error, result) => {
    if (error) throw error;
    const cpu = process.cpuUsage(cpuBefore);
    const sorted = Float64Array.from(latencies).sort();
    const at = (p: number) => (sorted.length === 0 ? Number.NaN : sorted[Math.ceil((p / 100) * sorted.length) - 1]);
    const output: DriverOutput = {
      requests: sorted.length,
      seconds: (performance.now() - started) / 1000,
      p50Ms: at(50),
      p99Ms: at(99),
      maxMs: at(100),
      statuses,
      errors: result.errors,
      timeouts: result.timeouts,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
    };
    process.stdout.write(`${JSON.stringify(output)}\n`);
  },
);
instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
  latencies.push(ms);
  statuses[status] = (statuses[status] ?? 0) + 1;
});
