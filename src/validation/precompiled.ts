// Validators compiled ahead of time, handed over with the document (PrecompiledValidators): the
// code is a module's own, not read from a file, so no host needs a way to evaluate text.
import type { ValidateFunction } from 'ajv';
import type { PrecompiledValidators } from '../document/loaded-spec.ts';

/** The validate functions of precompiled code, by pointer into the bundled document. */
export function runPrecompiled(precompiled: PrecompiledValidators, runtime: Record<string, unknown>): Map<string, ValidateFunction> {
  const exports: Record<string, unknown> = {};
  precompiled.code(exports, (name) => {
    if (Object.hasOwn(runtime, name)) return runtime[name];
    if (Object.hasOwn(precompiled.modules, name)) return precompiled.modules[name];
    throw new Error(`precompiled validators: no module ${name}`);
  });
  return new Map(Object.entries(exports).filter((entry): entry is [string, ValidateFunction] => typeof entry[1] === 'function'));
}
