// The harness's command line, resolved once into one options object.
import { parseArgs } from 'node:util';
import { join } from 'node:path';

export interface CorpusOptions {
  only: string[];
  limit: number;
  prism: boolean;
  msw: boolean;
  /** Run Prism's test-harness scenarios instead of the documents (prism-harness.ts). */
  prismHarness: boolean;
  json: string;
  verbose: boolean;
  cacheDir: string;
  startTimeoutMs: number;
  verifyTimeoutMs: number;
}

export const USAGE = `npm run corpus [-- --only SUBSTRING ... | --limit N | --no-prism | --no-msw | --prism-harness | --json FILE | --verbose]
  --only TEXT   only documents whose name contains TEXT (repeatable: any of them)
  --limit N     the first N documents (after --only)
  --no-prism    skip Prism
  --no-msw      skip the MSW stage (the handlers' answers to the same probes, against a fresh engine's)
  --prism-harness  run Prism's own test-harness scenarios against the mock instead (fetched once into the cache)
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
  const cacheDir = process.env.PLANTSTORE_CORPUS_CACHE || join(root, 'node_modules', '.cache', 'plantstore-corpus');
  return {
    only: values.only ?? [],
    limit,
    prism: values.prism,
    msw: values.msw,
    prismHarness: values['prism-harness'],
    json: values.json ?? join(cacheDir, 'results.json'),
    verbose: values.verbose,
    cacheDir,
    startTimeoutMs: 60_000,
    verifyTimeoutMs: 180_000,
  };
}

export class UsageError extends Error {}
