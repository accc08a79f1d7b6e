// The document as every command loads it: the loader's checks plus the generator's audit (a
// response schema no body can be generated for is reported at load, never first met by a request
// as a 500). The generator is imported only on a first, uncached load.
import { loadSpec, type LoadOptions } from '../document/load-spec.ts';
import type { LoadedSpec } from '../document/loaded-spec.ts';

/**
 * Loads a document with every load-time check, as the mock, the runner and the CLI do.
 * @example const spec = await loadAuditedSpec('openapi/plant-store.yaml');
 */
export function loadAuditedSpec(path?: string, options: Omit<LoadOptions, 'audit'> = {}): Promise<LoadedSpec> {
  return loadSpec(path, {
    ...options,
    audit: async (spec, operations, validators) =>
      (await import('./generation-audit.ts')).auditGeneration(spec, operations, validators),
  });
}
