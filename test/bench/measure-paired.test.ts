// The paired loads read as one comparison: each rate as measured, their ratio, both servers' CPU
// cost, and the two generators' CPU summed (they share one core).
import { describe, expect, it } from 'vitest';
import type { LoadResult } from '../../bench/load-generator.ts';
import { pairedResultOf } from '../../bench/measure-paired.ts';

function load(requestsPerSecond: number, extra: Partial<LoadResult> = {}): LoadResult {
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

describe('pairedResultOf', () => {
  it("divides the mock's rate by the baseline's and keeps both servers' CPU cost per request", () => {
    const result = pairedResultOf(load(6000, { serverCpuMicrosPerRequest: 80 }), load(8000, { serverCpuMicrosPerRequest: 60 }), 5);
    expect(result).toEqual({
      plantstore: 6000,
      baseline: 8000,
      ratio: 0.75,
      plantstoreCpuMicrosPerRequest: 80,
      baselineCpuMicrosPerRequest: 60,
      seconds: 5,
      generatorCpuPercent: 60,
      odd: 0,
    });
  });

  it('counts unexpected statuses, errors and timeouts of both loads', () => {
    const result = pairedResultOf(load(100, { unexpected: 3, errors: 1 }), load(100, { timeouts: 2 }), 1);
    expect(result.odd).toBe(6);
  });

  it('gives a NaN ratio, not Infinity, when the baseline answered nothing', () => {
    expect(pairedResultOf(load(100), load(0), 1).ratio).toBeNaN();
  });

  it('leaves the CPU costs undefined where they could not be read', () => {
    const result = pairedResultOf(load(100), load(100), 1);
    expect(result.plantstoreCpuMicrosPerRequest).toBeUndefined();
    expect(result.baselineCpuMicrosPerRequest).toBeUndefined();
  });
});
