import { isPlantstoreError, type PlantstoreError } from '../../src/errors.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import { loadSpec, type LoadOptions } from '../../src/document/load-spec.ts';

/** The PlantstoreError that loading a document (and building an engine on it) fails with; a test failure if none. */
export async function loadError(path: string, options?: LoadOptions): Promise<PlantstoreError> {
  try {
    createMockEngine({ spec: await loadSpec(path, options) });
  } catch (error) {
    if (isPlantstoreError(error)) return error;
    throw error;
  }
  throw new Error(`${path} loaded without error`);
}
