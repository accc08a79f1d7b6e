// One example generator per loaded document, built on first use (its per-schema preparation is
// then kept): what the mock's generated bodies and fields call, without the payload renderers.
import type { JsonValue } from '../json/exact-json.ts';
import type { LoadedSpec } from '../document/loaded-spec.ts';
import type { Validators } from '../validation/validator.ts';
import { createExampleGenerator, type ExampleGenerator, type InvalidExampleOptions } from './example-generator.ts';
import type { InvalidExample } from './invalid-examples.ts';
import { resolveTarget } from '../document/resolve-target.ts';

const generators = new WeakMap<LoadedSpec, ExampleGenerator>();

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
export function invalidExamples(
  spec: LoadedSpec,
  name: string,
  options: InvalidExampleOptions,
  validators?: Validators,
): InvalidExample[] {
  return generatorFor(spec, validators).invalidExamples(resolveTarget(spec, name), options);
}
