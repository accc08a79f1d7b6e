// The Plant Store suite, the benchmark's main part: the plantstore mock (default settings, request
// log on), Prism 5.16 mocking the same document, and a bare node:http plant store, side by side in
// one run (measure.ts), with the mock and the baseline also loaded at the same time (paired.ts);
// then the example generator's and the conformance runner's rates. Prints tables, ratios and the
// bar, and writes every figure to bench/results/latest.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import type { BenchOptions } from '../lib/options.ts';
import { LOAD_CORE, pinningUnavailable, SERVER_CORE } from '../lib/processes.ts';
import { SCENARIOS } from '../lib/scenarios.ts';
import { RESULTS } from '../lib/server.ts';
import { judgeBar } from './bar.ts';
import { measureExamples } from './examples.ts';
import { measureServers } from './measure.ts';
import { formatBar, formatExtras, formatServers } from './report.ts';
import { ratiosOf, type BenchReport } from './results.ts';
import { SERVERS } from './servers.ts';
import { measureVerify } from './verify.ts';

async function measure(
  options: BenchOptions,
  say: (line: string) => void,
): Promise<{ report: BenchReport; broken: string[] }> {
  const started = performance.now();
  const cores = availableParallelism();
  const resultsDir = RESULTS;
  const logDir = join(resultsDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const report: BenchReport = {
    startedAt: new Date().toISOString(),
    wallSeconds: 0,
    machine: {
      cores,
      cpu: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      loadAverageBefore: loadavg(),
      loadAverageAfter: [],
    },
    settings: {
      durationSeconds: options.durationSeconds,
      warmupSeconds: options.warmupSeconds,
      connections: options.connections,
      generator: options.generator,
      startupSamples: options.startupSamples,
      pairedSeconds: options.pairedSeconds,
      pinning: pinningUnavailable
        ? `off (${pinningUnavailable})`
        : `servers on core ${SERVER_CORE}, load generator on core ${LOAD_CORE}`,
    },
    servers: {},
    ratios: {},
    bar: [],
  };
  if (pinningUnavailable)
    say(`bench: warning: no CPU pinning (${pinningUnavailable}); the server and the load generator share cores`);
  if (report.machine.loadAverageBefore[0] > 0.5)
    say(
      `bench: note: load average ${report.machine.loadAverageBefore[0].toFixed(2)} before the run; other work on this machine skews the figures`,
    );
  const paired =
    options.pairedSeconds > 0
      ? `; then per scenario ${options.pairedSeconds} s of the mock and the baseline loaded at the same time`
      : '';
  say(
    `bench: load generator ${options.generator}; starting ${SERVERS.length} servers, then ${SCENARIOS.length} scenarios of ${options.warmupSeconds} s warm-up + ${options.durationSeconds} s per server${paired}`,
  );
  const measured = await measureServers(SERVERS, { ...options, scenarios: SCENARIOS, logDir, say });
  report.servers = measured.results;
  const broken = [...measured.broken];
  report.ratios = ratiosOf(
    report.servers,
    SCENARIOS.map((s) => s.name),
    measured.paired,
  );
  say(`bench: example generator (${options.exampleCount.toLocaleString('en-US')} NewPlant examples)`);
  report.examples = await measureExamples(options.exampleCount, say);
  say(`bench: conformance runner (verify --generate ${options.verifyGenerate})`);
  const verify = await measureVerify(options.verifyGenerate, resultsDir);
  const raw = report.servers.plantstore?.scenarios.valid?.requestsPerSecond;
  report.verify = {
    ...verify,
    rawRequestsPerSecond: raw,
    ratioToRaw: raw && verify.casesPerSecond ? verify.casesPerSecond / raw : undefined,
  };
  report.bar = judgeBar(report.servers, measured.paired.valid);
  report.machine.loadAverageAfter = loadavg();
  report.wallSeconds = (performance.now() - started) / 1000;
  return { report, broken };
}

/** Runs the suite and prints its report; what the harness could not measure. */
export async function runPlantStoreBench(options: BenchOptions, say: (line: string) => void): Promise<string[]> {
  const { report, broken } = await measure(options, say);
  const out = [
    '',
    `plantstore benchmark: ${report.machine.cores} cores (${report.machine.cpu}), Node ${report.machine.node}, load generator ${report.settings.generator} with ${report.settings.connections} connections, ${report.settings.warmupSeconds} s warm-up + ${report.settings.durationSeconds} s per server and scenario; ${report.settings.pinning}`,
    formatServers(report, SCENARIOS),
    '',
    formatExtras(report),
    '',
    formatBar(report),
    '',
    `figures: ${relative(process.cwd(), options.resultsFile) || options.resultsFile}  (whole run ${report.wallSeconds.toFixed(0)} s)`,
  ];
  process.stdout.write(`${out.filter((line, i) => line !== '' || out[i - 1] !== '').join('\n')}\n`);
  writeFileSync(options.resultsFile, `${JSON.stringify({ ...report, broken }, null, 2)}\n`);
  return broken;
}
