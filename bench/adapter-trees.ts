// The two historical trees of issue 20's HTTP decision, brought back from git for the adapters
// part (bench/adapters.ts): 9ce56d0^, the last commit with the own HTTP/1.1 layer on node:net, and
// 9ce56d0, the first with the node:http adapter (between them only the HTTP layer changed). Each
// is `git archive`d once into a folder of the system's temporary directory, named by its commit:
// not under node_modules, where Node strips no types (the trees run src/ as TypeScript), and not
// in this checkout, where tsc, vitest and Prettier would read them. Both run on this checkout's
// node_modules through a symbolic link: their dependencies are the same as today's (checked here).
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The commit that replaced the own HTTP/1.1 layer with the node:http adapter. */
export const ADAPTER_COMMIT = '9ce56d04b89ed2379991429a102f38ead25c72ac';

export interface AdapterTrees {
  /** 9ce56d0^: the own layer on node:net. */
  ownLayer: { commit: string; root: string };
  /** 9ce56d0: the node:http adapter. */
  adapter: { commit: string; root: string };
  /** What differs from this checkout beyond the HTTP layer, worth a note (dependencies). */
  notes: string[];
}

/** Thrown when git or the commits are not there (a shallow clone, a tarball): a message for the user. */
export class HistoryMissing extends Error {}

const git = (root: string, args: string[]) =>
  execFileSync('git', ['-C', root, ...args], { stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 256 * 1024 * 1024 });

/** The full id of `revision` in the repository at `root`, or undefined when git or the commit is not there. */
export function commitOf(root: string, revision: string): string | undefined {
  try {
    return git(root, ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`])
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

/** The tree of `commit`, archived once into the cache; its node_modules is (again) a link to `modules`. */
export function materialize(root: string, commit: string, modules: string): string {
  const dir = join(tmpdir(), 'plantstore-adapters', commit);
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

const dependenciesOf = (root: string) =>
  JSON.stringify(
    (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: object }).dependencies ?? {},
  );

/** Both trees, ready to run; throws HistoryMissing when this checkout has not their commits. */
export function adapterTrees(root: string): AdapterTrees {
  const adapter = commitOf(root, ADAPTER_COMMIT);
  const ownLayer = adapter && commitOf(root, `${adapter}^`);
  if (!adapter || !ownLayer)
    throw new HistoryMissing(
      `the adapters part needs commits ${ADAPTER_COMMIT.slice(0, 7)}^ and ${ADAPTER_COMMIT.slice(0, 7)} from git, and this checkout has not got them (a shallow clone, or no git): run \`git fetch --unshallow\` and try again`,
    );
  const modules = join(root, 'node_modules');
  const trees: AdapterTrees = {
    ownLayer: { commit: ownLayer, root: materialize(root, ownLayer, modules) },
    adapter: { commit: adapter, root: materialize(root, adapter, modules) },
    notes: [],
  };
  const today = dependenciesOf(root);
  for (const [label, tree] of [
    ['the own layer', trees.ownLayer],
    ['the node:http adapter', trees.adapter],
  ] as const) {
    if (dependenciesOf(tree.root) !== today)
      trees.notes.push(
        `${label} (${tree.commit.slice(0, 7)}) declares other dependencies than this checkout; it runs on this checkout's node_modules`,
      );
  }
  return trees;
}
