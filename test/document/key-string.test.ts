// The exact key a record is stored under: integers in canonical decimal whatever their type,
// strings as they are, anything else no key at all.
import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../../src/example/seeded-random.ts';
import { keyString } from '../../src/document/resources.ts';

describe('keyString', () => {
  it.each([
    [0, '0'],
    [-0, '0'],
    [7, '7'],
    [-7, '-7'],
    [2147483647, '2147483647'],
    [2147483648, '2147483648'],
    [-2147483648, '-2147483648'],
    [-2147483649, '-2147483649'],
    [1000000000001, '1000000000001'],
    [9007199254740991, '9007199254740991'],
    [-9007199254740991, '-9007199254740991'],
    [9007199254740993n, '9007199254740993'],
    [-9223372036854775808n, '-9223372036854775808'],
    ['007', '007'],
    ['', ''],
  ])('keys %s as %j', (value, key) => {
    expect(keyString(value)).toBe(key);
  });

  it.each([[1.5], [Number.NaN], [Number.POSITIVE_INFINITY], [null], [true], [{}]])('gives no key for %s', (value) => {
    expect(keyString(value)).toBeUndefined();
  });

  it('writes every safe integer as String() does: 20,000 across the range, seeded', () => {
    const random = createSeededRandom(12345);
    const next = () => random.next32() / 2 ** 32;
    for (let i = 0; i < 20_000; i++) {
      const magnitude = 10 ** Math.floor(next() * 16);
      const value = Math.trunc((next() - 0.5) * 2 * magnitude * 9.007);
      if (!Number.isSafeInteger(value)) continue;
      expect(keyString(value)).toBe(String(value === 0 ? 0 : value));
    }
  });
});
