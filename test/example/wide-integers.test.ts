import { describe, expect, it } from 'vitest';
import { createSeededRandom } from '../../src/example/seeded-random.ts';
import { widenInteger } from '../../src/example/wide-integers.ts';

const draw = (schema: Record<string, unknown>, times = 2000) => {
  const random = createSeededRandom(17);
  return Array.from({ length: times }, () => BigInt(widenInteger(0, schema, random) as number | bigint));
};

describe('wide integers', () => {
  it.each([
    [{ type: 'integer', format: 'int64' }, -(2n ** 63n), 2n ** 63n - 1n],
    [{ type: 'integer', format: 'int32' }, -(2n ** 31n), 2n ** 31n - 1n],
    [{ type: 'integer', format: 'int64', minimum: 1 }, 1n, 2n ** 63n - 1n],
    [{ type: 'integer', format: 'int64', minimum: 10, maximum: 20 }, 10n, 20n],
    [{ type: 'integer', format: 'int64', exclusiveMinimum: 0, exclusiveMaximum: 5 }, 1n, 4n],
    [{ type: 'integer', format: 'int32', minimum: 0, exclusiveMinimum: true }, 1n, 2n ** 31n - 1n],
  ])('keeps %j within [%s, %s] and reaches both ends', (schema, min, max) => {
    const values = draw(schema);
    expect(values.every((value) => value >= min && value <= max)).toBe(true);
    expect(values).toContain(min);
    expect(values).toContain(max);
  });

  it('keeps multipleOf', () => {
    expect(draw({ type: 'integer', format: 'int64', multipleOf: 1000 }).every((value) => value % 1000n === 0n)).toBe(
      true,
    );
  });

  it.each([
    [{ type: 'integer' }],
    [{ type: 'integer', format: 'int64', enum: [1, 2] }],
    [{ type: 'integer', format: 'int64', const: 3 }],
    [{ type: 'string', format: 'int64' }],
    [{ type: 'integer', format: 'int64', minimum: 5, maximum: 4 }],
  ])('leaves %j to json-schema-faker', (schema) => {
    expect(widenInteger(7, schema, createSeededRandom(1))).toBe(7);
  });
});
