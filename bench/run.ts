// Issue 5's benchmark: the plantstore mock (default settings, request log on), Prism 5.16 mocking
// the same document, and a bare node:http plant store, side by side in one run; then the example
// generator's and the conformance runner's rates. Prints tables, ratios and the bar, and
// writes every figure to bench/results/latest.json. It asserts nothing (benchmarks are not tests).
// Then issue 18's large-document part (bench/large-documents.ts): Stripe's and GitHub's documents,
// plantstore against Prism, start-up, first answers, RSS, SIGTERM.
// Before it, issue 22's MSW part (bench/msw.ts): plantstore/msw against @mswjs/source, first answers
// and steady state in Node, and the browser bundle's size (--msw-only, --skip-msw).
// Run: npm run bench [-- --duration S | --paired S | --quick | --generator wrk|autocannon
//                        | --large-only | --skip-large | --adapters]
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { runAdaptersBench } from './adapters.ts';
import { runUnhappyPathBench } from './unhappy-path.ts';
import { judgeBar } from './bar.ts';
import { formatLargeReport, measureLargeDocuments } from './large-documents.ts';
import { resolveBenchOptions, USAGE, type BenchOptions } from './bench-options.ts';
import { ratiosOf, type BenchReport } from './bench-report.ts';
import { LOAD_CORE, pinningUnavailable, SERVER_CORE } from './cpu-pinning.ts';
import { measureExamples } from './example-bench.ts';
import { measureServers } from './measure-servers.ts';
import { runMsw } from './msw.ts';
import { formatBar, formatExtras, formatServers } from './report-text.ts';
import { SCENARIOS } from './scenarios.ts';
import { ROOT, SERVERS } from './servers.ts';
import { measureVerify } from './verify-bench.ts';

const say = (line: string) => process.stderr.write(`${line}\n`);

async function bench(options: BenchOptions): Promise<{ report: BenchReport; broken: string[] }> {
  const started = performance.now();
  const cores = availableParallelism();
  const resultsDir = join(ROOT, 'bench', 'results');
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

if (Number(process.versions.node.split('.')[0]) < 24) {
  say(
    `bench: needs Node 24 (this is ${process.version}); run it with \`npm run bench\`, which puts the project's Node 24 first on PATH.`,
  );
  process.exit(2);
}
// The mock on Redis is a part of its own too (bench/redis-state.ts): --redis-only [--seconds S].
if (process.argv.includes('--redis-only')) {
  const { runRedisBench } = await import('./redis-state.ts');
  process.exit(await runRedisBench(process.argv.slice(2).filter((arg) => arg !== '--redis-only')));
}
// The proxy's figures are a part of their own (bench/proxy.ts), with flags of their own.
if (process.argv.includes('--proxy-only')) {
  const { runProxyBench } = await import('./proxy.ts');
  process.exit(await runProxyBench(process.argv.slice(2).filter((arg) => arg !== '--proxy-only')));
}
let options: BenchOptions | 'help';
try {
  options = resolveBenchOptions(process.argv.slice(2));
} catch (error) {
  say(`bench: ${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (options === 'help') {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
/** The large-document part; false when the harness could not run it (no registry, no tar). */
async function runLarge(large: NonNullable<BenchOptions['large']>): Promise<boolean> {
  try {
    process.stdout.write(`\n${formatLargeReport(await measureLargeDocuments(large, say))}\n`);
    return true;
  } catch (error) {
    say(`bench: the large-document part stopped: ${(error as Error).message}`);
    return false;
  }
}
// Issue 20's adapter comparison is a part of its own (bench/adapters.ts).
if (options.adapters) process.exit(await runAdaptersBench(options, say));
// So is the unhappy path's (bench/unhappy-path.ts).
if (options.unhappyPath) process.exit(await runUnhappyPathBench(options, say));
if (options.largeOnly && options.large) process.exit((await runLarge(options.large)) ? 0 : 1);
if (options.mswOnly && options.msw) process.exit((await runMsw(options.msw, say)) ? 0 : 1);
const { report, broken } = await bench(options);
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
if (options.msw) {
  say('bench: MSW handlers, plantstore/msw against @mswjs/source');
  if (!(await runMsw(options.msw, say))) broken.push('the MSW part (see above)');
}
if (options.large) {
  say('bench: large documents (Stripe, GitHub), plantstore against Prism');
  if (!(await runLarge(options.large))) broken.push('the large-document part (see above)');
}
if (broken.length > 0) {
  say(`bench: the harness could not measure everything:\n  ${broken.join('\n  ')}`);
  process.exitCode = 1;
}
