// The MSW suite: plantstore/msw against @mswjs/source's fromOpenApi for the same document (the Plant
// Store's valid create, Stripe's probe GET) under msw's setupServer, each in a fresh process
// (child.ts): the first answer from the process's start and from the creation call, then answers/s,
// p50 and p99 of one request after another; plantstore as the package ships it; the bundle's size.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'yaml';
import { loadSpec } from '../../src/document/load-spec.ts';
import { prepareDocument, preparedModule } from '../../src/msw/prepare.ts';
import { getRequests, probeRequest } from '../lib/document-requests.ts';
import type { BenchOptions } from '../lib/options.ts';
import { loadAverage, track, unpinSelf } from '../lib/processes.ts';
import { fetchLargeDocument, LARGE_DOCUMENTS } from '../lib/public-documents.ts';
import { median, ms, ratio, table, times, writeResults } from '../lib/report.ts';
import { headersOf, scenario } from '../lib/scenarios.ts';
import { PLANT_STORE, ROOT } from '../lib/server.ts';
import { builtPackage } from './built-package.ts';
import { formatBundleSizes, measureBundleSizes } from './bundle-size.ts';
import type { ChildResult, ChildSettings, HandlerKind } from './child.ts';

/** The ways of making handlers; `cache` 'none' turns plantstore's document cache off; `steady` ones are loaded too. */
type Way = { title: string; kind: HandlerKind; cache?: 'none'; steady?: boolean };
const WAYS: readonly Way[] = [
  { title: 'plantstore, prepared module', kind: 'plantstore-prepared', steady: true },
  { title: 'plantstore, path, no cache', kind: 'plantstore-path', cache: 'none' },
  { title: 'plantstore, path, warm cache', kind: 'plantstore-path' },
  { title: '@mswjs/source fromOpenApi', kind: 'mswjs-source', steady: true },
];
const WORK = join(ROOT, 'node_modules', '.cache', 'plantstore-bench-msw');
const readDocument = (file: string) => {
  const text = readFileSync(file, 'utf8');
  return (file.endsWith('.json') ? JSON.parse(text) : parse(text)) as { servers?: { url: string }[] };
};
/** The document's first server URL without a trailing slash, where both kinds of handlers listen by default. */
const serverOf = (file: string) => (readDocument(file).servers?.[0]?.url ?? 'http://localhost').replace(/\/+$/, '');

function runChild(settings: ChildSettings, env: NodeJS.ProcessEnv): Promise<ChildResult> {
  const timeout = (120 + settings.warmupSeconds + settings.seconds) * 1000;
  return new Promise((resolve) => {
    const args = [join(import.meta.dirname, 'child.ts'), JSON.stringify(settings)];
    const child = execFile(process.execPath, args, { env, timeout, maxBuffer: 2 ** 28 }, (error, stdout, stderr) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      if (line.startsWith('{')) return resolve(JSON.parse(line) as ChildResult);
      resolve({
        statuses: {},
        failed: error?.killed
          ? `no result within ${timeout / 1000} s`
          : (stderr.trim().split('\n').at(-1) ?? 'no result'),
      });
    });
    track(child);
  });
}

const statusText = (r: ChildResult) =>
  r.failed ??
  Object.entries(r.statuses)
    .map(([status, n]) => `${n} x ${status}`)
    .join(', ');

type Document = { name: string; file: string; request: ChildSettings['request'] };

async function measureDocument({ name, file, request }: Document, entry: string, options: BenchOptions) {
  const module = join(WORK, `${name.replace(/\W+/g, '-').toLowerCase()}.prepared.mjs`);
  const prepared = await prepareDocument(await loadSpec(file));
  writeFileSync(module, preparedModule(prepared, `plantstore msw --spec ${file}`, pathToFileURL(entry).href).js);
  const base = { file, module, entry, request, warmupSeconds: options.warmupSeconds, seconds: options.durationSeconds };
  const cacheDir = mkdtempSync(join(tmpdir(), 'plantstore-bench-msw-cache-'));
  const env = { ...process.env, PLANTSTORE_CACHE_DIR: cacheDir };
  const run = (way: Way, mode: 'first' | 'steady') =>
    runChild({ ...base, mode, kind: way.kind }, { ...env, PLANTSTORE_NO_CACHE: way.cache ? '1' : '' });
  try {
    await run(WAYS[2], 'first'); // fills the cache the warm way reads
    const first = WAYS.map((): ChildResult[] => []);
    // Rounds interleave the ways: the machine's load drifts, and each meets it alike.
    for (let round = 1; round <= (options.runs ?? 5); round++)
      for (const [i, way] of WAYS.entries()) first[i].push(await run(way, 'first'));
    const steady: (ChildResult | undefined)[] = [];
    for (const way of WAYS) steady.push(way.steady ? await run(way, 'steady') : undefined);
    const figures = WAYS.map((way, i) => ({
      ...steady[i],
      way: way.title,
      fromStartMs: median(first[i].map((r) => r.firstAnswerMs)),
      fromCreateMs: median(first[i].map((r) => (r.firstAnswerMs ?? NaN) - (r.createCallMs ?? NaN))),
      answers: statusText(first[i].find((r) => r.failed) ?? steady[i] ?? first[i][0]),
    }));
    const keys = ['fromStartMs', 'fromCreateMs', 'answersPerSecond', 'p50Ms', 'p99Ms'] as const;
    const rows = figures.map((f) => [f.way, ...keys.map((k, j) => ms(f[k], j < 3 ? 0 : 3)), f.answers]);
    rows.push(['prepared ÷ @mswjs/source', ...keys.map((k) => times(ratio(figures[0][k], figures[3][k]))), '']);
    const header = `${name}, ${request.method} ${request.url}|first answer from start ms|from create ms|answers/s|p50 ms|p99 ms|answers`;
    process.stdout.write(`\n${table(header, rows)}\n`);
    return { name, runs: options.runs ?? 5, figures };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

export async function runMsw(options: BenchOptions, say: (line: string) => void): Promise<void> {
  unpinSelf(); // module loading and the children's collector threads would otherwise share one core
  mkdirSync(WORK, { recursive: true });
  const version = (name: string) =>
    (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  say('bench: MSW, building plantstore as the package ships it (tsc, once per state of the sources)');
  const entry = join(builtPackage(), 'dist', 'msw', 'index.js');
  const head = [
    `\nMSW handlers: plantstore/msw against @mswjs/source ${version('@mswjs/source')} in Node ${process.version}, msw ${version('msw')} setupServer; load average ${loadAverage()}`,
    '  not like for like: plantstore checks the token, validates the request, stores a create and answers it from its store;',
    '  @mswjs/source answers an example generated from the response schema without looking at the request: the ratios',
    "  price that difference in work. from start: from the process's start (module loading counts); from create: from the",
    `  creation call; median of ${options.runs ?? 5} fresh processes. answers/s, p50, p99: ${options.warmupSeconds} s warm-up, then ${options.durationSeconds} s of`,
    '  requests one after another through fetch.',
  ];
  process.stdout.write(`${head.join('\n')}\n`);
  const valid = scenario('valid');
  const stripe = fetchLargeDocument(LARGE_DOCUMENTS[0], say);
  const probe = probeRequest(getRequests(JSON.parse(readFileSync(stripe, 'utf8'))));
  const create = {
    method: 'POST',
    url: `${serverOf(PLANT_STORE)}/plants`,
    headers: headersOf(valid),
    body: valid.body,
  };
  const account = { method: probe.method, url: `${serverOf(stripe)}${probe.target}`, headers: probe.headers };
  const documents = [];
  for (const document of [
    { name: 'Plant Store', file: PLANT_STORE, request: create },
    { name: 'Stripe', file: stripe, request: account },
  ])
    documents.push(await measureDocument(document, entry, options));
  const bundle = await measureBundleSizes();
  const sizes = formatBundleSizes(bundle).join('\n');
  process.stdout.write(`\n${sizes}\n${writeResults('msw', { documents, bundle })}\n`);
}
