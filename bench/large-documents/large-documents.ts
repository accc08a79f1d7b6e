// The large-document suite: Stripe's and GitHub's documents mocked by plantstore (cold cache, then warm)
// and Prism 5.16, each started --runs times on every core: spawn to listening and to a first answer,
// the first answers of --ops sampled GET operations (compiling on first use), RSS, and SIGTERM to exit
// once serving and while still loading. Medians over starts; plantstore ÷ Prism from the same run.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as requestsOf from '../lib/document-requests.ts';
import type { BenchOptions } from '../lib/options.ts';
import { freePort, loadAverage, rssBytes, stop, track, unpinSelf } from '../lib/processes.ts';
import { fetchLargeDocument, LARGE_DOCUMENTS, type LargeDocument } from '../lib/public-documents.ts';
import { int, median, ratio, table, times, writeResults } from '../lib/report.ts';
import { LOGS, prismCli, ROOT, statusOf } from '../lib/server.ts';

/** How long SIGTERM may take before the server is killed and the figure reads "over". */
const TERM_LIMIT_MS = 5000;
const FIRST_ANSWER_AIM_MS = 200;
const SEED = 1; // the same operations in every run
const COLUMNS = 'RSS|SIGTERM up|SIGTERM loading';

/** A server run on this Node 24, so that the pid spawned is the server's (plantstore's launcher execs in place). */
export interface ServerCommand {
  args(port: number): string[];
  /** Read at each spawn (the plantstore configurations change their cache folder between starts). */
  env?(): NodeJS.ProcessEnv;
}

export interface RunResult {
  listeningMs?: number;
  firstAnswerMs?: number;
  probeStatus?: number;
  /** Each sampled operation's first answer: ms undefined when none came in time. */
  answers: { operation: string; ms?: number; status?: number }[];
  rssBytes?: number;
  termMs?: number;
  /** What stopped the run early ("no answer to GET /v1/account within 60 s"). */
  stalled?: string;
}

const send = (url: string, req: requestsOf.BenchRequest, timeoutMs: number) =>
  statusOf(`${url}${req.target}`, req, timeoutMs);
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1').once('error', () => resolve(false));
    socket.once('connect', () => resolve(socket.destroy() !== undefined));
  });
const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** SIGTERM to exit, in ms; Infinity when it was still running after TERM_LIMIT_MS (then killed). */
async function timeTerm(child: ChildProcess): Promise<number> {
  const sent = performance.now();
  await stop(child, 'SIGTERM', TERM_LIMIT_MS);
  return child.signalCode === 'SIGKILL' ? Infinity : performance.now() - sent;
}

/** One start, measured; the server is stopped (SIGTERM, timed) before this resolves. */
export async function measureRun(
  server: ServerCommand,
  probe: requestsOf.BenchRequest,
  sample: readonly requestsOf.BenchRequest[],
  options: {
    logFile: string;
    answerTimeoutMs: number;
    requestTimeoutMs: number;
    settled?(): boolean;
    termAfterMs?: number;
  },
): Promise<RunResult> {
  const port = await freePort();
  const log = openSync(options.logFile, 'w');
  const started = performance.now();
  const env = server.env?.() ?? process.env;
  const child = track(spawn(process.execPath, server.args(port), { stdio: ['ignore', log, log], env }));
  closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  const result: RunResult = { answers: [] };
  const deadline = started + options.answerTimeoutMs;
  const stall = (why: string) => Object.assign(result, { stalled: why });
  const gone = (when: string) =>
    stall(`exited before ${when} (${child.exitCode ?? child.signalCode}); see ${options.logFile}`);
  try {
    // SIGTERM while loading: sent `termAfterMs` after spawn; its time is the result's termMs.
    if (options.termAfterMs !== undefined)
      return await sleep(Math.max(0, started + options.termAfterMs - performance.now()), result);
    while (result.listeningMs === undefined && performance.now() < deadline) {
      if (exited(child)) return gone('listening'); // a server that refuses the document is a result
      if (await accepts(port)) result.listeningMs = performance.now() - started;
      else await sleep(10);
    }
    while (result.listeningMs !== undefined && result.firstAnswerMs === undefined && performance.now() < deadline) {
      result.probeStatus = await send(url, probe, Math.max(1, deadline - performance.now()));
      if (result.probeStatus !== undefined) result.firstAnswerMs = performance.now() - started;
      else if (exited(child)) return gone('answering');
      else await sleep(10);
    }
    if (result.firstAnswerMs === undefined)
      return stall(`no answer to ${probe.operation} within ${options.answerTimeoutMs / 1000} s of spawn`);
    for (const req of sample) {
      const sent = performance.now();
      const status = await send(url, req, options.requestTimeoutMs);
      result.answers.push({ operation: req.operation, ms: status && performance.now() - sent, status });
      // A server busy for that long answers nothing else either.
      if (status === undefined)
        return stall(`no answer to ${req.operation} within ${options.requestTimeoutMs / 1000} s`);
    }
    result.rssBytes = rssBytes(child.pid!);
    // A first session runs on until its warm-up has written the compiled validators the warm start reads.
    const settle = deadline + options.answerTimeoutMs;
    while (options.settled && !options.settled() && performance.now() < settle && !exited(child)) await sleep(10);
    return result;
  } finally {
    result.termMs = await timeTerm(child);
  }
}

/** Per configuration, the medians over starts: a figure that timed out in any start has none. */
export function summarise(runs: RunResult[]) {
  const all = (pick: (r: RunResult) => number | undefined) =>
    runs.some((r) => pick(r) === undefined) ? undefined : median(runs.map(pick));
  const ms = runs.flatMap((r) => r.answers.flatMap((a) => a.ms ?? []));
  return {
    listening: all((r) => r.listeningMs),
    firstAnswer: all((r) => r.firstAnswerMs),
    opMedian: median(ms),
    opMax: ms.length > 0 ? Math.max(...ms) : undefined,
    overAim: ms.filter((n) => n > FIRST_ANSWER_AIM_MS).length,
    rssMb: median(runs.map((r) => (r.rssBytes ?? Number.NaN) / 2 ** 20)),
    // A server that never listened got its SIGTERM while loading: not this figure.
    termUp: median(runs.flatMap((r) => (r.listeningMs === undefined ? [] : [r.termMs]))),
    stalled: [...new Set(runs.flatMap((r) => r.stalled ?? []))],
  };
}

async function measureDocument(source: LargeDocument, options: BenchOptions, say: (line: string) => void) {
  const file = fetchLargeDocument(source, say);
  const document = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const requests = requestsOf.getRequests(document);
  const probe = requestsOf.probeRequest(requests);
  const sample = requestsOf.sampleRequests(requests, options.operations, SEED, probe);
  const caches: string[] = [];
  const freshCache = () => caches.push(mkdtempSync(join(tmpdir(), 'plantstore-bench-cache-')));
  const bin = join(ROOT, 'bin', 'plantstore.js');
  const plantstore = {
    args: (port: number) => [bin, 'mock', '--spec', file, '--port', `${port}`, '--host', '127.0.0.1', '--quiet'],
    env: () => ({ ...process.env, PLANTSTORE_CACHE_DIR: caches.at(-1), PLANTSTORE_NO_CACHE: '' }),
  };
  const prism = { args: (port: number) => [prismCli(), 'mock', file, '--port', `${port}`, '--host', '127.0.0.1'] };
  const titles = ['plantstore, cold cache', 'plantstore, warm cache', 'Prism 5.16'];
  const servers = [plantstore, plantstore, prism];
  const runs = titles.map((): RunResult[] => []);
  const limits = { answerTimeoutMs: options.timeoutSeconds * 1000, requestTimeoutMs: 20_000 };
  const logFile = (i: number, what: string) => join(LOGS, `large-${source.name}-${i}-${what}.log`);
  for (let round = 1; round <= (options.runs ?? 3); round++) {
    freshCache(); // the cold start fills it, the warm start of the same round reads it
    for (const [i, server] of servers.entries()) {
      if (runs[i].some((r) => r.firstAnswerMs === undefined)) continue; // a time-out waited out again tells nothing new
      say(`bench: ${source.name} round ${round}: ${titles[i]}`);
      const dir = caches.at(-1)!;
      const settled = i === 0 ? () => readdirSync(dir).some((name) => name.endsWith('.validators.js')) : undefined;
      runs[i].push(await measureRun(server, probe, sample, { ...limits, settled, logFile: logFile(i, `${round}`) }));
    }
  }
  const summaries = runs.map(summarise);
  // SIGTERM while loading: halfway through the median time to listening (or the time-out's, at most 20 s).
  const termLoading: number[] = [];
  for (const [i, server] of servers.entries()) {
    if (i === 0) freshCache();
    else if (i === 1) rmSync(caches.pop()!, { recursive: true }); // the warm start reads the last round's cache
    const termAfterMs = (summaries[i].listening ?? Math.min(limits.answerTimeoutMs, 20_000)) / 2;
    const run = await measureRun(server, probe, [], { ...limits, termAfterMs, logFile: logFile(i, 'term') });
    termLoading.push(run.termMs!);
  }
  for (const dir of caches) rmSync(dir, { recursive: true, force: true });
  const sec = (n: number | undefined) =>
    n === undefined ? `none in ${options.timeoutSeconds} s` : `${(n / 1000).toFixed(2)} s`;
  const term = (n: number | undefined) => (n === Infinity ? `>${TERM_LIMIT_MS / 1000} s` : `${int(n)} ms`);
  const rows = summaries.map((s, i) => [
    ...[titles[i], sec(s.listening), sec(s.firstAnswer), `${int(s.opMedian)} / ${int(s.opMax)} ms`, `${s.overAim}`],
    ...[`${int(s.rssMb)} MB`, term(s.termUp), term(termLoading[i])],
  ]);
  const keys = ['listening', 'firstAnswer', 'opMedian', 'opMax', 'rssMb', 'termUp'] as const;
  const ratios = [0, 1].map((i) => [
    `${titles[i]} ÷ Prism`,
    ...keys.map((k) => times(ratio(summaries[i][k], summaries[2][k]))),
  ]);
  const text = [
    `\n${source.name}: ${source.packageSpec} ${source.entry.replace(/^package\//, '')}, ${requestsOf.operationCount(document)} operations; probe ${probe.operation}; ${sample.length} GET operations sampled (seed ${SEED})`,
    table(`server|listening|first answer|op first answers med / max|over ${FIRST_ANSWER_AIM_MS} ms|${COLUMNS}`, rows),
    table('ratio|listening|first answer|op med|op max|RSS|SIGTERM up', ratios),
    ...summaries.flatMap((s, i) => s.stalled.map((why) => `  ${titles[i]}: ${why}`)),
  ];
  process.stdout.write(`${text.join('\n')}\n`);
  return {
    name: source.name,
    probe: probe.operation,
    sample: sample.map((r) => r.operation),
    titles,
    runs,
    termLoading,
  };
}

export async function runLargeDocuments(options: BenchOptions, say: (line: string) => void): Promise<void> {
  // Start-up on a large document uses more than one core (V8 compiles and collects on helper threads).
  unpinSelf();
  const head = `large documents: Node ${process.version}, every core, load average ${loadAverage()}; medians over ${options.runs ?? 3} start(s) per server, ${options.timeoutSeconds} s to a first answer`;
  process.stdout.write(`\n${head}\n`);
  const documents = [];
  for (const source of LARGE_DOCUMENTS) documents.push(await measureDocument(source, options, say));
  process.stdout.write(`${writeResults('large-documents', { head, documents })}\n`);
}
