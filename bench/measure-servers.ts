// The side-by-side part of the benchmark. Every server is started on its core first (its start-up
// measured over a few fresh spawns; the last spawn stays up), then each scenario is measured in
// rounds that take the servers one after the other, in a rotating order (round-schedule.ts), so
// that their ratios compare loads run seconds apart on this drifting machine. A server's rounds
// merge into its result for the scenario; its RSS is read after its load in the last round.
// One load at a time: the servers share their core, and those not under load sit idle. After the
// rounds, the paired part (measure-paired.ts) loads the mock and the baseline at the same time.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { aggregateRounds, oddAnswers } from './aggregate-rounds.ts';
import type { LoadOutput, LoadResult } from './load-generator.ts';
import type { GeneratorName } from './load-phase.ts';
import { measurePair, pairedResultOf, type PairedResult } from './measure-paired.ts';
import { pairedIdStarts, roundSchedule, type ScheduledRound } from './round-schedule.ts';
import { runLoad } from './run-load.ts';
import type { ScenarioName, Scenario } from './scenarios.ts';
import { startServer, type RunningServer } from './server-process.ts';
import type { ServerDefinition, ServerName } from './servers.ts';

/** One round of one server in one scenario, as the load generator measured it, and the server's 1-based place in the round's order. */
export type RoundFigures = Pick<LoadResult, 'requests' | 'seconds' | 'requestsPerSecond' | 'p50Ms' | 'p99Ms' | 'maxMs' | 'generatorCpuPercent'> & { position: number };

/** A server's rounds of one scenario merged (aggregate-rounds.ts), with each round's own figures. */
export interface ScenarioResult extends LoadResult {
  rssBytes: number;
  peakRssBytes: number;
  /** Resources the server held when its RSS was read: the creates of this and earlier scenarios. */
  storedAfter: number;
  /** In round order: how far the machine moved the figures from round to round. */
  rounds: RoundFigures[];
}

export interface ServerResult {
  name: ServerName;
  title: string;
  startupMs: { median: number; samples: number[] };
  scenarios: Partial<Record<ScenarioName, ScenarioResult>>;
  /** Bytes the server wrote to its log file during the whole run (its request log included). */
  logBytes: number;
  logFile: string;
}

export interface MeasureSettings {
  scenarios: readonly Scenario[];
  /** Measured seconds per server and scenario, over all rounds. */
  durationSeconds: number;
  rounds: number;
  warmupSeconds: number;
  connections: number;
  generator: GeneratorName;
  startupSamples: number;
  /** Measured seconds of each scenario's paired loads; 0 skips them. */
  pairedSeconds: number;
  logDir: string;
  /** Extra node flags per server (e.g. --cpu-prof for the mock). */
  nodeFlags: Partial<Record<ServerName, string[]>>;
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
interface Contender {
  server: ServerDefinition;
  running: RunningServer;
  startupSamples: number[];
  /** Resources it holds: the start-up probe that answered 200, then every create of the loads. */
  stored: number;
  /** The current scenario's rounds so far. */
  rounds: { load: LoadOutput; position: number }[];
  scenarios: ServerResult['scenarios'];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const int = (n: number) => Math.round(n).toLocaleString('en-US');

async function start(server: ServerDefinition, settings: MeasureSettings): Promise<Contender> {
  const logFile = join(settings.logDir, `${server.name}.log`);
  const samples: number[] = [];
  let running: RunningServer | undefined;
  try {
    for (let i = 0; i < settings.startupSamples; i++) {
      await running?.stop();
      running = await startServer(server, { logFile, nodeFlags: settings.nodeFlags[server.name] });
      samples.push(running.startupMs);
    }
  } catch (error) {
    await running?.stop();
    throw error;
  }
  settings.say(`${server.title}: start-up ${samples.map((ms) => `${Math.round(ms)}`).join(', ')} ms`);
  return { server, running: running as RunningServer, startupSamples: samples, stored: 1, rounds: [], scenarios: {} };
}

const resultOf = (c: Contender): ServerResult => ({
  name: c.server.name,
  title: c.server.title,
  startupMs: { median: median(c.startupSamples), samples: c.startupSamples },
  scenarios: c.scenarios,
  logBytes: c.running.logBytes(),
  logFile: c.running.logFile,
});

const figuresOf = ({ load, position }: Contender['rounds'][number]): RoundFigures => ({
  position,
  requests: load.requests,
  seconds: load.seconds,
  requestsPerSecond: load.requestsPerSecond,
  p50Ms: load.p50Ms,
  p99Ms: load.p99Ms,
  maxMs: load.maxMs,
  generatorCpuPercent: load.generatorCpuPercent,
});

/** Runs one server's load of one round; after the scenario's last round, records its merged result. */
async function measureRound(contender: Contender, scenario: Scenario, step: ScheduledRound<ServerName>, position: number, settings: MeasureSettings): Promise<LoadOutput> {
  const load = await runLoad({
    url: contender.running.url,
    scenario: scenario.name,
    connections: settings.connections,
    warmupSeconds: step.warmupSeconds,
    durationSeconds: step.durationSeconds,
    idStart: step.idStart,
    generator: settings.generator,
    serverPid: contender.running.pid,
  });
  // Against a server that is gone the load only counts refused connections: not a figure.
  const exit = contender.running.exit();
  if (exit) throw new Error(`it exited during the load (${exit}); its output: ${contender.running.logFile}`);
  contender.stored += load.created;
  if (step.round === 0) contender.rounds = [];
  contender.rounds.push({ load, position });
  if (step.last) {
    const loads = contender.rounds.map((r) => r.load);
    contender.scenarios[scenario.name] = { ...aggregateRounds(loads), ...contender.running.memory(), storedAfter: contender.stored, rounds: contender.rounds.map(figuresOf) };
  }
  return load;
}

/** Every scenario's paired loads of the mock and the baseline, when both are up; a failure is noted in `broken`. */
async function measurePairs(live: Map<ServerName, Contender>, settings: MeasureSettings, broken: string[]): Promise<MeasuredServers['paired']> {
  const paired: MeasuredServers['paired'] = {};
  const plantstore = live.get('plantstore');
  const baseline = live.get('baseline');
  if (settings.pairedSeconds <= 0 || !plantstore || !baseline) return paired;
  for (const [index, scenario] of settings.scenarios.entries()) {
    try {
      const [ours, theirs] = await measurePair(plantstore.running, baseline.running, scenario, pairedIdStarts(index, settings.scenarios.length), settings);
      // After every scenario's RSS was read: these creates are counted, but no storedAfter shows them.
      plantstore.stored += ours.created;
      baseline.stored += theirs.created;
      const result = pairedResultOf(ours, theirs, settings.pairedSeconds);
      paired[scenario.name] = result;
      const odd = result.odd > 0 ? ` (${result.odd} unexpected statuses, errors or timeouts)` : '';
      settings.say(`  ${scenario.title}, paired: ${plantstore.server.title} ${int(result.plantstore)}, ${baseline.server.title} ${int(result.baseline)} req/s at the same time, ${result.ratio.toFixed(2)}x${odd}`);
    } catch (error) {
      broken.push(`paired ${scenario.title}: ${(error as Error).message}`);
      settings.say(`bench: paired ${scenario.title} failed: ${(error as Error).message}`);
      // A server that is gone would only count refused connections in the next scenarios.
      if (plantstore.running.exit() || baseline.running.exit()) break;
    }
  }
  return paired;
}

/** Starts every server, measures them all, interleaved, and stops them; one that fails leaves the others measured. */
export async function measureServers(servers: readonly ServerDefinition[], settings: MeasureSettings): Promise<MeasuredServers> {
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
    const scenarioNamed = new Map(settings.scenarios.map((s) => [s.name, s]));
    for (const step of roundSchedule([...live.keys()], [...scenarioNamed.keys()], settings)) {
      const scenario = scenarioNamed.get(step.scenario) as Scenario;
      const figures: string[] = [];
      for (const [index, name] of step.order.entries()) {
        const contender = live.get(name);
        if (!contender) continue; // it failed in an earlier round
        let load: LoadOutput;
        try {
          load = await measureRound(contender, scenario, step, index + 1, settings);
        } catch (error) {
          // Its finished scenarios stay in the results; this one's earlier rounds go with it.
          fail(contender.server, `${scenario.title}, round ${step.round + 1}: `, error);
          live.delete(name);
          results[name] = resultOf(contender);
          await contender.running.stop();
          continue;
        }
        const odd = oddAnswers(load) > 0 ? ` (${load.unexpected} unexpected statuses, ${load.errors} errors, ${load.timeouts} timeouts)` : '';
        figures.push(`${contender.server.title} ${int(load.requestsPerSecond)}${odd}`);
      }
      settings.say(`  ${scenario.title}, round ${step.round + 1}/${settings.rounds}: ${figures.join(', ')} req/s`);
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
