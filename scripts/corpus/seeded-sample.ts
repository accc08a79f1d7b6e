import { createSeededRandom } from '../../src/example/seeded-random.ts';
// The corpus's random part must be the same list on every machine and every run, so that two runs'
// figures compare: a fixed seed drives a small PRNG over the sorted candidates.

/** A seeded uniform [0, 1) (the toolkit's mulberry32), enough to shuffle a list of names repeatably. */
export function mulberry32(seed: number): () => number {
  const random = createSeededRandom(seed);
  return () => random.next32() / 4294967296;
}

/** `count` names drawn without replacement from `candidates` (sorted first, so input order does not matter). */
export function seededSample(candidates: readonly string[], count: number, seed: number): string[] {
  const pool = [...new Set(candidates)].sort();
  const next = mulberry32(seed);
  // A partial Fisher-Yates shuffle: the first `count` slots are the sample.
  for (let i = 0; i < Math.min(count, pool.length); i++) {
    const j = i + Math.floor(next() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, Math.min(count, pool.length));
}
