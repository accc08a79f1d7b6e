// Negative payloads: a valid example with exactly one rule broken, so that a 400 from a server can
// be traced to that one rule. Rules are read from the schema (through allOf and $ref), applied to
// generated examples, and each result is kept only if the shared validator rejects it.
import { stringifyJson, type JsonValue } from '../json/exact-json.ts';
import { escapePointerToken } from '../document/json-pointer.ts';
import type { SchemaCheck } from '../validation/validator.ts';
import { describeSchema, jsonType, type SchemaFacts } from './schema-facts.ts';
import { rangeBreaks } from './range-breaks.ts';

export type InvalidRule = 'required' | 'type' | 'range' | 'additional' | 'malformed';

/** One negative payload: `body` is JSON that breaks one rule; `rawBody` is text that is not JSON. */
export type InvalidExample = { rule: InvalidRule; pointer: string; description: string } & (
  { body: JsonValue } | { rawBody: string }
);

export interface InvalidExampleSource {
  schema: unknown;
  check: SchemaCheck;
  resolveRef: (ref: string) => unknown;
  /** The index-th valid example to break. */
  base: (index: number) => JsonValue;
  count?: number;
  malformed: boolean;
}

interface Mutation {
  rule: InvalidRule;
  path: string[];
  description: string;
  apply: (base: JsonValue) => { body: JsonValue } | { rawBody: string };
}

const RULE_ORDER: InvalidRule[] = ['required', 'type', 'range', 'additional', 'malformed'];
const MAX_NESTING = 4;

/** Builds the negative payloads of a schema: one per rule by default, or `count` cycling through the rules. */
export function buildInvalidExamples(source: InvalidExampleSource): InvalidExample[] {
  const out: InvalidExample[] = [];
  if (source.count === undefined) {
    const base = source.base(0);
    for (const mutation of listMutations(source, base)) {
      const example = realize(source, mutation, base);
      if (example) out.push(example);
    }
    return out;
  }
  // Payload i breaks rule i (mod the number of rules) of the i-th base example.
  for (let index = 0; out.length < source.count && index < source.count * 4; index++) {
    const base = source.base(index);
    const mutations = listMutations(source, base);
    for (let offset = 0; offset < mutations.length; offset++) {
      const example = realize(source, mutations[(out.length + offset) % mutations.length], base);
      if (example) {
        out.push(example);
        break;
      }
    }
  }
  return out;
}

function realize(source: InvalidExampleSource, mutation: Mutation, base: JsonValue): InvalidExample | undefined {
  const payload = mutation.apply(base);
  const pointer = toPointer(mutation.path);
  const description = `${pointer || '(root)'}: ${mutation.description}`;
  if ('rawBody' in payload) return { rule: mutation.rule, pointer, description, rawBody: payload.rawBody };
  // A mutation the schema still accepts (a union type, a loose parent) is no negative case.
  if (source.check(payload.body).ok) return undefined;
  return { rule: mutation.rule, pointer, description, body: payload.body };
}

function listMutations(source: InvalidExampleSource, base: JsonValue): Mutation[] {
  const found: Mutation[] = [];
  collect(source, source.schema, base, [], 0, found);
  if (source.malformed) found.push(malformed(base));
  return found.sort((a, b) => RULE_ORDER.indexOf(a.rule) - RULE_ORDER.indexOf(b.rule));
}

function collect(
  source: InvalidExampleSource,
  schema: unknown,
  value: JsonValue,
  path: string[],
  depth: number,
  out: Mutation[],
): void {
  const facts = describeSchema(schema, source.resolveRef);
  const wrong = wrongTypeValue(facts, value);
  if (wrong)
    out.push({
      rule: 'type',
      path,
      description: `wrong type: ${jsonType(wrong.value)} instead of ${[...facts.types].join(' or ')}`,
      apply: (b) => ({ body: setAt(b, path, wrong.value) }),
    });
  for (const broken of rangeBreaks(facts, value))
    out.push({
      rule: 'range',
      path,
      description: broken.description,
      apply: (b) => ({ body: setAt(b, path, broken.value) }),
    });
  if (depth >= MAX_NESTING) return;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const key of facts.required) {
      if (key in value)
        out.push({
          rule: 'required',
          path: [...path, key],
          description: 'removed required field',
          apply: (b) => ({ body: removeAt(b, [...path, key]) }),
        });
    }
    if (facts.closed) {
      const extra = unusedKey(facts, value);
      out.push({
        rule: 'additional',
        path: [...path, extra],
        description: 'added a property the schema does not declare',
        apply: (b) => ({ body: setAt(b, [...path, extra], 'unexpected') }),
      });
    }
    for (const [key, item] of Object.entries(value)) {
      const child = facts.properties.get(key);
      if (child !== undefined) collect(source, child, item, [...path, key], depth + 1, out);
    }
  } else if (Array.isArray(value) && value.length > 0 && facts.items !== undefined) {
    collect(source, facts.items, value[0], [...path, '0'], depth + 1, out);
  }
}

// A realistic mistake first: an id sent as a string, a name sent as a number.
const WRONG_VALUES: Array<[string, JsonValue]> = [
  ['string', 'x'],
  ['integer', 42],
  ['boolean', true],
  ['array', []],
  ['object', {}],
  ['null', null],
];

function wrongTypeValue(facts: SchemaFacts, value: JsonValue): { value: JsonValue } | undefined {
  if (facts.types.size === 0) return undefined;
  const allows = (type: string) => facts.types.has(type) || (type === 'integer' && facts.types.has('number'));
  // An object sent as its JSON text (double encoding) is as realistic as an id sent as a string.
  const asString: Array<[string, JsonValue]> = [
    [
      'string',
      typeof value === 'string'
        ? 'x'
        : typeof value === 'object' && value !== null
          ? stringifyJson(value)
          : String(value),
    ],
  ];
  const pick = [...asString, ...WRONG_VALUES].find(([type]) => !allows(type));
  return pick ? { value: pick[1] } : undefined;
}

function malformed(base: JsonValue): Mutation {
  const text = stringifyJson(base);
  const isObject = base !== null && typeof base === 'object' && !Array.isArray(base);
  if (isObject || Array.isArray(base)) {
    const what = isObject ? 'closing brace' : 'closing bracket';
    return {
      rule: 'malformed',
      path: [],
      description: `malformed JSON: the ${what} is missing`,
      apply: () => ({ rawBody: text.slice(0, -1) }),
    };
  }
  return {
    rule: 'malformed',
    path: [],
    description: 'malformed JSON: a trailing comma',
    apply: () => ({ rawBody: `${text},` }),
  };
}

function unusedKey(facts: SchemaFacts, value: object): string {
  let key = 'unexpectedProperty';
  while (facts.properties.has(key) || key in value) key += '_';
  return key;
}

function toPointer(path: string[]): string {
  return path.map((token) => `/${escapePointerToken(token)}`).join('');
}

function setAt(base: JsonValue, path: string[], replacement: JsonValue): JsonValue {
  if (path.length === 0) return replacement;
  const copy = structuredClone(base) as Record<string, JsonValue>;
  let node = copy;
  for (const token of path.slice(0, -1)) node = node[token] as Record<string, JsonValue>;
  node[path[path.length - 1]] = replacement;
  return copy;
}

function removeAt(base: JsonValue, path: string[]): JsonValue {
  const copy = structuredClone(base) as Record<string, JsonValue>;
  let node = copy;
  for (const token of path.slice(0, -1)) node = node[token] as Record<string, JsonValue>;
  delete node[path[path.length - 1]];
  return copy;
}
