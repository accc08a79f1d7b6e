// A oneOf whose branches overlap (GitHub's 422: two error shapes that both match a body without
// `errors`): json-schema-faker leaves out what tells them apart, so every draw matched both. Each
// branch drawn alone, with its optional properties, gives a value that matches exactly one.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExampleGenerator } from '../../src/example/index.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createValidators } from '../../src/validation/validator.ts';

const POINTER = '#/paths/~1workflows/post/responses/422/content/application~1json/schema';

describe('generating a oneOf whose branches overlap', () => {
  it.each([1, 2, 3])('gives a value that matches exactly one branch (seed %i)', async (seed) => {
    const spec = await loadSpec(resolve('test/documents/runner-corpus-shapes.yaml'));
    const validators = createValidators(spec);
    const value = createExampleGenerator(spec, validators).generateOne(POINTER, seed);
    expect(validators.at(POINTER)(value).ok).toBe(true);
    expect((value as { errors?: unknown[] }).errors?.length).toBeGreaterThan(0);
  });
});
