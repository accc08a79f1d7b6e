// The browser's dynamic-body.ts: the generator is bundled with the page, so both forms call it at once.
import type { JsonValue } from '../../json/exact-json.ts';
import type { LoadedSpec } from '../../document/loaded-spec.ts';
import type { Validators } from '../../validation/validator.ts';
import { generateOne } from '../../example/generate-one.ts';

export async function generateBody(
  spec: LoadedSpec,
  validators: Validators,
  schemaPointer: string,
  seed: number,
  n: number,
): Promise<JsonValue> {
  return generateOne(spec, schemaPointer, seed * 1_000_003 + n, validators);
}

export function generateBodyLoaded(
  spec: LoadedSpec,
  validators: Validators,
  schemaPointer: string,
  seed: number,
  draw: () => number,
): JsonValue {
  return generateOne(spec, schemaPointer, seed * 1_000_003 + draw(), validators);
}

export function generateBodyNow(
  spec: LoadedSpec,
  validators: Validators,
  schemaPointer: string,
  seed: number,
): JsonValue | undefined {
  try {
    return generateOne(spec, schemaPointer, seed, validators);
  } catch {
    return undefined;
  }
}
