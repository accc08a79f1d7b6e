// Another commit's tree of this repository, to run beside this checkout: `git archive`d once into
// a folder of the system's temporary directory named by its commit. Not under node_modules, where
// Node strips no types (the trees run src/ as TypeScript), and not in this checkout, where tsc,
// vitest and Prettier would read it. It runs on this checkout's node_modules through a link.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const git = (root: string, args: string[]) =>
  execFileSync('git', ['-C', root, ...args], { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });

/** The full id of `revision` in the repository at `root`, or undefined when git or the commit is not there. */
export function commitOf(root: string, revision: string): string | undefined {
  try {
    return String(git(root, ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`])).trim();
  } catch {
    return undefined;
  }
}

/** The tree of `commit`, archived once into the cache; its node_modules is (again) a link to `modules`. */
export function materialize(root: string, commit: string, modules: string): string {
  const dir = join(tmpdir(), 'plantstore-trees', commit);
  if (!existsSync(join(dir, 'package.json'))) {
    // Into a folder of its own first, renamed when whole: a run stopped halfway leaves no tree that looks complete.
    const partial = `${dir}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    execFileSync('tar', ['-x', '-C', partial], { input: git(root, ['archive', '--format=tar', commit]) });
    rmSync(dir, { recursive: true, force: true });
    renameSync(partial, dir);
  }
  // Pointed at this checkout's node_modules at every run: the checkout that made the tree may be gone.
  const link = join(dir, 'node_modules');
  if (lstatSync(link, { throwIfNoEntry: false })) unlinkSync(link); // the link only, never what it points at
  symlinkSync(modules, link, 'dir');
  return dir;
}
