import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardJson, mayNestDeeperThan, provesNoDuplicateKeys } from '../../src/json/json-guard.ts';

// JSON texts of small objects whose keys come from a tiny alphabet, so duplicates are common;
// written by hand (JSON.stringify could not repeat a key), strings with and without escapes.
const key = fc.constantFrom('a', 'b', 'id', 'a"', '\u00e9', '');
const scalar = fc.oneof(
  fc.integer().map(String),
  fc.constantFrom('true', 'null'),
  fc.string({ maxLength: 4 }).map((s) => JSON.stringify(s)),
  fc.constantFrom('"x\\"y"', '"\\u0061"'),
);
const text: fc.Arbitrary<string> = fc.letrec<{ value: string; object: string; array: string }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalar, tie('object'), tie('array')),
  object: fc
    .array(fc.tuple(key, tie('value')), { maxLength: 5 })
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(', ')}}`),
  array: fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`),
})).value;

describe('the JSON guard shortcuts', () => {
  it('prove "no duplicate key" only when the full scan finds none, and prove it for every text without escapes and duplicates', () => {
    fc.assert(
      fc.property(text, (json) => {
        const scan = guardJson(json, 64);
        const proven = provesNoDuplicateKeys(json, JSON.parse(json));
        if (proven) expect(scan.ok).toBe(true);
        if (scan.ok && !json.includes('\\')) expect(proven).toBe(true);
      }),
      { numRuns: 5_000, seed: 11 },
    );
  });

  it('never prove a text with a duplicate key, escaped or not', () => {
    for (const json of [
      '{"id":1,"name":"a","id":2}',
      '{"id":"x","id":"y"}',
      '{"a":{"b":1,"b":"s"}}',
      '{"id":1,"\\u0069d":2}',
      '[{"a":1},{"a":1,"a":1}]',
    ]) {
      expect(provesNoDuplicateKeys(json, JSON.parse(json))).toBe(false);
      expect(guardJson(json, 64).ok).toBe(false);
    }
  });

  it('send to the full scan every text that could nest past the limit', () => {
    expect(mayNestDeeperThan('{"id":1,"name":"Fern"}', 64)).toBe(false);
    expect(mayNestDeeperThan(`${'['.repeat(64)}${']'.repeat(64)}`, 64)).toBe(false);
    expect(mayNestDeeperThan(`${'['.repeat(65)}${']'.repeat(65)}`, 64)).toBe(true);
    expect(mayNestDeeperThan('['.repeat(1_000_000), 64)).toBe(true);
    fc.assert(
      fc.property(text, (json) => {
        if (!mayNestDeeperThan(json, 3)) expect(guardJson(json, 3)).not.toMatchObject({ problem: 'depth' });
      }),
      { numRuns: 2_000, seed: 12 },
    );
  });
});
