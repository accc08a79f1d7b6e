// The large-document suite: Stripe's and GitHub's public documents, mocked by plantstore
// (cold cache, then warm) and by Prism 5.16, each started a few times: spawn to listening, spawn to
// the first answer of a cheap valid GET, the first answer of each of N GET operations sampled with a
// fixed seed (where compiling on first use costs), the server's RSS after them, and SIGTERM to exit
// after listening and while loading. Medians over runs, ratios plantstore / Prism from the same run.
// Run: npm run bench -- --large-only [--large-runs N] [--large-ops N] [--large-timeout S]
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { machineAtStart, unpinSelf } from '../lib/processes.ts';
import { fetchLargeDocument, fileMegabytes, LARGE_DOCUMENTS } from '../lib/public-documents.ts';
import { documentRatios, formatDocument, type DocumentReport } from './report-text.ts';
import { getRequests, operationCount, probeRequest, sampleRequests } from '../lib/document-requests.ts';
import { measureRun, measureTermWhileLoading, type RunResult, type ServerCommand } from './server-run.ts';
import { summariseRuns, type ConfigSummary } from './summary.ts';
import type { LargeOptions } from '../lib/options.ts';
import { ROOT } from '../lib/server.ts';

export interface LargeReport {
  startedAt: string;
  wallSeconds: number;
  machine: { cores: number; node: string; loadAverageBefore: number[]; loadAverageAfter: number[] };
  settings: Omit<LargeOptions, 'resultsFile'>;
  documents: DocumentReport[];
}

const prismCli = () => createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');

function servers(file: string, cacheDir: () => string): Record<string, ServerCommand> {
  // Both on this Node 24 (process.execPath), so that the spawned pid is the server (bin/plantstore.js
  // replaces itself with execve, same pid, to add its heap flag); measureRun still looks for a child.
  const plantstore = (): ServerCommand => ({
    command: process.execPath,
    args: (port) => [
      join(ROOT, 'bin', 'plantstore.js'),
      'mock',
      '--spec',
      file,
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '--quiet',
    ],
    env: () => {
      const env: NodeJS.ProcessEnv = { ...process.env, PLANTSTORE_CACHE_DIR: cacheDir() };
      delete env.PLANTSTORE_NO_CACHE; // the warm start is the point of the second start
      return env;
    },
  });
  return {
    'plantstore-cold': plantstore(),
    'plantstore-warm': plantstore(),
    prism: {
      command: process.execPath,
      args: (port) => [prismCli(), 'mock', file, '--port', String(port), '--host', '127.0.0.1'],
    },
  };
}

async function measureDocument(
  index: number,
  options: LargeOptions,
  logDir: string,
  say: (line: string) => void,
): Promise<DocumentReport> {
  const source = LARGE_DOCUMENTS[index];
  const file = fetchLargeDocument(source, say);
  const document = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const requests = getRequests(document);
  const probe = probeRequest(requests);
  const sample = sampleRequests(requests, options.operations, options.seed, probe);
  const runs: Record<string, RunResult[]> = { 'plantstore-cold': [], 'plantstore-warm': [], prism: [] };
  const cacheDirs: string[] = [];
  let cacheDir = '';
  const commands = servers(file, () => cacheDir);
  const settings = {
    logFile: '',
    answerTimeoutMs: options.timeoutSeconds * 1000,
    requestTimeoutMs: options.requestTimeoutSeconds * 1000,
  };
  for (let round = 1; round <= options.runs; round++) {
    // A fresh cache per round: the cold start fills it, the warm start of the same round reads it.
    cacheDir = mkdtempSync(join(tmpdir(), 'plantstore-bench-cache-'));
    cacheDirs.push(cacheDir);
    for (const key of Object.keys(runs)) {
      // Waiting out the same time-out again tells nothing new, and costs minutes.
      if (runs[key].some((r) => r.firstAnswerMs === undefined)) continue;
      say(`bench: ${source.name} round ${round}/${options.runs}: ${key}`);
      // The cold start runs on until its warm-up has written the compiled validators to the cache
      // (as a first session would), so that the warm start reads the document and them.
      const dir = cacheDir;
      const settled =
        key === 'plantstore-cold' ? () => readdirSync(dir).some((name) => name.endsWith('.validators.js')) : undefined;
      const result = await measureRun(commands[key], probe, sample, {
        ...settings,
        settled,
        logFile: join(logDir, `large-${source.name}-${key}-${round}.log`),
      });
      runs[key].push(result);
      if (result.stalled) say(`bench:   ${result.stalled}`);
      if (settled)
        say(
          `bench:   compiled validators ${result.settledMs === undefined ? `not written within ${options.timeoutSeconds} s` : `written ${(result.settledMs / 1000).toFixed(1)} s after spawn`}`,
        );
    }
  }
  const configs: Record<string, ConfigSummary> = Object.fromEntries(
    Object.entries(runs).map(([key, r]) => [key, summariseRuns(r)]),
  );
  // SIGTERM while loading: halfway through the measured loading time (or the time-out's, if it
  // never listened), with a fresh cache for the cold start and the last round's for the warm one.
  const termWhileLoading: DocumentReport['termWhileLoading'] = {};
  for (const key of Object.keys(runs)) {
    const listening = configs[key].listeningMs;
    const delayMs = (listening ?? Math.min(settings.answerTimeoutMs, 20_000)) / 2;
    if (key === 'plantstore-cold') {
      cacheDir = mkdtempSync(join(tmpdir(), 'plantstore-bench-cache-'));
      cacheDirs.push(cacheDir);
    } else if (key === 'plantstore-warm') cacheDir = cacheDirs[options.runs - 1];
    say(`bench: ${source.name}: SIGTERM ${Math.round(delayMs)} ms after spawn (${key})`);
    termWhileLoading[key] = {
      delayMs,
      ...(await measureTermWhileLoading(commands[key], delayMs, join(logDir, `large-${source.name}-${key}-term.log`))),
    };
  }
  for (const dir of cacheDirs) rmSync(dir, { recursive: true, force: true });
  return {
    name: source.name,
    file: `${source.packageSpec} ${source.entry.replace(/^package\//, '')}`,
    megabytes: fileMegabytes(file),
    operations: operationCount(document),
    probe: probe.operation,
    sampled: sample.map((r) => r.operation),
    configs,
    termWhileLoading,
    ratios: documentRatios(configs),
  };
}

/** Measures every large document; prints nothing but progress (`say`), returns the report. */
export async function measureLargeDocuments(options: LargeOptions, say: (line: string) => void): Promise<LargeReport> {
  const started = performance.now();
  // After the Plant Store part this process is pinned to the load generator's core, and children
  // inherit that: start-up on a large document uses more than one core (V8 compiles and collects
  // on helper threads), so servers here get every core, in a full run as with --large-only.
  unpinSelf();
  const logDir = join(ROOT, 'bench', 'results', 'logs');
  mkdirSync(logDir, { recursive: true });
  const report: LargeReport = {
    startedAt: new Date().toISOString(),
    wallSeconds: 0,
    machine: machineAtStart(),
    settings: {
      runs: options.runs,
      operations: options.operations,
      timeoutSeconds: options.timeoutSeconds,
      requestTimeoutSeconds: options.requestTimeoutSeconds,
      seed: options.seed,
    },
    documents: [],
  };
  for (let i = 0; i < LARGE_DOCUMENTS.length; i++)
    report.documents.push(await measureDocument(i, options, logDir, say));
  report.machine.loadAverageAfter = loadavg();
  report.wallSeconds = (performance.now() - started) / 1000;
  writeFileSync(options.resultsFile, `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

/** The printed report: machine and load, then one block per document. */
export function formatLargeReport(report: LargeReport): string {
  const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(' ');
  const s = report.settings;
  return [
    `large documents: ${report.machine.cores} cores, Node ${report.machine.node}; load average ${load(report.machine.loadAverageBefore)} before, ${load(report.machine.loadAverageAfter)} after (other work on this machine slows every figure)`,
    `medians over ${s.runs} start(s) per server (a time-out is not repeated); first answers within ${s.timeoutSeconds} s of spawn, each sampled operation within ${s.requestTimeoutSeconds} s; ${s.operations} GET operations sampled with seed ${s.seed}`,
    '',
    ...report.documents.flatMap((d) => [formatDocument(d, s.timeoutSeconds), '']),
    `figures: ${join('bench', 'results', 'large-documents.json')}  (whole part ${report.wallSeconds.toFixed(0)} s)`,
  ].join('\n');
}
