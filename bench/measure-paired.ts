// The paired loads. This machine's speed drifts by tens of percent within seconds, so two loads run
// one after the other compare two machines. Here the mock and the baseline take their loads at the
// same time, on the same core (each from its own load generator, both on the load core): the kernel
// shares the server core between them, both feel the same drift, and the ratio of their rates is
// the ratio of their costs per request. Each rate alone is about half what it is alone on the core.
import type { LoadSettings } from './bench-options.ts';
import { warmAndMeasure, type LoadResult } from './load-generator.ts';
import type { Contender, MeasureSettings, MeasuredServers } from './measure-servers.ts';
import type { Scenario } from './scenarios.ts';
import type { RunningServer } from './server-process.ts';
import type { ServerName } from './servers.ts';

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

const odd = (load: LoadResult) => load.unexpected + load.errors + load.timeouts;

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

/**
 * Loads every server with `scenario` at the same time, `seconds` measured after the same warm-up,
 * the connections shared out evenly, each from a generator of its own on the load core. Throws
 * when a server exited meanwhile: against it the load only counted refused connections.
 */
export async function loadAtOnce(
  servers: readonly { server: { title: string }; running: RunningServer }[],
  scenario: Scenario,
  settings: Pick<LoadSettings, 'generator' | 'connections' | 'warmupSeconds'>,
  seconds: number,
): Promise<LoadResult[]> {
  const connections = Math.max(1, Math.floor(settings.connections / servers.length));
  // Generators started in the same turn, with the same warm-up: their measured windows overlap
  // all but a few milliseconds at either end.
  const loads = await Promise.all(
    servers.map((s) =>
      warmAndMeasure(
        settings.generator,
        { url: s.running.url, scenario, connections, seconds },
        settings.warmupSeconds,
        s.running.pid,
      ),
    ),
  );
  for (const s of servers) {
    const exit = s.running.exit();
    if (exit) throw new Error(`${s.server.title} exited during the load (${exit}); its output: ${s.running.logFile}`);
  }
  return loads;
}

/**
 * Every scenario's paired loads, half the connections each, when both servers are up; a failure is noted in `broken`.
 *
 */
export async function measurePairs(
  live: Map<ServerName, Contender>,
  settings: MeasureSettings,
  broken: string[],
): Promise<MeasuredServers['paired']> {
  const paired: MeasuredServers['paired'] = {};
  const [plantstore, baseline] = [live.get('plantstore'), live.get('baseline')];
  if (settings.pairedSeconds <= 0 || !plantstore || !baseline) return paired;
  const pair = [plantstore, baseline];
  for (const scenario of settings.scenarios) {
    try {
      const [ours, theirs] = await loadAtOnce(pair, scenario, settings, settings.pairedSeconds);
      // After every scenario's RSS was read: these creates are counted, but no storedAfter shows them.
      plantstore.stored += ours.created;
      baseline.stored += theirs.created;
      const result = pairedResultOf(ours, theirs, settings.pairedSeconds);
      paired[scenario.name] = result;
      const note = result.odd > 0 ? ` (${result.odd} unexpected statuses, errors or timeouts)` : '';
      settings.say(
        `  ${scenario.title}, paired: ${Math.round(result.plantstore)} and ${Math.round(result.baseline)} req/s at the same time, ${result.ratio.toFixed(2)}x${note}`,
      );
    } catch (error) {
      broken.push(`paired ${scenario.title}: ${(error as Error).message}`);
      settings.say(`bench: paired ${scenario.title} failed: ${(error as Error).message}`);
      // A server that is gone would only count refused connections in the next scenarios.
      if (pair.some((c) => c.running.exit())) break;
    }
  }
  return paired;
}
