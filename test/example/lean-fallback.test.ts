// When every full draw breaks the schema in an optional corner, a draw of the required
// properties alone answers, instead of "no valid example".
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateOne } from '../../src/example/index.ts';
import { loadSpec } from '../../src/document/load-spec.ts';

describe('generating a schema whose optional properties cannot be satisfied', () => {
  it.each([1, 2, 3])('gives a valid value of the required properties alone (seed %i)', async (seed) => {
    const spec = await loadSpec(resolve('test/documents/optional-corners.yaml'));
    const value = generateOne(spec, '#/components/schemas/Note', seed) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['id']);
    expect(Number.isInteger(value.id)).toBe(true);
  });
});
