// Every request of a `$id` scenario carries a fresh id of the scenario's kind; the others repeat one body.
import { describe, expect, it } from 'vitest';
import { bodyOf, headersOf, scenario } from '../../bench/lib/scenarios.ts';
import { parseJson } from '../../src/json/exact-json.ts';

describe('bodyOf', () => {
  it('gives valid creates the counter as id and name', () => {
    expect(bodyOf(scenario('valid'), 42n)).toBe('{"id":42,"name":"Fern 42","tag":"green"}');
  });

  it('gives int64 creates 19-digit ids past 2^53 and under 2^63, one per counter', () => {
    const ids = [0n, 1n, 100_000_000n, 99_999_999_999n].map((n) =>
      BigInt(bodyOf(scenario('valid-int64'), n).match(/"id":(\d+)/)?.[1] ?? ''),
    );
    expect(ids[0]).toBe(9_007_199_200_000_000_000n);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id > 2n ** 53n).toBe(true);
      expect(id < 2n ** 63n).toBe(true);
    }
  });

  it('writes JSON the mock reads back exactly', () => {
    expect(parseJson(bodyOf(scenario('valid-int64'), 7n))).toMatchObject({
      ok: true,
      value: { id: 9_007_199_200_000_000_007n, name: 'Fern 9007199200000000007' },
    });
  });

  it.each(['invalid-body', 'missing-token'] as const)('repeats the %s body whatever the counter', (name) => {
    expect(bodyOf(scenario(name), 1n)).toBe(bodyOf(scenario(name), 2n));
  });
});

describe('headersOf', () => {
  it('sends a bearer token except in the missing-token scenario', () => {
    expect(headersOf(scenario('valid')).authorization).toBe('Bearer bench-token');
    expect(headersOf(scenario('missing-token'))).toEqual({ 'content-type': 'application/json' });
  });
});
