// Several servers under one load at the same time, on the same core, each from a load generator of
// its own: the kernel shares the server core between them, they all feel the machine's drift
// alike, and the ratio of two rates is the ratio of their costs per request. Each rate is about
// 1/n of what the server does alone on the core.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { warmAndMeasure, type GeneratorName, type LoadResult } from './load.ts';
import type { Scenario } from './scenarios.ts';
import { RESULTS, startServer, type RunningServer, type ServerCommand } from './server.ts';

export interface Started {
  server: { title: string };
  running: RunningServer;
}

/**
 * Loads every server with `scenario` at the same time, `seconds` measured after the same warm-up,
 * the connections shared out evenly, each from a generator of its own on the load core. Throws
 * when a server exited meanwhile: against it the load only counted refused connections.
 */
export async function loadAtOnce(
  servers: readonly Started[],
  scenario: Scenario,
  settings: { generator: GeneratorName; connections: number; warmupSeconds: number },
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
 * Starts every server (output to bench/results/logs/`logPrefix`-N.log), loads them at the same time
 * with each scenario in turn, and stops them: the loads per scenario, in the servers' order.
 */
export async function compareAtOnce(
  servers: readonly ServerCommand[],
  scenarios: readonly Scenario[],
  settings: { generator: GeneratorName; connections: number; warmupSeconds: number; durationSeconds: number },
  logPrefix: string,
  say: (line: string) => void,
): Promise<LoadResult[][]> {
  mkdirSync(join(RESULTS, 'logs'), { recursive: true });
  const running: Started[] = [];
  try {
    for (const [i, server] of servers.entries())
      running.push({
        server,
        running: await startServer(server, { logFile: join(RESULTS, 'logs', `${logPrefix}-${i}.log`) }),
      });
    const results: LoadResult[][] = [];
    for (const scenario of scenarios) {
      const loads = await loadAtOnce(running, scenario, settings, settings.durationSeconds);
      const rates = loads.map((load, i) => `${servers[i].title} ${Math.round(load.requestsPerSecond)}`);
      say(`  ${scenario.title}: ${rates.join(', ')} req/s at the same time`);
      results.push(loads);
    }
    return results;
  } finally {
    await Promise.all(running.map((r) => r.running.stop()));
  }
}
