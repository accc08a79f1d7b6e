// The unhappy path's cost (`npm run bench -- --unhappy-path`):
// 1. Throughput without the new flags: the mock of the commit before latency, faults and --watch
//    came in, and this checkout's, both with default settings, loaded at the same time
//    (bench/lib/compare.ts): today ÷ before per scenario is a ratio of costs per request.
// 2. A --watch reload of Stripe's document (2.5 MB, 452 operations): a copy is edited and the time
//    from the write to the new document serving is taken, and the reload's own time (load,
//    validate, build the engine), a few times; the median of each.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareAtOnce } from '../lib/compare.ts';
import { commitOf, materialize } from '../lib/git-trees.ts';
import { oddAnswers } from '../lib/load.ts';
import type { BenchOptions } from '../lib/options.ts';
import { LOAD_CORE, pinningUnavailable, SERVER_CORE } from '../lib/processes.ts';
import { fetchLargeDocument, LARGE_DOCUMENTS } from '../lib/public-documents.ts';
import { scenario, type ScenarioName } from '../lib/scenarios.ts';
import { mockCommand, RESULTS, ROOT } from '../lib/server.ts';
import { int, median } from '../lib/table.ts';
import { startMockServer } from '../../src/mock/server.ts';

/** The first commit of latency, faults and --watch: its parent is "before". */
export const UNHAPPY_COMMIT = '899be2f21ce04cf96405c2108fbcde91f6fcc526';
const SCENARIOS = (['valid', 'invalid-body', 'missing-token'] as const satisfies ScenarioName[]).map(scenario);
const RELOADS = 3;

export async function runUnhappyPathBench(options: BenchOptions, say: (line: string) => void): Promise<number> {
  const report: Record<string, unknown> = {
    startedAt: new Date().toISOString(),
    loadAverageBefore: loadavg(),
    pinning: pinningUnavailable
      ? `unpinned (${pinningUnavailable})`
      : `servers on core ${SERVER_CORE}, generators on core ${LOAD_CORE}`,
    settings: {
      generator: options.generator,
      connections: options.connections,
      warmupSeconds: options.warmupSeconds,
      durationSeconds: options.durationSeconds,
    },
  };
  let failed = false;

  const beforeCommit = commitOf(ROOT, `${UNHAPPY_COMMIT}^`);
  if (!beforeCommit)
    say(
      `bench: no commit ${UNHAPPY_COMMIT.slice(0, 7)}^ in this checkout (a shallow clone?): the throughput comparison is left out`,
    );
  else {
    const before = materialize(ROOT, beforeCommit, join(ROOT, 'node_modules'));
    const mocks = [mockCommand(`before ${beforeCommit.slice(0, 7)}`, [], before), mockCommand('this checkout')];
    const throughput: Record<string, { before: number; today: number; ratio: number; odd: number }> = {};
    try {
      const loads = await compareAtOnce(mocks, SCENARIOS, options, 'unhappy-path', say);
      for (const [i, s] of SCENARIOS.entries()) {
        const [then, today] = loads[i];
        const ratio = today.requestsPerSecond / then.requestsPerSecond;
        throughput[s.name] = {
          before: then.requestsPerSecond,
          today: today.requestsPerSecond,
          ratio,
          odd: oddAnswers(then) + oddAnswers(today),
        };
        say(`  ${s.title}: today ÷ before ${ratio.toFixed(2)}x`);
      }
    } catch (error) {
      say(`bench: the throughput comparison stopped: ${(error as Error).message}`);
      failed = true;
    }
    report.throughput = { beforeCommit, scenarios: throughput };
  }

  // Stripe's reload, in this process (the mock's library entry, as `mock --watch` runs it).
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-reload-'));
  try {
    const stripe = fetchLargeDocument(
      LARGE_DOCUMENTS.find((d) => d.name === 'stripe')!,
      say,
    );
    const copy = join(dir, 'stripe.com.json');
    copyFileSync(stripe, copy);
    const text = readFileSync(copy, 'utf8');
    const started = performance.now();
    const server = await startMockServer({ spec: copy, port: 0, watch: true, quiet: true });
    const startMs = performance.now() - started;
    const toServing: number[] = [];
    const reloadMs: number[] = [];
    try {
      for (let i = 1; i <= RELOADS; i++) {
        const document = JSON.parse(text) as { info: { description?: string } };
        document.info.description = `edited for the reload benchmark, edit ${i}`;
        const reloaded = server.nextReload();
        const written = performance.now();
        writeFileSync(copy, JSON.stringify(document));
        const result = await reloaded;
        if (!result.ok) throw new Error(result.message);
        toServing.push(performance.now() - written);
        reloadMs.push(result.ms);
        say(
          `  Stripe reload ${i}: serving the edit ${int(toServing.at(-1)!)} ms after the write (reload itself ${int(result.ms)} ms)`,
        );
      }
    } finally {
      await server.close();
    }
    report.stripeReload = {
      startMs,
      toServingMs: toServing,
      reloadMs,
      medianToServingMs: median(toServing),
      medianReloadMs: median(reloadMs),
    };
    say(
      `Stripe: start ${int(startMs)} ms; a --watch reload serves the edit after ${int(median(toServing))} ms (median of ${RELOADS}; the reload itself ${int(median(reloadMs))} ms)`,
    );
  } catch (error) {
    say(`bench: the Stripe reload stopped: ${(error as Error).message}`);
    failed = true;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  report.loadAverageAfter = loadavg();
  writeFileSync(join(RESULTS, 'unhappy-path.json'), `${JSON.stringify(report, null, 2)}\n`);
  say(
    `load average ${(report.loadAverageBefore as number[])[0].toFixed(2)} before, ${loadavg()[0].toFixed(2)} after; bench/results/unhappy-path.json`,
  );
  return failed ? 1 : 0;
}
