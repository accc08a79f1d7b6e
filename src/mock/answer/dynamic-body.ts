// Generated response bodies (Prefer: dynamic=true, or an operation with no example). The
// example generator is loaded on first use only: the first request never pays for the faker.
import { createRequire } from 'node:module';
import type { JsonValue } from '../../json/exact-json.ts';
import type { LoadedSpec } from '../../document/loaded-spec.ts';
import type { Validators } from '../../validation/validator.ts';
import { GeneratorLoading } from './generator-loading.ts';

type ExampleModule = typeof import('../../example/generate-one.ts');
// tsc rewrites the extension of an import, not of a require's string: the compiled package
// (dist/) requires example/generate-one.js.
const EXAMPLE_MODULE = `../../example/generate-one${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`;

/** The n-th generated body for a schema, repeatable for a given seed. */
export async function generateBody(
  spec: LoadedSpec,
  validators: Validators,
  schemaPointer: string,
  seed: number,
  n: number,
): Promise<JsonValue> {
  const { generateOne } = await import('../../example/generate-one.ts');
  return generateOne(spec, schemaPointer, seed * 1_000_003 + n, validators);
}

let loaded: ExampleModule | undefined;
let loading: Promise<void> | undefined;

/**
 * A generated body for a schema, now, as generateBody makes it (`draw` numbers it, called once the
 * generator is there): when the generator is not loaded yet, throws GeneratorLoading (and starts
 * loading it), for the engine to wait and write again.
 */
export function generateBodyLoaded(
  spec: LoadedSpec,
  validators: Validators,
  schemaPointer: string,
  seed: number,
  draw: () => number,
): JsonValue {
  if (loaded === undefined)
    throw new GeneratorLoading(
      (loading ??= import('../../example/generate-one.ts').then((module) => {
        loaded = module;
      })),
    );
  return loaded.generateOne(spec, schemaPointer, seed * 1_000_003 + draw(), validators);
}

/**
 * A generated body now, for the few answers that cannot wait (an error body whose schema a status
 * and a message cannot fill, made once per schema): the generator is loaded synchronously
 * (require of an ES module, Node 22+). Undefined when the schema allows no value the generator finds.
 */
export function generateBodyNow(
  spec: LoadedSpec,
  validators: Validators,
  schemaPointer: string,
  seed: number,
): JsonValue | undefined {
  const { generateOne } = createRequire(import.meta.url)(EXAMPLE_MODULE) as ExampleModule;
  try {
    return generateOne(spec, schemaPointer, seed, validators);
  } catch {
    return undefined;
  }
}
