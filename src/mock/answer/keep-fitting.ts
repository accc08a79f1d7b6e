// A stored record whose answer schema it does not fit (GitHub's created repositories: the answer
// requires an owner, and the request's `repositories: [""]` is a list of objects in the answer):
// the answer is a generated body with every field of the record laid over it that keeps it valid,
// so the item is still recognizable by its key and name, and still never breaks the contract. A
// field that does not fit whole is fitted on its own schema first, then laid over: a wrapped list
// (`{data: [record], has_more}`) keeps its stored items, each refitted on the list's `items` schema,
// instead of losing the whole list to a generated one.
import { stringifyJson, type JsonValue } from '../../json/exact-json.ts';
import { escapePointerToken, getAtPointer } from '../../document/json-pointer.ts';
import type { Validators } from '../../validation/validator.ts';

type Obj = Record<string, JsonValue>;
const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Longer lists are answered as generated: each item costs a generated body and a check per field. */
const MAX_LIST = 50;
/** How far down fields are fitted on their own schema (an envelope, its items, their objects). */
const MAX_DEPTH = 4;
/** The most members of an anyOf/oneOf tried: each costs a generated body. */
const MAX_MEMBERS = 8;

/** Draws a valid body of the schema at a pointer. */
export type Generate = (schemaPointer: string) => Promise<JsonValue>;

/** A valid answer of the schema at `schemaPointer` that keeps what it can of `record`. */
export async function keepFitting(
  record: JsonValue,
  schemaPointer: string,
  document: unknown,
  validators: Validators,
  generate: Generate,
  depth = 0,
): Promise<JsonValue> {
  const pointer = followRefs(document, schemaPointer);
  const check = validators.at(pointer);
  if (depth > 0 && check(record).ok) return record;
  const fit = (value: JsonValue, at: string) => keepFitting(value, at, document, validators, generate, depth + 1);
  const schema = getAtPointer(document, pointer);
  if (Array.isArray(record) && record.length <= MAX_LIST && isObj(schema) && schema.items !== undefined) {
    const list: JsonValue[] = [];
    for (const item of record) list.push(await fit(item, `${pointer}/items`));
    if (check(list).ok) return list;
  }
  // One of several shapes (Stripe's external account: a card or a bank account): fitted on each,
  // the one that keeps most of the record wins, rather than whichever the generator drew.
  const members = isObj(schema) ? (['anyOf', 'oneOf'] as const).find((k) => Array.isArray(schema[k])) : undefined;
  if (members !== undefined && isObj(record) && depth < MAX_DEPTH) {
    const count = Math.min(((schema as Obj)[members] as JsonValue[]).length, MAX_MEMBERS);
    let best: { value: JsonValue; kept: number } | undefined;
    for (let i = 0; i < count; i++) {
      const value = await fit(record, `${pointer}/${members}/${i}`);
      if (!check(value).ok) continue;
      const kept = keptFields(record, value);
      if (best === undefined || kept > best.kept) best = { value, kept };
    }
    if (best !== undefined) return best.value;
  }
  const base = await generate(pointer);
  if (!isObj(record) || !isObj(base)) return base;
  let body: Obj = { ...base };
  for (const [name, value] of Object.entries(record)) {
    const candidate = { ...body, [name]: value };
    if (check(candidate).ok) {
      body = candidate;
      continue;
    }
    if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) continue;
    const at = propertyPointer(document, pointer, name);
    if (at === undefined) continue;
    const fitted = { ...body, [name]: await fit(value, at) };
    if (check(fitted).ok) body = fitted;
  }
  return body;
}

/** How many of the record's fields a fitted value shows unchanged. */
function keptFields(record: Obj, value: JsonValue): number {
  if (!isObj(value)) return 0;
  let kept = 0;
  for (const [name, field] of Object.entries(record))
    if (Object.hasOwn(value, name) && stringifyJson(value[name]) === stringifyJson(field)) kept++;
  return kept;
}

/** The pointer past any `$ref` at it (a dereferenced document keeps only circular ones). */
function followRefs(document: unknown, pointer: string): string {
  let at = pointer;
  for (let hops = 0; hops < 32; hops++) {
    const node = getAtPointer(document, at);
    if (!isObj(node) || typeof node.$ref !== 'string' || !node.$ref.startsWith('#')) break;
    at = node.$ref;
  }
  return at;
}

/** Where a property's schema sits: in the schema's own `properties`, else in an `allOf` member's. */
function propertyPointer(document: unknown, pointer: string, name: string, hops = 0): string | undefined {
  const at = followRefs(document, pointer);
  const schema = getAtPointer(document, at);
  if (!isObj(schema) || hops > 8) return undefined;
  const token = escapePointerToken(name);
  if (isObj(schema.properties) && Object.hasOwn(schema.properties, name)) return `${at}/properties/${token}`;
  if (Array.isArray(schema.allOf))
    for (let i = 0; i < schema.allOf.length; i++) {
      const found = propertyPointer(document, `${at}/allOf/${i}`, name, hops + 1);
      if (found !== undefined) return found;
    }
  return undefined;
}
