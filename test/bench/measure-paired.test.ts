// The paired loads read as one comparison: each rate as measured, their ratio, both servers' CPU
// cost, and the two generators' CPU summed (they share one core).
import { describe, expect, it } from 'vitest';
import { loadResult } from '../helpers/load-result.ts';
import { pairedResultOf } from '../../bench/plant-store/paired.ts';

const load = loadResult;

describe('pairedResultOf', () => {
  it("divides the mock's rate by the baseline's and keeps both servers' CPU cost per request", () => {
    const result = pairedResultOf(
      load(6000, { serverCpuMicrosPerRequest: 80 }),
      load(8000, { serverCpuMicrosPerRequest: 60 }),
      5,
    );
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
