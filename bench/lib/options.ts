// The benchmark's one command line: which suites run, and the settings they share, resolved once.
import { parseArgs } from 'node:util';
import type { GeneratorName } from './load.ts';

export const SUITES = ['plant-store', 'msw', 'large-documents', 'proxy', 'redis'] as const;
export type SuiteName = (typeof SUITES)[number];
/** What `npm run bench` runs without a suite named. */
const DEFAULT_SUITES: SuiteName[] = ['plant-store', 'msw', 'large-documents'];
// 48 shares out evenly among 3 or 4 servers; msw and large-documents send one request at a time.
const CONNECTIONS: Partial<Record<SuiteName, number>> = { 'plant-store': 48, proxy: 16, redis: 32 };

export interface BenchOptions {
  suites: SuiteName[];
  /** Measured whole seconds of each load. */
  durationSeconds: number;
  /** Whole seconds of the same load before each measurement, not counted. */
  warmupSeconds: number;
  /** wrk's connections, shared out among servers loaded at the same time; each suite's default when not given. */
  connections: number;
  connectionsGiven: boolean;
  generator: GeneratorName;
  /** Fresh starts, processes or rounds per server (the figures are medians over them); undefined: each suite's default. */
  runs?: number;
  /** plant-store: a git revision whose mock is loaded beside this checkout's. */
  against?: string;
  /** large-documents: GET operations sampled per document, and seconds from spawn to a first answer. */
  operations: number;
  timeoutSeconds: number;
}

export const USAGE = `Usage: npm run bench -- [SUITE ...] [--seconds S] [--quick] [--connections N] [--runs N]
                        [--against REV] [--ops N] [--timeout S]
  SUITE            ${SUITES.join(', ')}; without one: ${DEFAULT_SUITES.join(', ')}
  --seconds S      measured whole seconds of each load, after a 2 s warm-up (default 5)
  --quick          a smoke run: 1 s loads after a 1 s warm-up, one start, run or round of everything
  --connections N  wrk's connections; servers loaded at the same time share them (default 48; proxy 16, redis 32)
  --runs N         starts per server (plant-store start-up 3, large-documents 3), fresh processes per
                   configuration (msw 5), interleaved rounds (proxy 3); medians over them
  --against REV    plant-store: also the mock of git revision REV (git archive; needs the history),
                   loaded at the same time as this checkout's: this checkout ÷ REV per scenario
  --ops N          large-documents: GET operations sampled per document (default 20)
  --timeout S      large-documents: seconds a server gets from spawn to its first answer (default 60)
  -h, --help       this text
Needs wrk on PATH (apt-get install wrk). Figures go to stdout and bench/results/SUITE.json; nothing is asserted.`;

/** Parses argv; throws an Error whose message is meant for the user on a bad flag or suite. */
export function resolveBenchOptions(argv: string[]): BenchOptions | 'help' {
  const text = { type: 'string' } as const;
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...{ seconds: text, connections: text, runs: text, against: text, ops: text, timeout: text },
      quick: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  const unknown = positionals.filter((p) => !(SUITES as readonly string[]).includes(p));
  if (unknown.length > 0) throw new Error(`unknown suite ${unknown.join(', ')}; the suites: ${SUITES.join(', ')}`);
  const whole = (name: string, value: string | undefined, fallback: number, min: number, max: number) => {
    const n = value === undefined ? fallback : Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${name} must be a whole number from ${min} to ${max}, got ${value}`);
    return n;
  };
  const quick = values.quick;
  return {
    suites: positionals.length > 0 ? [...new Set(positionals as SuiteName[])] : DEFAULT_SUITES,
    // Whole seconds: wrk takes no fractions.
    durationSeconds: whole('seconds', values.seconds, quick ? 1 : 5, 1, 600),
    warmupSeconds: quick ? 1 : 2,
    connections: whole('connections', values.connections, 48, 1, 10_000),
    connectionsGiven: values.connections !== undefined,
    generator: 'wrk',
    runs: values.runs === undefined ? (quick ? 1 : undefined) : whole('runs', values.runs, 1, 1, 50),
    against: values.against,
    operations: whole('ops', values.ops, 20, 1, 500),
    timeoutSeconds: whole('timeout', values.timeout, 60, 1, 600),
  };
}

/** The options as `suite` takes them: its own default connections unless --connections was given. */
export const optionsFor = (options: BenchOptions, suite: SuiteName): BenchOptions =>
  options.connectionsGiven ? options : { ...options, connections: CONNECTIONS[suite] ?? 1 };
