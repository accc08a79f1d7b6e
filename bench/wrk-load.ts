// One load from wrk (a Debian package, written in C): at the mock's pace it costs its core about
// half of what the server spends per request, where autocannon costs more than the server
// (docs/performance.md). bench/wrk-load.lua builds each request and prints the figures.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { DriverOutput, LoadPlan } from './load-generator.ts';

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
