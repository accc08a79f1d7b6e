// `verify --shard i/n`: one of n disjoint parts of a run, for a CI job matrix. Every shard works
// out the whole run's cases (they are seeded, so each job gets the same list) and keeps its part.
// The split is by unit of work, never through one: an operation's generated cases stay together,
// a sequence stays whole, and a fixture case is its own unit. Units go to shards by size, the
// largest first to the shard with the fewest cases so far (ties to the lowest shard), so the shards
// are balanced by the number of cases, not by where the cases sit in the list.
import { PlantstoreError } from '../errors.ts';
import type { Case } from './fixture.ts';

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** Reads "i/n" (1 <= i <= n); anything else is a usage error saying what it takes. */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count || !Number.isSafeInteger(count))
    throw new PlantstoreError('USAGE', `--shard ${text}: expected i/n with 1 <= i <= n, e.g. --shard 2/4`, [
      'In a CI matrix of n jobs, job i runs --shard i/n; `plantstore merge-reports` joins their --json reports.',
    ]);
  return { index, count };
}

/**
 * The unit a case belongs to: a generated sequence is its own; an operation's generated cases
 * share one ("generated/<operationId>/<case>" without "<case>"); a fixture case is its own.
 */
export function unitOf(testCase: Pick<Case, 'id' | 'source'>): string {
  if (testCase.source !== 'generated' || testCase.id.startsWith('generated/sequence/')) return testCase.id;
  return testCase.id.slice(0, testCase.id.lastIndexOf('/'));
}

/**
 * The positions (in the whole run's order) of the cases of one shard, ascending. Over i = 1..n
 * the parts are disjoint and together hold every position exactly once.
 */
export function shardPositions(cases: Case[], shard: Shard): number[] {
  const units = new Map<string, number[]>();
  cases.forEach((testCase, position) => {
    const unit = unitOf(testCase);
    const positions = units.get(unit);
    if (positions) positions.push(position);
    else units.set(unit, [position]);
  });
  // Largest unit first; equal sizes in run order (each unit's first position), so the order is total.
  const ordered = [...units.values()].sort((a, b) => b.length - a.length || a[0] - b[0]);
  const loads = new Array<number>(shard.count).fill(0);
  const mine: number[] = [];
  for (const positions of ordered) {
    let lightest = 0;
    for (let i = 1; i < loads.length; i++) if (loads[i] < loads[lightest]) lightest = i;
    loads[lightest] += positions.length;
    if (lightest === shard.index - 1) mine.push(...positions);
  }
  return mine.sort((a, b) => a - b);
}

/** What a shard's report adds to the JSON report, for `merge-reports` to check and join the parts. */
export interface ShardPart extends Shard {
  /** How many cases the whole (unsharded) run has. */
  total: number;
  /** The whole run's position of each of this shard's cases, in the order of the report's cases. */
  positions: number[];
  /** The document's operations (the HTML report lists those no case reached). */
  operations: Array<{ operationId: string; method: string; path: string }>;
}
