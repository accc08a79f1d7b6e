import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactInteger, parseJson, stringifyJson } from '../../src/json/exact-json.ts';

// The reference: every number literal read through its source text, as parseJson did before it
// learned to skip that pass when the native parse lost nothing.
function referenceParse(text: string): unknown {
  return JSON.parse(text, (_key, value, context?: { source?: string }) => {
    if (typeof value !== 'number' || context?.source === undefined) return value;
    const exact = exactInteger(context.source);
    if (exact === undefined) return value;
    return Number.isSafeInteger(value) && BigInt(value) === exact ? value : exact;
  });
}

// Number literals of every kind that matters: safe and unsafe integers, the 2^53 edge, exponents,
// fractions that do and do not round to integers, negative zero.
const literal = fc.oneof(
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.bigInt({ min: 2n ** 53n - 3n, max: 2n ** 53n + 3n }).map((n) => (n % 2n === 0n ? String(n) : `-${n}`)),
  fc.tuple(fc.integer({ min: 1, max: 9_999 }), fc.integer({ min: -5, max: 25 })).map(([m, e]) => `${m}e${e}`),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.constantFrom(
    '-0',
    '0.0',
    '1.0',
    '9007199254740993.0',
    '9007199254740993.5',
    '12345678901234567e-1',
    '1.00000000000000000001e20',
  ),
);
// The whitespace JSON allows between tokens, sometimes none.
const space = fc.constantFrom('', '', ' ', '\n', '\t ', '\r\n  ');
const document: fc.Arbitrary<string> = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
  value: fc
    .tuple(
      space,
      fc.oneof(
        { depthSize: 'small' },
        literal,
        fc.string().map((s) => JSON.stringify(s)),
        fc.constantFrom('true', 'false', 'null', '"__proto__"', '"a\\"b\\u00e9"'),
        tie('array'),
        tie('object'),
      ),
      space,
    )
    .map(([before, value, after]) => `${before}${value}${after}`),
  array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
  object: fc
    .uniqueArray(
      fc.tuple(fc.oneof(fc.string(), fc.constantFrom('__proto__', '1', '0', 'id')), tie('value'), space, space),
      {
        maxLength: 4,
        selector: ([k]) => k,
      },
    )
    .map(
      (entries) =>
        `{${entries.map(([k, v, before, after]) => `${before}${JSON.stringify(k)}${after}:${v}`).join(',')}}`,
    ),
})).value;

describe('parseJson', () => {
  it('reads every document exactly as the read-every-literal reference does', () => {
    fc.assert(
      fc.property(document, (text) => {
        const parsed = parseJson(text);
        expect(parsed.ok).toBe(true);
        if (parsed.ok) expect(parsed.value).toStrictEqual(referenceParse(text));
      }),
      { numRuns: 3_000, seed: 5 },
    );
  });

  it.each([
    ['9007199254740993', 9007199254740993n],
    ['9007199254740992', 9007199254740992n],
    ['9007199254740991', 9007199254740991],
    ['-9223372036854775808', -9223372036854775808n],
    ['1e3', 1000],
    ['9.007199254740993e15', 9007199254740993n],
    ['0.5', 0.5],
  ])('reads %s as %s', (text, expected) => {
    // plain (no bigint anywhere) is what lets the mock skip its bigint walks: it must never be wrong.
    expect(parseJson(text)).toEqual({ ok: true, value: expected, plain: typeof expected !== 'bigint' });
  });

  it('says plain only when nothing in the value is a bigint', () => {
    expect(parseJson('{"a":[1,{"b":9007199254740993}]}')).toMatchObject({ ok: true, plain: false });
    expect(parseJson('{"a":[1,{"b":9007199254740991}],"c":"9007199254740993"}')).toMatchObject({
      ok: true,
      plain: true,
    });
    expect(parseJson('[1.5, 9007199254740993.5]')).toMatchObject({ ok: true, plain: false }); // not known plain: the exact reader ran
  });

  it('keeps two ids past 2^53 that differ in the last digit apart, and writes them back as sent', () => {
    const parsed = parseJson('[{"id":9007199254740993},{"id":9007199254740992}]');
    expect(parsed.ok && stringifyJson(parsed.value)).toBe('[{"id":9007199254740993},{"id":9007199254740992}]');
  });

  it('refuses a number no double can hold, with a message naming it', () => {
    expect(parseJson('{"id":1e400}')).toEqual({ ok: false, message: 'number 1e400 is too large to represent' });
  });

  it('reads documents nested past any accepted depth without overflowing the stack', () => {
    const deep = (inner: string) => `${'['.repeat(100_000)}${inner}${']'.repeat(100_000)}`;
    expect(parseJson(deep('1')).ok).toBe(true);
    // The exact reading recurses (JSON.parse's reviver): refused as a value, never thrown.
    expect(() => parseJson(deep('9007199254740993'))).not.toThrow();
  });
});
