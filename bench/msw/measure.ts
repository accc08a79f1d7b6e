// The MSW suite: plantstore's handlers (plantstore/msw) against @mswjs/source 0.5's
// fromOpenApi for the same document, in Node with msw's setupServer, each measurement in a fresh
// process (bench/msw/child.ts) so that module loading counts:
//   first answer: from the process's start and from the handler creation call to the first
//     whole answer (the Plant Store: a valid create; Stripe: its probe GET); median over runs;
//   steady state: answers/s, p50 and p99 for the same request sent one after another through fetch.
// plantstore runs as the package ships it (bench/msw/built-package.ts: dist/ compiled by tsc), and the
// prepared module is written as `plantstore msw` writes it. Then the browser bundle's size, when bench/msw/bundle-size.ts
// is there. It asserts nothing. Run: npm run bench -- --msw-only [--duration S] [--msw-runs N] [--quick]
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { loadSpec } from '../../src/document/load-spec.ts';
import { prepareDocument, preparedModule } from '../../src/msw/prepare.ts';
import { builtPackage } from './built-package.ts';
import { machineAtStart, track, unpinSelf } from '../lib/processes.ts';
import { fetchLargeDocument, LARGE_DOCUMENTS } from '../lib/public-documents.ts';
import { getRequests, probeRequest } from '../lib/document-requests.ts';
import { median } from '../lib/table.ts';
import type { ChildRequest, HandlerKind, MswChildResult, MswChildSettings } from './child.ts';
import {
  formatMswReport,
  statusText,
  type FirstAnswerSummary,
  type MswDocumentReport,
  type MswReport,
  type SteadySummary,
} from './report-text.ts';
import { headersOf, scenario } from '../lib/scenarios.ts';
import type { MswOptions } from '../lib/options.ts';
import { ROOT } from '../lib/server.ts';

/** The ways of making handlers whose first answers are measured, and what each runs. */
interface FirstConfig {
  name: string;
  kind: HandlerKind;
  /** plantstore-path: where its document cache is; 'none' turns the cache off. */
  cache?: 'none' | 'warm';
}

const FIRST_CONFIGS: readonly FirstConfig[] = [
  { name: 'plantstore, prepared module', kind: 'plantstore-prepared' },
  { name: 'plantstore, path, no cache', kind: 'plantstore-path', cache: 'none' },
  { name: 'plantstore, path, warm cache', kind: 'plantstore-path', cache: 'warm' },
  { name: '@mswjs/source fromOpenApi', kind: 'mswjs-source' },
];

const WORK = join(ROOT, 'node_modules', '.cache', 'plantstore-bench-msw');
const BUNDLE_SIZE_SCRIPT = join(import.meta.dirname, 'bundle-size.ts');

interface BenchDocument {
  name: string;
  file: string;
  /** Where it comes from, for the report. */
  origin: string;
  request: ChildRequest;
  /** The request as the tables name it. */
  title: string;
}

function readDocument(file: string): Record<string, unknown> {
  const text = readFileSync(file, 'utf8');
  return file.endsWith('.json') ? JSON.parse(text) : parse(text);
}

/** The document's first server URL without a trailing slash, as both kinds of handlers default to. */
function serverOf(document: Record<string, unknown>): string {
  const [server] = (document.servers as Array<{ url?: string }> | undefined) ?? [];
  return (server?.url ?? 'http://localhost').replace(/\/+$/, '');
}

function documents(say: (line: string) => void): BenchDocument[] {
  const plantStore = join(ROOT, 'openapi', 'plant-store.yaml');
  const valid = scenario('valid');
  const stripeSource = LARGE_DOCUMENTS.find((d) => d.name === 'stripe')!;
  const stripe = fetchLargeDocument(stripeSource, say);
  const stripeDocument = readDocument(stripe);
  const probe = probeRequest(getRequests(stripeDocument));
  return [
    {
      name: 'Plant Store',
      file: plantStore,
      origin: 'openapi/plant-store.yaml',
      title: 'POST /plants, valid create',
      // The child puts its request counter where the body has `$id`: a fresh id per create.
      request: {
        method: 'POST',
        url: `${serverOf(readDocument(plantStore))}/plants`,
        headers: headersOf(valid),
        body: valid.body,
      },
    },
    {
      name: 'Stripe',
      file: stripe,
      origin: `${stripeSource.packageSpec} ${stripeSource.entry.replace(/^package\//, '')}`,
      title: probe.operation,
      request: { method: probe.method, url: `${serverOf(stripeDocument)}${probe.target}`, headers: probe.headers },
    },
  ];
}

/** Runs one child; its result, or a failure that says why (never a throw: a failure is a result). */
function runChild(settings: MswChildSettings, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<MswChildResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [join(import.meta.dirname, 'child.ts'), JSON.stringify(settings)],
      { env, timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const line = stdout.trim().split('\n').at(-1) ?? '';
        if (line.startsWith('{')) return resolve(JSON.parse(line) as MswChildResult);
        const why = error?.killed
          ? `no result within ${timeoutMs / 1000} s`
          : (stderr.trim().split('\n').at(-1) ?? error?.message ?? 'no result');
        resolve({ statuses: {}, failed: why });
      },
    );
    track(child);
  });
}

/** Writes the module `plantstore msw --spec FILE` writes, importing the compiled library. */
async function writePrepared(document: BenchDocument, entry: string): Promise<{ module: string; bytes: number }> {
  // .mjs: no package.json of ours is found under node_modules to say that a .js is a module.
  const module = join(WORK, `${document.name.replace(/\W+/g, '-').toLowerCase()}.prepared.mjs`);
  const prepared = await prepareDocument(await loadSpec(document.file));
  const { js } = preparedModule(
    prepared,
    `plantstore msw --spec ${relative(ROOT, document.file)}`,
    pathToFileURL(entry).href,
  );
  writeFileSync(module, js);
  return { module, bytes: Buffer.byteLength(js) };
}

function summariseFirst(config: FirstConfig, results: MswChildResult[]): FirstAnswerSummary {
  const answered = results.filter((r) => r.firstAnswerMs !== undefined && r.createCallMs !== undefined);
  const statuses: Record<string, number> = {};
  for (const r of results)
    for (const [status, n] of Object.entries(r.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  return {
    name: config.name,
    runs: results.length,
    fromStartMs: median(answered.map((r) => r.firstAnswerMs)),
    fromCreateMs: median(answered.map((r) => r.firstAnswerMs! - r.createCallMs!)),
    statuses,
    failed: results.find((r) => r.failed)?.failed,
  };
}

function summariseSteady(name: string, result: MswChildResult): SteadySummary {
  const sorted = [...(result.latencies ?? [])].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length === 0 ? undefined : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return {
    name,
    answersPerSecond: result.wallMs ? (sorted.length * 1000) / result.wallMs : undefined,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    statuses: result.statuses,
    failed: result.failed,
  };
}

async function measureDocument(
  document: BenchDocument,
  entry: string,
  options: MswOptions,
  say: (line: string) => void,
): Promise<MswDocumentReport> {
  say(`bench: MSW, ${document.name}: writing the prepared module`);
  const { module, bytes } = await writePrepared(document, entry);
  const base: Omit<MswChildSettings, 'mode' | 'kind'> = {
    file: document.file,
    module,
    entry,
    request: document.request,
    trimServers: true,
    warmupSeconds: 0,
    seconds: 0,
  };
  const cacheDir = mkdtempSync(join(tmpdir(), 'plantstore-bench-msw-cache-'));
  const envOf = (config: FirstConfig): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...process.env, PLANTSTORE_CACHE_DIR: cacheDir };
    delete env.PLANTSTORE_NO_CACHE;
    if (config.cache === 'none') env.PLANTSTORE_NO_CACHE = '1';
    return env;
  };
  const timeoutMs = 120_000;
  try {
    // An unmeasured start fills the document cache that the warm configuration reads.
    const warm = FIRST_CONFIGS.find((c) => c.cache === 'warm')!;
    await runChild({ ...base, mode: 'first', kind: warm.kind }, envOf(warm), timeoutMs);
    // @mswjs/source is measured on the document with its servers' trailing slashes trimmed; whether
    // it answers the document as published is one more (unmeasured) start.
    const servers = (readDocument(document.file).servers ?? []) as Array<{ url?: string }>;
    let asPublished: string | undefined;
    if (servers.some((s) => /.\/$/.test(s.url ?? ''))) {
      const published = await runChild(
        { ...base, mode: 'first', kind: 'mswjs-source', trimServers: false },
        envOf({ name: '', kind: 'mswjs-source' }),
        timeoutMs,
      );
      asPublished = `@mswjs/source on the document as published (server ${servers.map((s) => s.url).join(', ')}): ${published.failed ?? `answered ${statusText(published.statuses)}`}; the figures are with the trailing slash trimmed`;
    }
    const results = new Map<FirstConfig, MswChildResult[]>(FIRST_CONFIGS.map((c) => [c, []]));
    // Rounds interleave the configurations: the machine's load drifts, and each meets it alike.
    for (let round = 1; round <= options.runs; round++) {
      say(`bench: MSW, ${document.name}: first answers, round ${round}/${options.runs}`);
      for (const config of FIRST_CONFIGS)
        results
          .get(config)!
          .push(await runChild({ ...base, mode: 'first', kind: config.kind }, envOf(config), timeoutMs));
    }
    const steady: SteadySummary[] = [];
    for (const [name, kind] of [
      ['plantstore', 'plantstore-prepared'],
      ['@mswjs/source', 'mswjs-source'],
    ] as const) {
      say(
        `bench: MSW, ${document.name}: steady state, ${name} (${options.warmupSeconds} s warm-up + ${options.seconds} s)`,
      );
      const settings = {
        ...base,
        mode: 'steady',
        kind,
        warmupSeconds: options.warmupSeconds,
        seconds: options.seconds,
      } as const;
      steady.push(
        summariseSteady(
          name,
          await runChild(settings, envOf({ name, kind }), timeoutMs + (options.warmupSeconds + options.seconds) * 1000),
        ),
      );
    }
    return {
      name: document.name,
      file: document.origin,
      asPublished,
      request: document.title,
      preparedModuleBytes: bytes,
      first: FIRST_CONFIGS.map((c) => summariseFirst(c, results.get(c)!)),
      steady,
    };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/**
 * The browser bundle's size, from bench/msw/bundle-size.ts (its own part, which bundles plantstore/msw
 * without and with msw and prints the gzipped sizes): its output as it printed it, or why not.
 */
function bundleSize(say: (line: string) => void): string {
  if (!existsSync(BUNDLE_SIZE_SCRIPT))
    return 'browser bundle: not measured (bench/msw/bundle-size.ts is not in this checkout)';
  say('bench: MSW, browser bundle size (bench/msw/bundle-size.ts)');
  try {
    return execFileSync(process.execPath, [BUNDLE_SIZE_SCRIPT], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    }).trimEnd();
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    return `browser bundle: bench/msw/bundle-size.ts failed: ${stderr?.split('\n').at(-1) ?? (error as Error).message}`;
  }
}

/** Measures the MSW part; prints nothing but progress (`say`); writes its JSON and returns the report. */
export async function measureMsw(options: MswOptions, say: (line: string) => void): Promise<MswReport> {
  const started = performance.now();
  // In a full run this process is pinned to the load generator's core by now; module loading and
  // the children's collector threads would then share it.
  unpinSelf();
  mkdirSync(WORK, { recursive: true });
  say(
    'bench: MSW, building plantstore as the package ships it (bench/msw/built-package.ts, tsc once per state of the sources)',
  );
  const entry = join(builtPackage(), 'dist', 'msw', 'index.js');
  const report: MswReport = {
    startedAt: new Date().toISOString(),
    wallSeconds: 0,
    machine: machineAtStart(),
    settings: { runs: options.runs, warmupSeconds: options.warmupSeconds, seconds: options.seconds },
    versions: versions(),
    documents: [],
    bundle: '',
  };
  for (const document of documents(say)) report.documents.push(await measureDocument(document, entry, options, say));
  report.bundle = bundleSize(say);
  report.machine.loadAverageAfter = loadavg();
  report.wallSeconds = (performance.now() - started) / 1000;
  mkdirSync(dirname(options.resultsFile), { recursive: true });
  writeFileSync(options.resultsFile, `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

function versions(): Record<string, string> {
  const version = (name: string) =>
    (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  return { msw: version('msw'), '@mswjs/source': version('@mswjs/source') };
}

/** The MSW part, measured and printed; false when the harness itself could not run it. */
export async function runMsw(options: MswOptions, say: (line: string) => void): Promise<boolean> {
  try {
    process.stdout.write(`\n${formatMswReport(await measureMsw(options, say))}\n`);
    return true;
  } catch (error) {
    say(`bench: the MSW part stopped: ${(error as Error).message}`);
    return false;
  }
}
