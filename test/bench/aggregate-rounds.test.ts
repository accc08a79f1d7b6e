// One server's rounds of one scenario read as one measurement of their summed time.
import { describe, expect, it } from 'vitest';
import { aggregateRounds } from '../../bench/aggregate-rounds.ts';
import { histogramOf } from '../../bench/latency-histogram.ts';
import type { LoadOutput } from '../../bench/load-generator.ts';

function round(seconds: number, latencies: number[], extra: Partial<LoadOutput> = {}): LoadOutput {
  return {
    requests: latencies.length,
    seconds,
    requestsPerSecond: latencies.length / seconds,
    p50Ms: Number.NaN, // not read: percentiles come from the merged histogram
    p99Ms: Number.NaN,
    maxMs: Math.max(...latencies),
    statuses: { 200: latencies.length },
    unexpected: 0,
    errors: 0,
    timeouts: 0,
    perSecond: [latencies.length],
    created: latencies.length,
    generatorCpuPercent: 50,
    latencyHistogram: histogramOf(latencies),
    ...extra,
  };
}

describe('aggregateRounds', () => {
  const fast = round(1, Array.from({ length: 300 }, () => 1));
  const slow = round(2, Array.from({ length: 100 }, () => 4.123), {
    statuses: { 200: 90, 500: 10 },
    unexpected: 10,
    errors: 2,
    timeouts: 1,
    perSecond: [40, 60],
    created: 95,
    generatorCpuPercent: 20,
  });
  const total = aggregateRounds([fast, slow]);

  it('rates the summed requests over the summed seconds, not the mean of the rates', () => {
    expect(total).toMatchObject({ requests: 400, seconds: 3 });
    expect(total.requestsPerSecond).toBeCloseTo(400 / 3);
  });

  it('takes percentiles from all rounds\' latencies and the largest exact max', () => {
    expect(total.p50Ms).toBe(1);
    expect(total.p99Ms).toBe(4.13);
    expect(total.maxMs).toBe(4.123);
  });

  it('sums statuses, odd answers and creates, and concatenates the seconds', () => {
    expect(total).toMatchObject({ statuses: { 200: 390, 500: 10 }, unexpected: 10, errors: 2, timeouts: 1, created: 395, perSecond: [300, 40, 60] });
  });

  it('weights the generator CPU share by each round\'s length', () => {
    expect(total.generatorCpuPercent).toBeCloseTo((50 * 1 + 20 * 2) / 3);
  });

  it('gives one round back as it was, to the bucket', () => {
    expect(aggregateRounds([slow])).toMatchObject({ requests: 100, seconds: 2, requestsPerSecond: 50, p50Ms: 4.13, maxMs: 4.123, perSecond: [40, 60] });
  });

  it('has no latencies to read when no round had an answer', () => {
    const empty = aggregateRounds([round(1, [], { maxMs: Number.NaN }), round(1, [], { maxMs: Number.NaN })]);
    expect(empty).toMatchObject({ requests: 0, requestsPerSecond: 0 });
    expect(empty.p99Ms).toBeNaN();
    expect(empty.maxMs).toBeNaN();
  });
});
