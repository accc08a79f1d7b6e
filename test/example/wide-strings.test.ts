// A string's maxLength far above json-schema-faker's own range is drawn within that range (minLength
// + 10 at most), also through a circular $ref: Stripe's answers held thousands of random letters
// per string and took seconds to draw. Every value still fits the schema.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExampleGenerator, resolveTarget } from '../../src/example/index.ts';
import type { JsonValue } from '../../src/json/exact-json.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createValidators } from '../../src/validation/validator.ts';

describe('generating strings with a wide maxLength', async () => {
  const spec = await loadSpec(resolve('test/documents/wide-strings.yaml'));
  const validators = createValidators(spec);
  const examples = createExampleGenerator(spec, validators).examples(resolveTarget(spec, 'Customer'), {
    seed: 3,
    count: 30,
  }) as Array<Record<string, unknown>>;
  const strings = (value: unknown, out: string[] = []): string[] => {
    if (typeof value === 'string') out.push(value);
    else if (value && typeof value === 'object') for (const child of Object.values(value)) strings(child, out);
    return out;
  };

  it('gives values that the schema accepts', () => {
    for (const example of examples)
      expect(validators.at('#/components/schemas/Customer')(example as JsonValue)).toEqual({ ok: true });
  });

  it('draws a maxLength of 5000 like a string without one: ten characters at most', () => {
    for (const example of examples) expect((example.name as string).length).toBeLessThanOrEqual(10);
  });

  it('keeps minLength, and draws at most ten characters past it', () => {
    for (const example of examples) {
      expect((example.note as string).length).toBeGreaterThanOrEqual(40);
      expect((example.note as string).length).toBeLessThanOrEqual(50);
    }
  });

  it('leaves bounds tighter than that range as declared', () => {
    expect(examples.every((example) => (example.long as string).length === 300)).toBe(true);
    expect(
      examples.every((example) => (example.code as string).length >= 3 && (example.code as string).length <= 6),
    ).toBe(true);
  });

  it('lowers the maxLength of a schema reached through a circular $ref too', () => {
    const nested = examples
      .map((example) => example.parent)
      .filter((parent): parent is Record<string, unknown> => typeof parent === 'object' && parent !== null);
    expect(nested.length).toBeGreaterThan(0);
    expect(strings(examples).every((text) => text.length <= 300)).toBe(true);
    for (const parent of nested) expect((parent.name as string).length).toBeLessThanOrEqual(10);
  });
});
