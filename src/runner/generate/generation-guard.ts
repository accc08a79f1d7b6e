// Generation is per operation (and per collection): a schema the example generator cannot
// satisfy, or one that trips it up, costs that operation its cases, not the whole run. The
// reason goes into the report's list of uncovered operations.
import { isPlantstoreError } from '../../errors.ts';

/** The built value, or why it could not be built. */
export function guarded<T>(build: () => T): T | string {
  try {
    return build();
  } catch (error) {
    if (isPlantstoreError(error)) return `cannot generate a request: ${error.message}`;
    return (
      `cannot generate a request: the example generator failed ` +
      `(${(error as Error).message ?? String(error)}); a plantstore bug, please report it`
    );
  }
}
