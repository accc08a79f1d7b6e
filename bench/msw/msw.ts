// The MSW suite: plantstore/msw against @mswjs/source 0.5's fromOpenApi for the same document (the
// Plant Store: a valid create; Stripe's: its probe GET), in Node with msw's setupServer, each
// measurement in a fresh process (child.ts) so that module loading counts: the first answer from the
// process's start and from the creation call (median over --runs processes, the ways interleaved),
// then answers/s, p50 and p99 of the same request sent one after another. plantstore runs as the
// package ships it (built-package.ts), its prepared module written as `plantstore msw` writes it.
// Last, the browser bundle's size (bundle-size.ts).
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

/** The ways of making handlers whose first answers are measured; `cache` 'none' turns plantstore's document cache off. */
const FIRST: readonly { title: string; kind: HandlerKind; cache?: 'none' }[] = [
  { title: 'plantstore, prepared module', kind: 'plantstore-prepared' },
  { title: 'plantstore, path, no cache', kind: 'plantstore-path', cache: 'none' },
  { title: 'plantstore, path, warm cache', kind: 'plantstore-path' },
  { title: '@mswjs/source fromOpenApi', kind: 'mswjs-source' },
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

async function measureDocument(
  { name, file, request }: Document,
  entry: string,
  options: BenchOptions,
  say: (line: string) => void,
) {
  say(`bench: MSW, ${name}: writing the prepared module, then first answers and steady state`);
  const module = join(WORK, `${name.replace(/\W+/g, '-').toLowerCase()}.prepared.mjs`);
  const prepared = await prepareDocument(await loadSpec(file));
  writeFileSync(module, preparedModule(prepared, `plantstore msw --spec ${file}`, pathToFileURL(entry).href).js);
  const base = { file, module, entry, request, warmupSeconds: options.warmupSeconds, seconds: options.durationSeconds };
  const cacheDir = mkdtempSync(join(tmpdir(), 'plantstore-bench-msw-cache-'));
  const env = (cache?: 'none') => ({
    ...process.env,
    PLANTSTORE_CACHE_DIR: cacheDir,
    PLANTSTORE_NO_CACHE: cache ? '1' : '',
  });
  try {
    await runChild({ ...base, mode: 'first', kind: 'plantstore-path' }, env()); // fills the cache the warm way reads
    const first = FIRST.map((): ChildResult[] => []);
    // Rounds interleave the ways: the machine's load drifts, and each meets it alike.
    for (let round = 1; round <= (options.runs ?? 5); round++)
      for (const [i, way] of FIRST.entries())
        first[i].push(await runChild({ ...base, mode: 'first', kind: way.kind }, env(way.cache)));
    const steady = [];
    for (const kind of ['plantstore-prepared', 'mswjs-source'] as const)
      steady.push(await runChild({ ...base, mode: 'steady', kind }, env()));
    const fromStart = first.map((runs) => median(runs.map((r) => r.firstAnswerMs)));
    const fromCreate = first.map((runs) => median(runs.map((r) => (r.firstAnswerMs ?? NaN) - (r.createCallMs ?? NaN))));
    const firstRows = FIRST.map((way, i) => [
      way.title,
      ms(fromStart[i]),
      ms(fromCreate[i]),
      statusText(first[i].find((r) => r.failed) ?? first[i][0]),
    ]);
    firstRows.push([
      'prepared ÷ @mswjs/source',
      times(ratio(fromStart[0], fromStart[3])),
      times(ratio(fromCreate[0], fromCreate[3])),
      '',
    ]);
    const [ours, theirs] = steady;
    const steadyRows = steady.map((r, i) => [
      ['plantstore', '@mswjs/source'][i],
      ms(r.answersPerSecond),
      ms(r.p50Ms, 3),
      ms(r.p99Ms, 3),
      statusText(r),
    ]);
    const over = (key: 'answersPerSecond' | 'p50Ms' | 'p99Ms') => times(ratio(ours[key], theirs[key]));
    steadyRows.push(['plantstore ÷ @mswjs/source', over('answersPerSecond'), over('p50Ms'), over('p99Ms'), '']);
    const text = [
      `\n${name}, ${request.method} ${request.url}`,
      table(`first answer, median of ${first[0].length} process(es)|from start ms|from create ms|answers`, firstRows),
      table('steady state, one request at a time|answers/s|p50 ms|p99 ms|answers', steadyRows),
    ];
    process.stdout.write(`${text.join('\n')}\n`);
    return {
      name,
      first: FIRST.map((way, i) => ({ way: way.title, fromStart: fromStart[i], fromCreate: fromCreate[i] })),
      steady,
    };
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

export async function runMsw(options: BenchOptions, say: (line: string) => void): Promise<boolean> {
  unpinSelf(); // module loading and the children's collector threads would otherwise share one core
  mkdirSync(WORK, { recursive: true });
  const version = (name: string) =>
    (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  const head = [
    `\nMSW handlers: plantstore/msw against @mswjs/source ${version('@mswjs/source')} in Node ${process.version}, msw ${version('msw')} setupServer; load average ${loadAverage()}`,
    '  not like for like: plantstore checks the token, validates the request, stores a create and answers it from its store;',
    '  @mswjs/source answers an example generated from the response schema without looking at the request: the ratios',
    "  price that difference in work. from start: from the process's start (module loading counts); from create: from the",
    `  creation call. Steady state: ${options.warmupSeconds} s warm-up, then ${options.durationSeconds} s of requests one after another through fetch.`,
  ];
  process.stdout.write(`${head.join('\n')}\n`);
  say('bench: MSW, building plantstore as the package ships it (tsc, once per state of the sources)');
  const entry = join(builtPackage(), 'dist', 'msw', 'index.js');
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
    documents.push(await measureDocument(document, entry, options, say));
  const bundle = await measureBundleSizes();
  const sizes = formatBundleSizes(bundle).join('\n');
  process.stdout.write(
    `\n${sizes}\nload average after: ${loadAverage()}\n${writeResults('msw', { documents, bundle })}\n`,
  );
  return true;
}
