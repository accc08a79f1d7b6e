// The small facts the mock's state answers add to a response: where a created item lives (its
// Location), and a header added to an answer whose headers may be shared.
import type { HttpAnswer } from '../../http/types.ts';
import type { ResourceBinding } from '../../document/resources.ts';
import type { Operation } from '../../document/operations.ts';
import { noContent as statusHasNoContent, successStatus } from '../../document/operation-facts.ts';

export { successStatus };

/** Whether the operation's success answer goes without content. */
export const noContent = (_operation: Operation, status: number): boolean => statusHasNoContent(status);

/**
 * The path of a created item: the resource's item path with the parents and the key filled in (its collection's path
 * when it has none).
 */
export function itemLocation(binding: ResourceBinding, params: Record<string, string>, key: string): string {
  const values = [...binding.parentParams.map((name) => params[name] ?? ''), key].map(encodeURIComponent);
  // A singleton's one item lives at its collection's own path.
  const template = binding.singleton
    ? binding.resource.collection
    : (binding.resource.itemPath ?? `${binding.resource.collection}/{key}`);
  let index = 0;
  return template.replace(/\{[^}]+\}/g, () => values[index++] ?? '');
}

/** The response with one more header (answers share frozen header objects, so a new one). */
export function withHeader(response: HttpAnswer, name: string, value: string): HttpAnswer {
  return { ...response, headers: { ...response.headers, [name]: value } };
}
