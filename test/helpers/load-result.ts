import type { LoadResult } from '../../bench/lib/load.ts';

/** A load generator's result at `requestsPerSecond` over 5 s, every create a 200; `extra` overrides any field. */
export function loadResult(requestsPerSecond: number, extra: Partial<LoadResult> = {}): LoadResult {
  return {
    requests: requestsPerSecond * 5,
    seconds: 5,
    requestsPerSecond,
    p50Ms: 1,
    p99Ms: 2,
    maxMs: 3,
    statuses: { 200: requestsPerSecond * 5 },
    unexpected: 0,
    errors: 0,
    timeouts: 0,
    cpuSeconds: 1.5,
    created: requestsPerSecond * 5,
    generatorCpuPercent: 30,
    ...extra,
  };
}
