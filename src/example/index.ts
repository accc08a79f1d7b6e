// The example module's public face. Importing it loads json-schema-faker, so the mock imports it
// lazily (on the first generated body) and pays nothing until then.
import type { JsonValue } from '../json/exact-json.ts';
import type { LoadedSpec } from '../document/loaded-spec.ts';
import type { Validators } from '../validation/validator.ts';
import { createExampleGenerator, type ExampleGenerator, type InvalidExampleOptions } from './example-generator.ts';
import type { InvalidExample } from './invalid-examples.ts';
import { resolveTarget } from '../document/resolve-target.ts';

export { createExampleGenerator, type ExampleGenerator, type ExampleOptions, type InvalidExampleOptions } from './example-generator.ts';
export { type InvalidExample, type InvalidRule } from './invalid-examples.ts';
export { toCurl, toFixture, type Fixture, type Payload } from './payload-shapes.ts';
export { PAYLOAD_FORMATS, PAYLOAD_SHAPES, type PayloadFormat, type PayloadShape } from './payload-formats.ts';
export { renderPayloads, type RenderOptions } from './render-payloads.ts';
export { resolveTarget, schemaNames, type ExampleTarget } from '../document/resolve-target.ts';

const generators = new WeakMap<LoadedSpec, ExampleGenerator>();

// One generator per loaded document, built on first use: its per-schema preparation is then kept.
function generatorFor(spec: LoadedSpec, validators?: Validators): ExampleGenerator {
  let generator = generators.get(spec);
  if (!generator) {
    generator = createExampleGenerator(spec, validators);
    generators.set(spec, generator);
  }
  return generator;
}

/**
 * One valid body for the schema at a document pointer, the same for the same seed; pass the
 * caller's validators so that the generator judges with the same compiled schemas.
 * @example const body = generateOne(spec, '#/components/schemas/Plant', 7);
 */
export function generateOne(spec: LoadedSpec, pointer: string, seed: number, validators?: Validators): JsonValue {
  return generatorFor(spec, validators).generateOne(pointer, seed);
}

/**
 * Negative payloads for a schema name or operationId, each breaking exactly one rule and saying which.
 * @example for (const negative of invalidExamples(spec, 'createPlant', { seed: 1 })) console.log(negative.description);
 */
export function invalidExamples(spec: LoadedSpec, name: string, options: InvalidExampleOptions, validators?: Validators): InvalidExample[] {
  return generatorFor(spec, validators).invalidExamples(resolveTarget(spec, name), options);
}
