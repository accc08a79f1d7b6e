// The two historical trees of the HTTP layer's decision, brought back from git for the adapters
// suite: 9ce56d0^, the last commit with the own HTTP/1.1 layer on node:net, and 9ce56d0, the first
// with the node:http adapter (between them only the HTTP layer changed). Both run on this
// checkout's node_modules (bench/lib/git-trees.ts); their dependencies are checked to be the same.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commitOf, materialize } from '../lib/git-trees.ts';

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
