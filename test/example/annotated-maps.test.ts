// OpenAPI's annotations (nullable, x- extensions, example, externalDocs, ...) say nothing about the
// value to draw: json-schema-faker 0.6 copied them into the object as properties, which a map's
// values then refused (Stripe's invoices failed nearly every full draw on `{"nullable": true}`).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExampleGenerator, resolveTarget } from '../../src/example/index.ts';
import type { JsonValue } from '../../src/json/exact-json.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createValidators } from '../../src/validation/validator.ts';

describe('generating objects whose schemas carry OpenAPI annotations', async () => {
  const spec = await loadSpec(resolve('test/documents/annotated-maps.yaml'));
  const validators = createValidators(spec);
  const examples = createExampleGenerator(spec, validators).examples(resolveTarget(spec, 'Invoice'), {
    seed: 5,
    count: 20,
  }) as Array<Record<string, Record<string, unknown>>>;

  it('never draws an annotation as a property', () => {
    for (const example of examples) {
      expect(Object.keys(example).filter((key) => !['id', 'metadata', 'tags'].includes(key))).toEqual([]);
      for (const map of [example.metadata, example.tags ?? {}]) {
        expect(Object.keys(map)).not.toContain('nullable');
        expect(
          Object.keys(map).filter((key) => key.startsWith('x-') || key === 'example' || key === 'externalDocs'),
        ).toEqual([]);
      }
    }
  });

  it('gives values the schema accepts, with the optional map drawn too', () => {
    for (const example of examples)
      expect(validators.at('#/components/schemas/Invoice')(example as unknown as JsonValue)).toEqual({ ok: true });
    expect(examples.some((example) => example.tags !== undefined)).toBe(true);
  });
});
