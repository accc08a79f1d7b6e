// Generated response bodies (Prefer: dynamic=true, or an operation with no example). The
// example generator is loaded on first use only: the first request never pays for the faker.
import type { JsonValue } from '../json/exact-json.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';
import type { Validators } from '../validation/validator.ts';

/** The n-th generated body for a schema, repeatable for a given seed. */
export async function generateBody(spec: LoadedSpec, validators: Validators, schemaPointer: string, seed: number, n: number): Promise<JsonValue> {
  const { generateOne } = await import('../example/index.ts');
  return generateOne(spec, schemaPointer, seed * 1_000_003 + n, validators);
}
