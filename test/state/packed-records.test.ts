// The memory store's collection: a hand-written table, so it is checked against a Map (the
// behaviour it replaces) through seeded random operations, and at its edges: keys and texts that
// only a lossless encoding keeps apart, a text larger than a chunk, and reclaiming removed bytes.
import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../../src/example/seeded-random.ts';
import { PackedRecords } from '../../src/state/packed-records.ts';

/** A seeded stream of numbers in [0, 1), from the toolkit's own generator. */
function seeded(seed: number): () => number {
  const random = createSeededRandom(seed);
  return () => random.next32() / 2 ** 32;
}

const expectSame = (records: PackedRecords, model: Map<string, string>) => {
  expect(records.size).toBe(model.size);
  expect([...records.entries()]).toEqual([...model.entries()]);
  expect([...records.keys()]).toEqual([...model.keys()]);
  expect([...records.values()]).toEqual([...model.values()]);
};

// Kinds of keys: digits (the plants' ids), Latin-1, beyond Latin-1, lone surrogates, empty.
const KEY_KINDS = [
  (n: number) => String(1_000_000_000_000 + n),
  (n: number) => `café-${n}`,
  (n: number) => `植物-${n}`,
  (n: number) => `\ud800${n}`,
  (n: number) => (n % 50 === 0 ? '' : `k${n}`),
];
const textOf = (n: number, random: () => number) =>
  `{"id":${n},"name":"${'x'.repeat(Math.floor(random() * 40))}${n % 7 === 0 ? '🌿' : ''}${n % 11 === 0 ? '\udc00' : ''}"}`;

describe('PackedRecords', () => {
  it.each([1, 2, 3])('behaves as a Map under 30,000 seeded random operations (seed %i)', (seed) => {
    const random = seeded(seed);
    const records = new PackedRecords();
    const model = new Map<string, string>();
    for (let step = 1; step <= 30_000; step++) {
      const n = Math.floor(random() * 6_000);
      const key = KEY_KINDS[n % KEY_KINDS.length](n);
      const roll = random();
      if (roll < 0.55) {
        const text = textOf(step, random);
        records.set(key, text);
        model.set(key, text);
      } else if (roll < 0.75) {
        expect(records.delete(key)).toBe(model.delete(key));
      } else if (roll < 0.9) {
        expect(records.get(key)).toBe(model.get(key));
      } else {
        expect(records.has(key)).toBe(model.has(key));
      }
      if (step % 5_000 === 0) expectSame(records, model);
    }
    expectSame(records, model);
  });

  it('keeps keys apart that a lossy encoding would merge, and reads every key and text back exactly', () => {
    const records = new PackedRecords();
    const pairs: Array<[string, string]> = [
      ['\ud800', 'lone high surrogate'],
      ['\ud801', 'another lone high surrogate'],
      ['\ufffd', 'the replacement character itself'],
      ['', 'empty key'],
      ['é', 'Latin-1'],
      ['e\u0301', 'decomposed é'],
      ['🌿', 'astral'],
      ['1', '{"name":"\ud83c"}'],
      ['2', '{"name":"\udf3f\ud83c"}'],
    ];
    const empty = new PackedRecords();
    empty.set('', '');
    expect([...empty.entries()]).toEqual([['', '']]);
    for (const [key, text] of pairs) records.set(key, text);
    expect([...records.entries()]).toEqual(pairs);
    for (const [key, text] of pairs) expect(records.get(key)).toBe(text);
    expect(records.get('\udfff')).toBeUndefined();
  });

  it('stores a text larger than a chunk, and the records after it', () => {
    const records = new PackedRecords();
    const big = `{"name":"${'ü'.repeat(700_000)}"}`; // 1.4 MB of UTF-8
    records.set('a', '{"id":1}');
    records.set('big', big);
    records.set('b', '{"id":2}');
    expect(records.get('big')).toBe(big);
    expect([...records.keys()]).toEqual(['a', 'big', 'b']);
    expect(records.get('b')).toBe('{"id":2}');
  });

  it('keeps a replaced record where it stood, and reclaims the bytes of replaced and removed records', () => {
    const records = new PackedRecords();
    const text = (n: number) => `{"n":${n},"pad":"${'p'.repeat(100_000)}"}`;
    records.set('first', '{}');
    records.set('kept', text(0));
    records.set('last', '{}');
    for (let n = 1; n <= 300; n++) records.set('kept', text(n)); // 30 MB written, 100 KB live
    expect([...records.keys()]).toEqual(['first', 'kept', 'last']);
    expect(records.get('kept')).toBe(text(300));
    expect(records.heldBytes).toBeLessThanOrEqual(16 * 1048576);
    for (let n = 0; n < 200; n++) records.set(`gone-${n}`, text(n));
    for (let n = 0; n < 200; n++) records.delete(`gone-${n}`);
    expect(records.heldBytes).toBeLessThanOrEqual(16 * 1048576);
    expect([...records.entries()]).toEqual([
      ['first', '{}'],
      ['kept', text(300)],
      ['last', '{}'],
    ]);
  });

  it('holds a small collection in a small chunk, and grows its chunks to 1 MB', () => {
    const records = new PackedRecords();
    records.set('1', '{"id":1,"name":"Fern"}');
    expect(records.heldBytes).toBe(4096);
    for (let n = 2; n <= 100_000; n++) records.set(String(n), `{"id":${n},"name":"Fern"}`);
    // 4 KB, 8 KB, ... 512 KB, then 1 MB chunks: ~2.9 MB of records in ~4 MB of chunks.
    expect(records.heldBytes).toBeLessThan(4 * 1048576);
    expect(records.get('99999')).toBe('{"id":99999,"name":"Fern"}');
  });

  it('keeps order and finds every key across table growth and removal of half the records', () => {
    const records = new PackedRecords();
    const model = new Map<string, string>();
    for (let n = 0; n < 20_000; n++) {
      records.set(String(n), `{"id":${n}}`);
      model.set(String(n), `{"id":${n}}`);
    }
    for (let n = 0; n < 20_000; n += 2) {
      records.delete(String(n));
      model.delete(String(n));
    }
    for (let n = 20_000; n < 30_000; n++) {
      records.set(String(n), `{"id":${n}}`);
      model.set(String(n), `{"id":${n}}`);
    }
    expectSame(records, model);
    for (let n = 0; n < 30_000; n++) expect(records.get(String(n))).toBe(model.get(String(n)));
  });
});
