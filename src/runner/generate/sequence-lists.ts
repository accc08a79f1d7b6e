// How a sequence asks a collection's list, and what it holds the list to. The names are the
// mock's own convention (src/mock/answer/state-actions.ts): a query parameter `limit` caps a page and
// `offset` skips items. With a `limit`:
// - find-in-list asks for a page of PAGE_SIZE (or the declared maximum when smaller) and, with an
//   `offset`, pages on until the created item turns up or a page comes back short;
// - limit-honoured creates more items than the smallest limit the list takes (1 or 2), asks for
//   that many, and fails a list that holds more: a server that ignores `limit` answers them all.
import type { JsonValue } from '../../json/exact-json.ts';
import { resolveSchema } from '../../document/schema-shape.ts';
import type { Operation, ParameterSpec } from '../../document/operations.ts';
import type { Validators } from '../../validation/validator.ts';

/** The page find-in-list asks for: a page a server answers without strain, deep enough to page through. */
export const PAGE_SIZE = 100;

/** The largest "smallest limit" checked: it takes that many items beyond the sequence's own to check. */
const LARGEST_CHECKED_LIMIT = 2;

/** Pages find-in-list reads at most before it stops looking. */
export const MAX_PAGES = 20;

export interface ListPlan {
  /**
   * The page size find-in-list sends as `limit`; undefined: the list declares no usable limit, and answers the whole
   * collection.
   */
  pageSize?: number;
  /** The query parameter that skips items (`offset`), when the list declares one. */
  offsetParam?: string;
  /** The smallest limit the list takes (1 or 2): sent after creating more items than it. */
  smallLimit?: 1 | 2;
}

/** The plan for a list operation; undefined when it requires a limit the runner cannot give. */
export function listPlan(list: Operation, validators: Validators, document: unknown): ListPlan | undefined {
  const limit = list.parameters.find(isLimit);
  if (!limit) return {};
  const fits = (value: number) => Number.isSafeInteger(value) && validators.at(limit.schemaPointer)(value).ok;
  const schema = resolveSchema(limit.schema, document);
  const maximum =
    typeof schema?.maximum === 'number'
      ? schema.maximum
      : typeof schema?.exclusiveMaximum === 'number'
        ? Math.ceil(schema.exclusiveMaximum) - 1
        : undefined;
  const pageSize = [Math.min(PAGE_SIZE, maximum ?? PAGE_SIZE), maximum].find(
    (size) => size !== undefined && fits(size),
  );
  if (pageSize === undefined) return limit.required ? undefined : {};
  const offset = list.parameters.find((p) => p.in === 'query' && p.name === 'offset' && p.schema !== undefined);
  const smallLimit = ([1, 2] as const).find((n) => n <= LARGEST_CHECKED_LIMIT && n < pageSize && fits(n));
  return {
    pageSize,
    ...(offset && validators.at(offset.schemaPointer)(0).ok && { offsetParam: offset.name }),
    ...(smallLimit && { smallLimit }),
  };
}

/** True for the parameter a list's page size is given in. */
export function isLimit(parameter: ParameterSpec): boolean {
  return parameter.in === 'query' && parameter.name === 'limit';
}

/** The list's items: the body when it is an array, else undefined (an envelope the runner does not read). */
export function listItems(body: JsonValue | undefined): JsonValue[] | undefined {
  return Array.isArray(body) ? body : undefined;
}
