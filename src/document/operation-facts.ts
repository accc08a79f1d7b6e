// Facts about an operation that the mock, the runner and the proxy all need, in one home: which
// status is its success, and which statuses never carry content.
import { declaredStatuses, type Operation } from './operations.ts';

/**
 * Statuses that never carry content (RFC 9110 §15.3.5, §15.3.6, §15.4.5), whatever the document
 * declares for them: a declared `205` with a schema is answered empty.
 */
export const NO_CONTENT_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

const successes = new WeakMap<Operation, number>();

/**
 * The status a request answered without a forced choice gets: the lowest declared 2xx (200 when none is declared);
 * computed once per operation.
 */
export function successStatus(operation: Operation): number {
  let success = successes.get(operation);
  if (success === undefined) {
    success = declaredSuccess(operation) ?? 200;
    successes.set(operation, success);
  }
  return success;
}

/** The lowest declared 2xx, or undefined when the operation declares none. */
export function declaredSuccess(operation: Operation): number | undefined {
  const statuses = declaredStatuses(operation).filter((s) => s >= 200 && s < 300);
  return statuses.length === 0 ? undefined : Math.min(...statuses);
}

/** Whether an answer with this status goes without content. */
export const noContent = (status: number): boolean => NO_CONTENT_STATUSES.has(status);
