// The unhappy path's part of the benchmark: `npm run bench -- --unhappy-path`.
// 1. Throughput without the new flags: the mock of the commit before latency, faults and --watch
//    came in, and this checkout's, started alike (default settings, request log to a file), loaded at
//    the same time on the server core as the paired loads are (bench/measure-paired.ts): the ratio
//    today ÷ before is a ratio of costs per request, which the machine's drift moves alike.
// 2. A --watch reload of Stripe's document (2.5 MB, 452 operations): a copy is edited (its
//    info.description) and the time from the write to the new document serving is taken, and the
//    reload's own time (load, validate, build the engine), a few times; the median of each.
// It asserts nothing.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { commitOf, materialize } from './adapter-trees.ts';
import type { BenchOptions } from './bench-options.ts';
import { fetchLargeDocument, LARGE_DOCUMENTS } from './large-document-files.ts';
import type { LoadResult } from './load-generator.ts';
import { loadAtOnce } from './measure-paired.ts';
import { LOAD_CORE, pinningUnavailable, SERVER_CORE } from './cpu-pinning.ts';
import { scenario, type ScenarioName } from './scenarios.ts';
import { startServer, type RunningServer } from './server-process.ts';
import { ROOT } from './servers.ts';
import { startMockServer } from '../src/mock/server.ts';

/** The first commit of latency, faults and --watch: its parent is "before". */
export const UNHAPPY_COMMIT = '899be2f21ce04cf96405c2108fbcde91f6fcc526';
const SCENARIOS = (['valid', 'invalid-body', 'missing-token'] as const satisfies ScenarioName[]).map(scenario);
const RELOADS = 3;

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function runUnhappyPathBench(options: BenchOptions, say: (line: string) => void): Promise<number> {
  const resultsDir = join(ROOT, 'bench', 'results');
  mkdirSync(join(resultsDir, 'logs'), { recursive: true });
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
    const trees = { before: materialize(ROOT, beforeCommit, join(ROOT, 'node_modules')), today: ROOT };
    const running: { server: { title: string }; running: RunningServer }[] = [];
    const throughput: Record<string, { before: number; today: number; ratio: number; odd: number }> = {};
    try {
      for (const [name, root] of Object.entries(trees)) {
        const server = {
          title: name === 'before' ? `before ${beforeCommit.slice(0, 7)}` : 'this checkout',
          args: (port: number) => [join(root, 'bin', 'plantstore.js'), 'mock', '--port', String(port)],
          asCommand: true,
        };
        running.push({
          server,
          running: await startServer(server, { logFile: join(resultsDir, 'logs', `unhappy-path-${name}.log`) }),
        });
      }
      for (const s of SCENARIOS) {
        const [before, today] = await loadAtOnce(running, s, options, options.durationSeconds);
        const odd = (load: LoadResult) => load.unexpected + load.errors + load.timeouts;
        throughput[s.name] = {
          before: before.requestsPerSecond,
          today: today.requestsPerSecond,
          ratio: today.requestsPerSecond / before.requestsPerSecond,
          odd: odd(before) + odd(today),
        };
        say(
          `  ${s.title}: before ${int(before.requestsPerSecond)}, today ${int(today.requestsPerSecond)} req/s at the same time: today ÷ before ${throughput[s.name].ratio.toFixed(2)}x`,
        );
      }
    } catch (error) {
      say(`bench: the throughput comparison stopped: ${(error as Error).message}`);
      failed = true;
    } finally {
      await Promise.all(running.map((r) => r.running.stop()));
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
  writeFileSync(join(resultsDir, 'unhappy-path.json'), `${JSON.stringify(report, null, 2)}\n`);
  say(
    `load average ${(report.loadAverageBefore as number[])[0].toFixed(2)} before, ${loadavg()[0].toFixed(2)} after; bench/results/unhappy-path.json`,
  );
  return failed ? 1 : 0;
}
