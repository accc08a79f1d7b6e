// The paired part of the benchmark. Loads run one after the other compare two machines: this one's
// speed drifts by 30-50% within seconds. Here the mock and the baseline take their loads at the
// same time, on the same core (each from its own load generator, both on the load core): the kernel
// shares the server core between them, both feel the same drift, and the ratio of their rates is
// the ratio of their costs per request. Each rate alone is about half what it is alone on the core.
import { oddAnswers } from './aggregate-rounds.ts';
import type { GeneratorName } from './load-phase.ts';
import type { LoadOutput, LoadResult } from './load-generator.ts';
import { runLoad } from './run-load.ts';
import type { Scenario } from './scenarios.ts';
import type { RunningServer } from './server-process.ts';

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

export interface PairSettings {
  connections: number;
  warmupSeconds: number;
  pairedSeconds: number;
  generator: GeneratorName;
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
    odd: oddAnswers(plantstore) + oddAnswers(baseline),
  };
}

/**
 * Loads the mock and the baseline at the same time with half the connections each, ids from
 * `idStarts` (one fresh range per load); resolves to both loads' figures.
 */
export async function measurePair(plantstore: RunningServer, baseline: RunningServer, scenario: Scenario, idStarts: [string, string], settings: PairSettings): Promise<[LoadOutput, LoadOutput]> {
  const load = (server: RunningServer, idStart: string) => runLoad({
    url: server.url,
    scenario: scenario.name,
    connections: Math.max(1, Math.floor(settings.connections / 2)),
    warmupSeconds: settings.warmupSeconds,
    durationSeconds: settings.pairedSeconds,
    idStart,
    generator: settings.generator,
    serverPid: server.pid,
  });
  // The two generators start within milliseconds of each other and run the same warm-up, so their
  // measured windows overlap all but a few milliseconds at either end.
  const loads = await Promise.all([load(plantstore, idStarts[0]), load(baseline, idStarts[1])]);
  // Against a server that is gone a load only counts refused connections: not a figure.
  for (const [title, server] of [['plantstore mock', plantstore], ['bare node:http', baseline]] as const) {
    const exit = server.exit();
    if (exit) throw new Error(`${title} exited during the paired load (${exit}); its output: ${server.logFile}`);
  }
  return loads;
}
