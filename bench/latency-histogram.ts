// Latencies as counts per 10 us bucket, so that the rounds of one server and scenario (separate
// load generator runs) merge into one set of percentiles. Raw latencies would be exact but cost
// ~18 bytes of JSON each: a 2 s round of a fast server is ~100k answers, ~2 MB on the generator's
// stdout per round. The buckets seen stay in the hundreds to a few thousand (tens of KB), and
// 10 us is under 1% of the p50 at 50 connections here (>= 1 ms) and far below the 5 ms p99 bar.

/** Bucket index (latency in 10 us units, rounded up) -> answers in it. */
export type LatencyHistogram = Record<string, number>;

const BUCKETS_PER_MS = 100;

// Rounded up, so that a percentile read from the buckets is never lower than the latency it
// stands for (at most 10 us higher). The tolerance keeps 0.3 ms (0.3 * 100 = 30.000000000000004)
// in bucket 30 rather than 31.
const bucketOf = (ms: number) => Math.max(0, Math.ceil(ms * BUCKETS_PER_MS - 1e-6));

export function histogramOf(latenciesMs: Iterable<number>): LatencyHistogram {
  const histogram: LatencyHistogram = {};
  for (const ms of latenciesMs) {
    const bucket = bucketOf(ms);
    histogram[bucket] = (histogram[bucket] ?? 0) + 1;
  }
  return histogram;
}

export function mergeHistograms(histograms: readonly LatencyHistogram[]): LatencyHistogram {
  const merged: LatencyHistogram = {};
  for (const histogram of histograms) {
    for (const [bucket, count] of Object.entries(histogram)) merged[bucket] = (merged[bucket] ?? 0) + count;
  }
  return merged;
}

/**
 * The nearest-rank percentile `p` (0-100] in ms, as the load generator computes it on raw
 * latencies (the ceil(p% of n)-th smallest), to the bucket's upper edge; NaN when empty.
 */
export function histogramPercentile(histogram: LatencyHistogram, p: number): number {
  const buckets = Object.keys(histogram).map(Number).sort((a, b) => a - b);
  const total = buckets.reduce((n, bucket) => n + histogram[bucket], 0);
  if (total === 0) return Number.NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const bucket of buckets) {
    seen += histogram[bucket];
    if (seen >= rank) return bucket / BUCKETS_PER_MS;
  }
  return buckets[buckets.length - 1] / BUCKETS_PER_MS;
}
