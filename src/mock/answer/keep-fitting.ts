// A stored record whose answer schema it does not fit (GitHub's created repositories: the answer
// requires an owner, and the request's `repositories: [""]` is a list of objects in the answer):
// the answer is a generated body with every field of the record laid over it that keeps it valid,
// so the item is still recognizable by its key and name, and still never breaks the contract. A
// list is refitted item by item, each on an item generated from the list's `items` schema.
import type { JsonValue } from '../../json/exact-json.ts';
import { getAtPointer } from '../../document/json-pointer.ts';
import type { SchemaCheck, Validators } from '../../validation/validator.ts';

type Obj = Record<string, JsonValue>;
const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Longer lists are answered as generated: each item costs a generated body and a check per field. */
const MAX_LIST = 50;

/** Draws a valid body of the schema at a pointer. */
export type Generate = (schemaPointer: string) => Promise<JsonValue>;

/** A valid answer of the schema at `schemaPointer` that keeps what it can of `record`. */
export async function keepFitting(
  record: JsonValue,
  schemaPointer: string,
  document: unknown,
  validators: Validators,
  generate: Generate,
): Promise<JsonValue> {
  const itemsPointer = `${schemaPointer}/items`;
  if (Array.isArray(record) && record.length <= MAX_LIST && getAtPointer(document, itemsPointer) !== undefined) {
    const checkItem = validators.at(itemsPointer);
    const list: JsonValue[] = [];
    for (const item of record) list.push(overlay(item, await generate(itemsPointer), checkItem));
    if (validators.at(schemaPointer)(list).ok) return list;
  }
  return overlay(record, await generate(schemaPointer), validators.at(schemaPointer));
}

/** `base` (valid) with each field of `record` laid over it where the whole stays valid. */
function overlay(record: JsonValue, base: JsonValue, check: SchemaCheck): JsonValue {
  if (!isObj(record) || !isObj(base)) return base;
  let body: Obj = { ...base };
  for (const [name, value] of Object.entries(record)) {
    const candidate = { ...body, [name]: value };
    if (check(candidate).ok) body = candidate;
  }
  return body;
}
