// A required array in the query, exploded (osisoft's `category`): an empty draw writes no
// name=value pair at all, so the parameter would be missing; another draw is sent instead.
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/document/operations.ts';
import { generateParameters } from '../../src/runner/generate/generated-parameters.ts';

const operationWith = (required: boolean) =>
  ({
    id: 'traitsByCategory',
    method: 'GET',
    path: '/traits',
    pointer: '#/paths/~1traits/get',
    parameters: [
      {
        name: 'category',
        in: 'query',
        required,
        schema: { type: 'array', items: { type: 'string' } },
        schemaPointer: '#/p/0/schema',
      },
    ],
    responses: [],
    security: [],
  }) as unknown as Operation;

describe('a required exploded array in the query', () => {
  it('is never sent empty: an empty draw is drawn again', () => {
    const draws = [[], [], ['pump', 'valve']];
    let call = 0;
    const result = generateParameters(
      operationWith(true),
      () => draws[call++],
      1,
      {},
      true,
      () => false,
    );
    expect(result.ok && result.parts.rawQuery).toEqual(['category=pump', 'category=valve']);
  });

  it('makes the operation uncovered, with the reason, when every draw is empty', () => {
    const result = generateParameters(
      operationWith(true),
      () => [],
      1,
      {},
      true,
      () => false,
    );
    expect(result).toEqual({
      ok: false,
      reason: expect.stringContaining(
        'the query parameter "category" could be sent (a required one must write at least one name=value pair',
      ),
    });
  });

  it('may be empty when optional', () => {
    const result = generateParameters(
      operationWith(false),
      () => [],
      1,
      {},
      true,
      () => false,
    );
    expect(result.ok && result.parts.rawQuery).toEqual([]);
  });
});
