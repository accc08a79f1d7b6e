// A string parameter with a large maxLength (Stripe's 5,000) must not make a request head longer
// than servers take: of a few draws, a short one is sent.
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/document/operations.ts';
import { generateParameters } from '../../src/runner/generate/generated-parameters.ts';

const operation = {
  id: 'listTransfers',
  method: 'GET',
  path: '/v1/transfers',
  pointer: '#/paths/~1v1~1transfers/get',
  parameters: [
    {
      name: 'destination',
      in: 'query',
      required: true,
      schema: { type: 'string', maxLength: 5000 },
      schemaPointer: '#/p/0/schema',
    },
  ],
  responses: [],
  security: [],
} as unknown as Operation;

describe('generated parameters', () => {
  it('sends the first draw of 256 characters or fewer', () => {
    const lengths = [4000, 3000, 120, 10];
    let call = 0;
    const result = generateParameters(
      operation,
      () => 'a'.repeat(lengths[call++]),
      1,
      {},
      true,
      () => false,
    );
    expect(result.ok && result.parts.rawQuery).toEqual([`destination=${'a'.repeat(120)}`]);
  });

  it('sends the shortest of its draws when none is short', () => {
    let call = 0;
    const result = generateParameters(
      operation,
      () => 'a'.repeat(5000 - 100 * ++call),
      1,
      {},
      true,
      () => false,
    );
    expect(result.ok && result.parts.rawQuery).toEqual([`destination=${'a'.repeat(4200)}`]);
  });
});
