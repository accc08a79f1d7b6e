// Seeds for json-schema-faker and the integer widener. Every example gets its own seed, mixed
// from the user's seed, the example's index and the attempt number, so that example 2 of seed 1 is
// unrelated to example 1 of seed 2 (json-schema-faker's own createGenerator just counts seeds up,
// which would make the outputs of neighbouring seeds overlap).

/** Mixes integers into one 32-bit seed (a murmur3-style finalizer per part). */
export function mixSeed(...parts: number[]): number {
  let hash = 0x811c9dc5;
  for (const part of parts) {
    // Seeds past 2^32 still count: mix the high half too.
    for (const word of [part >>> 0, Math.floor(part / 0x1_0000_0000) >>> 0]) {
      hash = Math.imul(hash ^ word, 0x85ebca6b);
      hash ^= hash >>> 13;
      hash = Math.imul(hash, 0xc2b2ae35);
      hash ^= hash >>> 16;
    }
  }
  return hash >>> 0;
}

export interface SeededRandom {
  /** A uniform unsigned 32-bit integer. */
  next32(): number;
  /** A uniform integer in [0, bound) for bound >= 1 (bound up to 2^64). */
  below(bound: bigint): bigint;
  /** A uniform int64 (one bigint allocation: the hot path of every int64 field). */
  int64(): bigint;
}

const words = new Uint32Array(2);
const int64View = new BigInt64Array(words.buffer);

/** Mulberry32, the generator json-schema-faker uses too; reseedable so one instance serves all examples. */
export function createSeededRandom(seed: number): SeededRandom & { reseed(seed: number): void } {
  let state = seed | 0;
  const next32 = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
  return {
    next32,
    below(bound) {
      // 96 random bits modulo a bound of at most 2^64: the modulo bias stays below 2^-32.
      const bits = (BigInt(next32()) << 64n) | (BigInt(next32()) << 32n) | BigInt(next32());
      return bits % bound;
    },
    int64() {
      words[0] = next32();
      words[1] = next32();
      return int64View[0];
    },
    reseed(next) {
      state = next | 0;
    },
  };
}
