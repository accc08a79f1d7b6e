// The figures every suite prints: medians that skip what was not measured, ratios, aligned tables.
import { describe, expect, it } from 'vitest';
import { int, median, ratio, table, times } from '../../bench/lib/report.ts';

describe('median', () => {
  it.each([
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    [[undefined, 5, Number.NaN], 5],
    [[1, Infinity, Infinity], Infinity],
    [[], undefined],
  ])('of %j is %j', (values, expected) => {
    expect(median(values)).toBe(expected);
  });
});

describe('ratio, times and int', () => {
  it('divides what both sides measured, and prints "-" for the rest', () => {
    expect(ratio(30, 10)).toBe(3);
    expect(ratio(30, 0)).toBeUndefined();
    expect(ratio(undefined, 10)).toBeUndefined();
    expect([times(3), times(12.4), times(undefined), times(Infinity)]).toEqual(['3.00x', '12x', '-', '-']);
    expect([int(12345.6), int(Number.NaN), int(Infinity)]).toEqual(['12,346', '-', '-']);
  });
});

describe('table', () => {
  it('aligns the first columns left and the figures right, under a rule', () => {
    expect(
      table('server|req/s', [
        ['mock', '1,234'],
        ['Prism', '98'],
      ]).split('\n'),
    ).toEqual(['server  req/s', '------  -----', 'mock    1,234', 'Prism      98']);
  });
});
