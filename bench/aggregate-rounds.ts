// One server's rounds of one scenario (separate load generator runs, interleaved with the other
// servers') as one result: counts summed, the rate over the summed time, percentiles from the
// merged latencies, the generator's CPU share weighted by each round's length.
import { histogramPercentile, mergeHistograms } from './latency-histogram.ts';
import type { LoadOutput, LoadResult } from './load-generator.ts';

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Answers with another status than expected, errors and timeouts: what the tables call odd. */
export const oddAnswers = (load: Pick<LoadResult, 'unexpected' | 'errors' | 'timeouts'>) => load.unexpected + load.errors + load.timeouts;

function addCounts(maps: Record<string, number>[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const map of maps) for (const [key, n] of Object.entries(map)) total[key] = (total[key] ?? 0) + n;
  return total;
}

export function aggregateRounds(rounds: readonly LoadOutput[]): LoadResult {
  if (rounds.length === 0) throw new Error('aggregateRounds needs at least one round');
  const requests = sum(rounds.map((r) => r.requests));
  const seconds = sum(rounds.map((r) => r.seconds));
  const latencies = mergeHistograms(rounds.map((r) => r.latencyHistogram));
  return {
    requests,
    seconds,
    requestsPerSecond: requests / seconds,
    p50Ms: histogramPercentile(latencies, 50),
    p99Ms: histogramPercentile(latencies, 99),
    // Each round's max is exact (not bucketed); NaN only if no round had an answer.
    maxMs: requests === 0 ? Number.NaN : Math.max(...rounds.filter((r) => r.requests > 0).map((r) => r.maxMs)),
    statuses: addCounts(rounds.map((r) => r.statuses)),
    unexpected: sum(rounds.map((r) => r.unexpected)),
    errors: sum(rounds.map((r) => r.errors)),
    timeouts: sum(rounds.map((r) => r.timeouts)),
    perSecond: rounds.flatMap((r) => r.perSecond),
    created: sum(rounds.map((r) => r.created)),
    generatorCpuPercent: sum(rounds.map((r) => r.generatorCpuPercent * r.seconds)) / seconds,
    // The server's CPU over all rounds' answers (each round's share weighted by its answers).
    serverCpuMicrosPerRequest: rounds.every((r) => r.serverCpuMicrosPerRequest !== undefined) && requests > 0 ? sum(rounds.map((r) => (r.serverCpuMicrosPerRequest as number) * r.requests)) / requests : undefined,
  };
}
