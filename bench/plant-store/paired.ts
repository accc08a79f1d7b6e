// The paired loads. This machine's speed drifts by tens of percent within seconds, so two loads run
// one after the other compare two machines. Here the mock and the baseline take their loads at the
// same time, on the same core (each from its own load generator, both on the load core): the kernel
// shares the server core between them, both feel the same drift, and the ratio of their rates is
// the ratio of their costs per request. Each rate alone is about half what it is alone on the core.
import { oddAnswers as odd, type LoadResult } from '../lib/load.ts';

/** One scenario's paired loads: each server's rate while the other was under load too. */
export interface PairedResult {
  /** plantstore mock req/s. */
  plantstore: number;
  /** bare node:http req/s. */
  baseline: number;
  /** plantstore ÷ baseline: the baseline's cost per request over ours. */
  ratio: number;
  plantstoreCpuMicrosPerRequest?: number;
  baselineCpuMicrosPerRequest?: number;
  /** Measured seconds of each load (both ran them at the same time, after the same warm-up). */
  seconds: number;
  /** The two load generators' CPU summed: they share one core, and near 100% it sets the pace. */
  generatorCpuPercent: number;
  /** Answers of either load with another status than expected, errors and timeouts. */
  odd: number;
}

/** The two loads' figures side by side (the ratio is NaN when the baseline answered nothing). */
export function pairedResultOf(plantstore: LoadResult, baseline: LoadResult, seconds: number): PairedResult {
  return {
    plantstore: plantstore.requestsPerSecond,
    baseline: baseline.requestsPerSecond,
    ratio: baseline.requestsPerSecond > 0 ? plantstore.requestsPerSecond / baseline.requestsPerSecond : Number.NaN,
    plantstoreCpuMicrosPerRequest: plantstore.serverCpuMicrosPerRequest,
    baselineCpuMicrosPerRequest: baseline.serverCpuMicrosPerRequest,
    seconds,
    generatorCpuPercent: plantstore.generatorCpuPercent + baseline.generatorCpuPercent,
    odd: odd(plantstore) + odd(baseline),
  };
}
