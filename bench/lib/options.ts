// The benchmark's one command line: every suite's flags, resolved once into one options object.
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { defaultGenerator, GENERATOR_NAMES, type GeneratorName } from './load.ts';
import { RESULTS } from './server.ts';

/** Which suite runs: the Plant Store suite (then MSW and large documents), or one suite alone. */
export type Part = 'all' | 'msw' | 'large' | 'adapters' | 'unhappy-path' | 'proxy' | 'redis';

export interface MswOptions {
  /** Fresh processes per configuration for the first answers (median over them). */
  runs: number;
  warmupSeconds: number;
  /** Measured seconds of each steady-state load. */
  seconds: number;
  resultsFile: string;
}

export interface LargeOptions {
  /** Starts per server configuration (the figures are medians over them). */
  runs: number;
  /** GET operations sampled per document. */
  operations: number;
  /** Seconds from spawn a server gets to answer its first request. */
  timeoutSeconds: number;
  /** Seconds one sampled operation's first request may take. */
  requestTimeoutSeconds: number;
  seed: number;
  resultsFile: string;
}

export interface BenchOptions {
  part: Part;
  /** Measured whole seconds per server and scenario. */
  durationSeconds: number;
  /** Whole seconds of the same load before each measurement, not counted. */
  warmupSeconds: number;
  connections: number;
  /** What drives the load: wrk when it is on PATH, autocannon otherwise. */
  generator: GeneratorName;
  /** Spawns per server for the start-up figure (median); the last one takes the load. */
  startupSamples: number;
  /** Measured whole seconds of each scenario's paired loads (mock and baseline at the same time); 0 skips them. */
  pairedSeconds: number;
  /** Interleaved rounds of the proxy suite (the median of each figure). */
  rounds: number;
  exampleCount: number;
  verifyGenerate: number;
  resultsFile: string;
  /** Only the MSW suite; `msw` is undefined with --skip-msw. */
  mswOnly: boolean;
  msw?: MswOptions;
  /** Only the large-document suite; `large` is undefined with --skip-large. */
  largeOnly: boolean;
  large?: LargeOptions;
  adapters: boolean;
  unhappyPath: boolean;
}

/** The settings every load of a run shares, as the measurement takes them and the report records them. */
export type LoadSettings = Pick<
  BenchOptions,
  'durationSeconds' | 'warmupSeconds' | 'connections' | 'generator' | 'startupSamples' | 'pairedSeconds'
>;

export const USAGE = `Usage: npm run bench [-- --duration S] [--paired S] [--quick] [--generator NAME] [--connections N]
                       [--skip-msw | --msw-only] [--msw-runs N]
                       [--skip-large | --large-only] [--large-runs N] [--large-ops N] [--large-timeout S]
                       [--adapters | --unhappy-path | --proxy-only [--rounds N] | --redis-only]
  (or: node bench/run.ts ... with Node 24)

  --duration S     measured whole seconds per server and scenario, after a 2 s warm-up (default 5;
                   3 with --proxy-only); --seconds S is the same
  --paired S       then, per scenario, S measured seconds of the mock and the baseline loaded at
                   the same time on the same core, half the connections each: both feel the
                   machine's drift alike, so their req/s ratio is their cost ratio (default 5; 0 skips)
  --quick          a smoke run: 1 s loads after a 1 s warm-up, one start-up sample, smaller
                   example and verify runs, one run per large document, one proxy round
  --generator NAME what sends the load: wrk (default when it is on PATH; apt-get install wrk)
                   or autocannon (the default otherwise; on 2 cores it saturates its own core
                   before the mock does: the report marks such figures with *)
  --connections N  concurrent connections of the load generator (default 50; 16 with
                   --proxy-only, 32 with --redis-only)
  --msw-only       only the MSW suite: plantstore/msw against @mswjs/source for the Plant Store
                   and Stripe's document, in Node with setupServer: first answers (fresh
                   processes, --msw-runs of them) and steady state (--duration S, one request
                   at a time through fetch), then the browser bundle's size (bench/results/msw.json)
  --skip-msw       everything but the MSW suite
  --msw-runs N     fresh processes per configuration for the MSW first answers (default 5; 1 with --quick)
  --large-only     only the large-document suite: Stripe's and GitHub's documents (fetched once
                   with npm pack), plantstore (cold and warm cache) against Prism: start-up,
                   first answers, RSS, SIGTERM (bench/results/large-documents.json)
  --skip-large     everything but the large-document suite
  --large-runs N   starts per server and document (default 3; 1 with --quick)
  --large-ops N    GET operations sampled per document for their first answers (default 20)
  --large-timeout S  seconds a server gets from spawn to its first answer (default 60)
  --adapters       only the HTTP layer's decision: the mock of 9ce56d0^ (its own HTTP/1.1 layer on
                   node:net), of 9ce56d0 (the node:http adapter) and of this checkout, each from its
                   own tree (git archive; needs the history), loaded at the same time for --duration S
                   per scenario; prints own layer ÷ adapter and the 2x bar (bench/results/adapters.json)
  --unhappy-path   only the latency/faults/--watch suite: the mock from before them and this
                   checkout's, both without those flags, loaded at the same time (today ÷ before
                   per scenario), then the time a --watch reload of Stripe's document takes
                   (bench/results/unhappy-path.json)
  --proxy-only     only the proxy suite: plantstore proxy, prism proxy and a bare pass-through in
                   front of the same bare upstream: latency with one connection, then throughput,
                   median of --rounds N interleaved rounds (default 3)
  --redis-only     only the Redis suite: the mock in memory against the mock on Redis, and one
                   replica against two behind a round-robin proxy (bench/results/redis.json)
  -h, --help       this text

Figures go to stdout and to bench/results/*.json.
A benchmark, not a test: it asserts nothing, and exits 0 unless the harness itself fails.`;

/** Parses argv; throws an Error whose message is meant for the user on a bad flag. */
export function resolveBenchOptions(argv: string[]): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      seconds: { type: 'string' },
      paired: { type: 'string' },
      quick: { type: 'boolean', default: false },
      connections: { type: 'string' },
      generator: { type: 'string' },
      'msw-only': { type: 'boolean', default: false },
      'skip-msw': { type: 'boolean', default: false },
      'msw-runs': { type: 'string' },
      'large-only': { type: 'boolean', default: false },
      'skip-large': { type: 'boolean', default: false },
      'large-runs': { type: 'string' },
      'large-ops': { type: 'string', default: '20' },
      'large-timeout': { type: 'string', default: '60' },
      adapters: { type: 'boolean', default: false },
      'unhappy-path': { type: 'boolean', default: false },
      'proxy-only': { type: 'boolean', default: false },
      rounds: { type: 'string' },
      'redis-only': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const quick = values.quick;
  const wholeNumber = (name: string, value: string | undefined, min: number, max: number) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${name} must be a whole number from ${min} to ${max}, got ${value}`);
    return n;
  };
  const parts: [Part, boolean][] = [
    ['msw', values['msw-only']],
    ['large', values['large-only']],
    ['adapters', values.adapters],
    ['unhappy-path', values['unhappy-path']],
    ['proxy', values['proxy-only']],
    ['redis', values['redis-only']],
  ];
  const chosen = parts.filter(([, on]) => on).map(([part]) => part);
  if (values['msw-only'] && values['skip-msw']) throw new Error('--msw-only cannot go with --skip-msw');
  if (values['msw-only'] && values['large-only']) throw new Error('--msw-only cannot go with --large-only');
  if (values['large-only'] && values['skip-large']) throw new Error('--large-only cannot go with --skip-large');
  if (values.adapters && values['large-only'])
    throw new Error('--adapters cannot go with --large-only: each is a part of its own');
  if (chosen.length > 1) throw new Error(`${chosen.map((p) => `--${p}`).join(' and ')}: choose one part at a time`);
  const part = chosen[0] ?? 'all';
  if (values.duration !== undefined && values.seconds !== undefined)
    throw new Error('--duration and --seconds are one flag: give one');
  // Whole seconds: wrk takes no fractions.
  const durationSeconds = wholeNumber(
    values.duration !== undefined || values.seconds === undefined ? 'duration' : 'seconds',
    values.duration ?? values.seconds ?? (quick ? '1' : part === 'proxy' ? '3' : '5'),
    1,
    600,
  );
  const pairedSeconds = wholeNumber('paired', values.paired ?? (quick ? '1' : '5'), 0, 600);
  const connections = wholeNumber(
    'connections',
    values.connections ?? (part === 'proxy' ? '16' : part === 'redis' ? '32' : '50'),
    1,
    10_000,
  );
  const generator = (values.generator ?? defaultGenerator()) as GeneratorName;
  if (!GENERATOR_NAMES.includes(generator))
    throw new Error(`--generator must be one of ${GENERATOR_NAMES.join(', ')}, got ${values.generator}`);
  const msw: MswOptions | undefined = values['skip-msw']
    ? undefined
    : {
        runs: wholeNumber('msw-runs', values['msw-runs'] ?? (quick ? '1' : '5'), 1, 50),
        warmupSeconds: quick ? 1 : 2,
        seconds: durationSeconds,
        resultsFile: join(RESULTS, 'msw.json'),
      };
  const large: LargeOptions | undefined = values['skip-large']
    ? undefined
    : {
        runs: wholeNumber('large-runs', values['large-runs'] ?? (quick ? '1' : '3'), 1, 20),
        operations: wholeNumber('large-ops', values['large-ops'], 1, 500),
        timeoutSeconds: wholeNumber('large-timeout', values['large-timeout'], 1, 600),
        // One operation's first request: far past the 200 ms bar, short enough to move on.
        requestTimeoutSeconds: 20,
        seed: 1,
        resultsFile: join(RESULTS, 'large-documents.json'),
      };
  return {
    part,
    durationSeconds,
    warmupSeconds: quick ? 1 : 2,
    connections,
    generator,
    startupSamples: quick ? 1 : 3,
    pairedSeconds,
    rounds: wholeNumber('rounds', values.rounds ?? (quick ? '1' : '3'), 1, 50),
    exampleCount: quick ? 10_000 : 100_000,
    verifyGenerate: quick ? 10 : 100,
    resultsFile: join(RESULTS, 'latest.json'),
    mswOnly: values['msw-only'],
    msw,
    largeOnly: values['large-only'],
    large,
    adapters: values.adapters,
    unhappyPath: values['unhappy-path'],
  };
}
