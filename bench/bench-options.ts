// The benchmark's flags, resolved once into one options object.
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { GENERATOR_NAMES } from './load-drivers.ts';
import type { GeneratorName } from './load-phase.ts';
import { MAX_ROUNDS } from './round-schedule.ts';
import type { LargeOptions } from './large-documents.ts';
import { ROOT } from './servers.ts';

export interface BenchOptions {
  /** Measured seconds per server and scenario, over all rounds. */
  durationSeconds: number;
  /** Rounds per scenario; each measures every server for durationSeconds / rounds, interleaved. */
  rounds: number;
  /** Seconds of the same load before each measurement, not counted. */
  warmupSeconds: number;
  connections: number;
  /** What drives the load: the lean client, or autocannon to compare. */
  generator: GeneratorName;
  /** Spawns per server for the start-up figure (median); the last one takes the load. */
  startupSamples: number;
  /** Measured seconds of each scenario's paired loads (mock and baseline at the same time); 0 skips them. */
  pairedSeconds: number;
  exampleCount: number;
  verifyGenerate: number;
  /** Only the plantstore mock under valid creates, with --cpu-prof; figures are perturbed. */
  profile: boolean;
  profileDir: string;
  resultsFile: string;
  /** Only the large-document part (bench/large-documents.ts); `large` is undefined with --skip-large. */
  largeOnly: boolean;
  large?: LargeOptions;
}

export const USAGE = `Usage: npm run bench [-- --duration S] [--rounds N] [--paired S] [--quick] [--profile] [--generator NAME]
  (or: node bench/run.ts ... with Node 24)

  --duration S     measured seconds per server and scenario, over all rounds (default 5)
  --rounds N       rounds per scenario (default 3): in each, every server is measured for S/N
                   seconds, one after the other, in an order that rotates from round to round;
                   ratios then compare loads seconds apart, not minutes (this machine drifts)
  --paired S       after the rounds, per scenario, S measured seconds of the mock and the baseline
                   loaded at the same time on the same core, half the connections each: both feel
                   the same drift, so their req/s ratio is their cost ratio (default 5; 0 skips it)
  --quick          a 1 s smoke run: one round, 0.5 s warm-up, one start-up sample, 1 s paired
                   loads, smaller example and verify runs
  --profile        only the plantstore mock under valid creates, run with node --cpu-prof
                   (profile in bench/results/prof/); prints the top self-time functions and files;
                   no paired loads (the baseline is not started)
  --connections N  concurrent connections of the load generator (default 50)
  --generator NAME what sends the load: plantstore (default; a lean closed-loop client,
                   bench/http-load-client.ts), undici (Client.dispatch, one client per
                   connection) or autocannon; both cost more CPU per request than the lean
                   client: on 2 cores they saturate their own core before a fast server does
  --large-only     only the large-document part: Stripe's and GitHub's documents (fetched once
                   with npm pack), plantstore (cold and warm cache) against Prism: start-up,
                   first answers, RSS, SIGTERM (bench/results/large-documents.json)
  --skip-large     everything but the large-document part
  --large-runs N   starts per server and document (default 3; 1 with --quick)
  --large-ops N    GET operations sampled per document for their first answers (default 20)
  --large-timeout S  seconds a server gets from spawn to its first answer (default 60)
  -h, --help       this text

Figures go to stdout and to bench/results/latest.json (bench/results/profile.json with --profile).
A benchmark, not a test: it asserts nothing, and exits 0 unless the harness itself fails.`;

// Shorter rounds measure mostly the connections opening and the rate's first jitters.
const MIN_ROUND_SECONDS = 0.25;

/** Parses argv; throws an Error whose message is meant for the user on a bad flag. */
export function resolveBenchOptions(argv: string[]): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      rounds: { type: 'string' },
      paired: { type: 'string' },
      quick: { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      connections: { type: 'string', default: '50' },
      generator: { type: 'string', default: 'plantstore' },
      'large-only': { type: 'boolean', default: false },
      'skip-large': { type: 'boolean', default: false },
      'large-runs': { type: 'string' },
      'large-ops': { type: 'string', default: '20' },
      'large-timeout': { type: 'string', default: '60' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const quick = values.quick;
  const durationSeconds = Number(values.duration ?? (quick ? 1 : 5));
  if (!(durationSeconds > 0 && durationSeconds <= 600)) throw new Error(`--duration must be a number of seconds in (0, 600], got ${values.duration}`);
  const rounds = Number(values.rounds ?? (quick ? 1 : 3));
  if (!(Number.isInteger(rounds) && rounds >= 1 && rounds <= MAX_ROUNDS)) throw new Error(`--rounds must be a whole number from 1 to ${MAX_ROUNDS}, got ${values.rounds}`);
  if (durationSeconds / rounds < MIN_ROUND_SECONDS) throw new Error(`--duration ${durationSeconds} over --rounds ${rounds} leaves ${(durationSeconds / rounds).toFixed(2)} s a round; give each round at least ${MIN_ROUND_SECONDS} s (fewer rounds or a longer duration)`);
  const pairedSeconds = values.profile ? 0 : Number(values.paired ?? (quick ? 1 : 5));
  if (!(pairedSeconds >= 0 && pairedSeconds <= 600)) throw new Error(`--paired must be a number of seconds in [0, 600] (0 skips the paired loads), got ${values.paired}`);
  const connections = Number(values.connections);
  if (!Number.isInteger(connections) || connections < 1) throw new Error(`--connections must be a whole number of 1 or more, got ${values.connections}`);
  const generator = values.generator as GeneratorName;
  if (!GENERATOR_NAMES.includes(generator)) throw new Error(`--generator must be one of ${GENERATOR_NAMES.join(', ')}, got ${values.generator}`);
  const results = join(ROOT, 'bench', 'results');
  if (values['large-only'] && (values['skip-large'] || values.profile)) throw new Error(`--large-only cannot go with --${values.profile ? 'profile' : 'skip-large'}`);
  const wholeNumber = (name: string, value: string | undefined, min: number, max: number) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}, got ${value}`);
    return n;
  };
  const large: LargeOptions | undefined = values['skip-large'] || values.profile
    ? undefined
    : {
        runs: wholeNumber('large-runs', values['large-runs'] ?? (quick ? '1' : '3'), 1, 20),
        operations: wholeNumber('large-ops', values['large-ops'], 1, 500),
        timeoutSeconds: wholeNumber('large-timeout', values['large-timeout'], 1, 600),
        // One operation's first request: far past the 200 ms, short enough to move on.
        requestTimeoutSeconds: 20,
        seed: 1,
        resultsFile: join(results, 'large-documents.json'),
      };
  return {
    durationSeconds,
    rounds,
    warmupSeconds: quick ? 0.5 : 2,
    connections,
    generator,
    startupSamples: quick || values.profile ? 1 : 3,
    pairedSeconds,
    exampleCount: quick ? 10_000 : 100_000,
    verifyGenerate: quick ? 10 : 100,
    profile: values.profile,
    profileDir: join(results, 'prof'),
    resultsFile: join(results, values.profile ? 'profile.json' : 'latest.json'),
    largeOnly: values['large-only'],
    large,
  };
}
