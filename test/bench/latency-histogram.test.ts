// Latencies in 10 us buckets must give the percentiles the load generator computes on raw
// latencies, to within one bucket and never lower, however the latencies are split into rounds.
import { describe, expect, it } from 'vitest';
import { histogramOf, histogramPercentile, mergeHistograms } from '../../bench/latency-histogram.ts';

// The load generator's own percentile: the ceil(p% of n)-th smallest.
const exact = (latencies: number[], p: number) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

// Deterministic, spread over 0.2-20 ms with a long tail: no unseeded randomness.
const LATENCIES = Array.from({ length: 10_007 }, (_, i) => 0.2 + ((i * 7919) % 10_007) / 1000 + (i % 97 === 0 ? 10 : 0));

describe('latency histogram', () => {
  it('puts a latency in the bucket of its upper 10 us edge', () => {
    expect(histogramOf([0.3, 0.301, 1, 1.00001, 0])).toEqual({ 0: 1, 30: 1, 31: 1, 100: 1, 101: 1 });
  });

  it.each([50, 90, 99, 99.9, 100])('reads p%s within 10 us above the exact figure', (p) => {
    const read = histogramPercentile(histogramOf(LATENCIES), p);
    expect(read).toBeGreaterThanOrEqual(exact(LATENCIES, p));
    expect(read - exact(LATENCIES, p)).toBeLessThanOrEqual(0.01 + 1e-9);
  });

  it('merges rounds into the histogram of all their latencies', () => {
    const rounds = [LATENCIES.slice(0, 3000), LATENCIES.slice(3000, 3001), LATENCIES.slice(3001)];
    expect(mergeHistograms(rounds.map((r) => histogramOf(r)))).toEqual(histogramOf(LATENCIES));
  });

  it('has no percentile without latencies', () => {
    expect(histogramPercentile({}, 50)).toBeNaN();
  });
});
