// The Plant Store suite's side-by-side loads. Every server is started on its core first (its start-up
// measured over a few fresh spawns; the last spawn stays up), then each scenario loads the servers
// one after the other, the order rotating from scenario to scenario so that none always goes first;
// a server's RSS is read after its load. One load at a time: the servers share their core, and
// those not under load sit idle. Then the paired loads (paired.ts) of the mock and the baseline at
// the same time.
import type { LoadSettings } from '../lib/options.ts';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadAtOnce } from '../lib/compare.ts';
import { warmAndMeasure, type LoadResult } from '../lib/load.ts';
import { pairedResultOf, type PairedResult } from './paired.ts';
import type { ScenarioName, Scenario } from '../lib/scenarios.ts';
import { startServer, type RunningServer } from '../lib/server.ts';
import type { ServerDefinition, ServerName } from './servers.ts';

export interface ScenarioResult extends LoadResult {
  rssBytes: number;
  peakRssBytes: number;
  /** About the resources the server held when its RSS was read: the creates of this and earlier scenarios. */
  storedAfter: number;
}

export interface ServerResult {
  name: ServerName;
  title: string;
  startupMs: { median: number; samples: number[] };
  scenarios: Partial<Record<ScenarioName, ScenarioResult>>;
}

export interface MeasureSettings extends LoadSettings {
  scenarios: readonly Scenario[];
  logDir: string;
  say(line: string): void;
}

export interface MeasuredServers {
  results: Partial<Record<ServerName, ServerResult>>;
  /** Per scenario, the mock and the baseline loaded at the same time (when both are up). */
  paired: Partial<Record<ScenarioName, PairedResult>>;
  /** What could not be measured, and why: a server that did not start, or failed under load. */
  broken: string[];
}

/** A started server and what has been measured of it so far. */
export interface Contender {
  server: ServerDefinition;
  running: RunningServer;
  startupSamples: number[];
  /** Resources it holds: the start-up probe that answered 200, then every create of the loads. */
  stored: number;
  scenarios: ServerResult['scenarios'];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const rotate = <T>(items: readonly T[], by: number): T[] => items.map((_, i) => items[(i + by) % items.length]);

async function start(server: ServerDefinition, settings: MeasureSettings): Promise<Contender> {
  const logFile = join(settings.logDir, `${server.name}.log`);
  const samples: number[] = [];
  let running: RunningServer | undefined;
  try {
    for (let i = 0; i < settings.startupSamples; i++) {
      await running?.stop();
      running = await startServer(server, { logFile });
      samples.push(running.startupMs);
    }
  } catch (error) {
    await running?.stop();
    throw error;
  }
  settings.say(`${server.title}: start-up ${samples.map((ms) => `${Math.round(ms)}`).join(', ')} ms`);
  return { server, running: running as RunningServer, startupSamples: samples, stored: 1, scenarios: {} };
}

const resultOf = (c: Contender): ServerResult => ({
  name: c.server.name,
  title: c.server.title,
  startupMs: { median: median(c.startupSamples), samples: c.startupSamples },
  scenarios: c.scenarios,
});

/** Loads one server with one scenario and records its result. */
async function measure(contender: Contender, scenario: Scenario, settings: MeasureSettings): Promise<ScenarioResult> {
  const { running } = contender;
  const load = await warmAndMeasure(
    settings.generator,
    { url: running.url, scenario, connections: settings.connections, seconds: settings.durationSeconds },
    settings.warmupSeconds,
    running.pid,
  );
  // Against a server that is gone the load only counts refused connections: not a figure.
  const exit = running.exit();
  if (exit) throw new Error(`it exited during the load (${exit}); its output: ${running.logFile}`);
  contender.stored += load.created;
  const result = { ...load, ...running.memory(), storedAfter: contender.stored };
  contender.scenarios[scenario.name] = result;
  return result;
}

/** Starts every server, measures them all, and stops them; one that fails leaves the others measured. */
export async function measureServers(
  servers: readonly ServerDefinition[],
  settings: MeasureSettings,
): Promise<MeasuredServers> {
  mkdirSync(settings.logDir, { recursive: true });
  const results: MeasuredServers['results'] = {};
  const broken: string[] = [];
  let paired: MeasuredServers['paired'] = {};
  const fail = (server: ServerDefinition, what: string, error: unknown) => {
    broken.push(`${server.title}: ${what}${(error as Error).message}`);
    settings.say(`bench: ${server.title} failed: ${what}${(error as Error).message}`);
  };
  const live = new Map<ServerName, Contender>();
  try {
    for (const server of servers) {
      try {
        live.set(server.name, await start(server, settings));
      } catch (error) {
        fail(server, '', error);
      }
    }
    for (const [index, scenario] of settings.scenarios.entries()) {
      const figures: string[] = [];
      for (const name of rotate([...live.keys()], index)) {
        const contender = live.get(name) as Contender;
        try {
          const load = await measure(contender, scenario, settings);
          const odd =
            load.unexpected + load.errors + load.timeouts > 0
              ? ` (${load.unexpected} unexpected statuses, ${load.errors} errors, ${load.timeouts} timeouts)`
              : '';
          figures.push(`${contender.server.title} ${int(load.requestsPerSecond)}${odd}`);
        } catch (error) {
          // Its finished scenarios stay in the results.
          fail(contender.server, `${scenario.title}: `, error);
          live.delete(name);
          results[name] = resultOf(contender);
          await contender.running.stop();
        }
      }
      settings.say(`  ${scenario.title}: ${figures.join(', ')} req/s`);
    }
    paired = await measurePairs(live, settings, broken);
    for (const [name, contender] of live) results[name] = resultOf(contender);
  } finally {
    await Promise.all([...live.values()].map((c) => c.running.stop()));
  }
  // In the servers' order, whenever each one finished.
  const ordered: MeasuredServers['results'] = {};
  for (const server of servers) if (results[server.name]) ordered[server.name] = results[server.name];
  return { results: ordered, paired, broken };
}

/** Every scenario's paired loads, half the connections each, when both servers are up; a failure is noted in `broken`. */
async function measurePairs(
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
