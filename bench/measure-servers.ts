// The side-by-side part of the benchmark: each server alone on its core, its start-up measured
// over a few fresh spawns, then every scenario warmed up and measured against the last spawn,
// with its RSS read after each load. One server at a time, so they never compete.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadResult } from './load-generator.ts';
import type { GeneratorName } from './load-phase.ts';
import { runLoad } from './run-load.ts';
import type { ScenarioName, Scenario } from './scenarios.ts';
import { startServer, type RunningServer } from './server-process.ts';
import type { ServerDefinition, ServerName } from './servers.ts';

export interface ScenarioResult extends LoadResult {
  rssBytes: number;
  peakRssBytes: number;
  /** Resources the server held when its RSS was read: the creates of this and earlier scenarios. */
  storedAfter: number;
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
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
  generator: GeneratorName;
  startupSamples: number;
  logDir: string;
  nodeFlags?: string[];
  say(line: string): void;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// Each scenario's ids start in their own range, far from the others' and from the probes'.
const ID_RANGE = 1_000_000_000_000n;

export async function measureServer(server: ServerDefinition, settings: MeasureSettings): Promise<ServerResult> {
  mkdirSync(settings.logDir, { recursive: true });
  const logFile = join(settings.logDir, `${server.name}.log`);
  const samples: number[] = [];
  let running: RunningServer | undefined;
  try {
    for (let i = 0; i < settings.startupSamples; i++) {
      await running?.stop();
      running = await startServer(server, { logFile, nodeFlags: settings.nodeFlags });
      samples.push(running.startupMs);
    }
    settings.say(`${server.title}: start-up ${samples.map((ms) => `${Math.round(ms)}`).join(', ')} ms`);
    const live = running as RunningServer;
    const scenarios: ServerResult['scenarios'] = {};
    let stored = 1; // the start-up probe that answered 200
    for (const [index, scenario] of settings.scenarios.entries()) {
      const load = await runLoad({
        url: live.url,
        scenario: scenario.name,
        connections: settings.connections,
        warmupSeconds: settings.warmupSeconds,
        durationSeconds: settings.durationSeconds,
        idStart: String(BigInt(index + 1) * ID_RANGE),
        generator: settings.generator,
      });
      stored += load.created;
      scenarios[scenario.name] = { ...load, ...live.memory(), storedAfter: stored };
      const odd = load.unexpected + load.errors + load.timeouts > 0 ? `  (${load.unexpected} unexpected statuses, ${load.errors} errors, ${load.timeouts} timeouts)` : '';
      settings.say(`  ${scenario.title}: ${Math.round(load.requestsPerSecond).toLocaleString('en-US')} req/s${odd}`);
    }
    const logBytes = live.logBytes();
    return { name: server.name, title: server.title, startupMs: { median: median(samples), samples }, scenarios, logBytes, logFile };
  } finally {
    await running?.stop();
  }
}
