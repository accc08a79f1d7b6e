// The example generator: json-schema-faker walks the schema, wide-integers.ts makes int64/int32
// values exact and full-range, and the shared validator judges every example before it leaves
// (json-schema-faker is not exact for every keyword: a rejected draw is redrawn with a new seed).
// This is the only module that imports json-schema-faker.
import { generateSync, type GenerateOptions, type JsonSchema as FakerSchema } from 'json-schema-faker';
import { PlantstoreError } from '../errors.ts';
import { stringifyJson, type JsonValue } from '../json/exact-json.ts';
import { getAtPointer } from '../document/json-pointer.ts';
import type { LoadedSpec } from '../document/loaded-spec.ts';
import {
  createValidators,
  formatIssues,
  type SchemaCheck,
  type ValidationIssue,
  type Validators,
} from '../validation/validator.ts';
import { buildInvalidExamples, type InvalidExample } from './invalid-examples.ts';
import { drawablePattern, fakerSchema } from './faker-schema.ts';
import type { ExampleTarget } from '../document/resolve-target.ts';
import { createSeededRandom, mixSeed } from './seeded-random.ts';
import { widenInteger } from './wide-integers.ts';
import { separateBranches } from './separate-branches.ts';
import type { PatternString } from './generation-risk.ts';

/** Draws of a pattern string alone that must all be valid for the generation audit to call it plain. */
const PATTERN_DRAWS = 8;
const patternVerdicts = new Map<string, boolean>();

/**
 * Whether json-schema-faker draws a string with this pattern and these lengths valid every time (generation-risk.ts):
 * a few draws, checked as the validator checks them (the `u` flag, lengths in code points).
 */
export function patternDrawsHold({ pattern, minLength, maxLength }: PatternString): boolean {
  const key = JSON.stringify([pattern, minLength, maxLength]);
  let verdict = patternVerdicts.get(key);
  if (verdict === undefined) {
    verdict = false;
    try {
      const regex = new RegExp(pattern, 'u');
      const schema = { type: 'string', pattern: drawablePattern(pattern), minLength, maxLength } as FakerSchema;
      verdict = Array.from({ length: PATTERN_DRAWS }, (_, i) => generateSync(schema, { seed: i + 1 })).every(
        (value) => {
          if (typeof value !== 'string' || !regex.test(value)) return false;
          const length = [...value].length;
          return length >= (minLength ?? 0) && length <= (maxLength ?? Infinity);
        },
      );
    } catch {
      verdict = false; // a pattern JavaScript cannot read, or a draw that throws: the full audit says why
    }
    patternVerdicts.set(key, verdict);
  }
  return verdict;
}

/** Draws per example before giving up: on a duplicate (the schema may allow no more) or an invalid draw. */
const MAX_ATTEMPTS = 20;

export interface ExampleOptions {
  seed: number;
  count: number;
  /** Draw plain strings with at least one character where the schema allows that (a request a person would send). */
  filled?: boolean;
}

export interface InvalidExampleOptions {
  seed: number;
  /** How many payloads; by default one per rule the schema has. */
  count?: number;
  /** Include a malformed-JSON payload (rawBody); false where the output must stay one JSON document. */
  malformed?: boolean;
}

export interface ExampleGenerator {
  /** `count` valid examples, distinct where the schema allows; the same seed gives the same list. */
  examples(target: ExampleTarget, options: ExampleOptions): JsonValue[];
  /** Payloads that each break exactly one rule of the target's schema, with a description. */
  invalidExamples(target: ExampleTarget, options: InvalidExampleOptions): InvalidExample[];
  /** One valid example of the schema at a document pointer (a response body for the mock). */
  generateOne(pointer: string, seed: number): JsonValue;
  /**
   * Compact exact JSON of a value; for an example from `examples` it is the text already made to check distinctness.
   *
   */
  compactJson(value: JsonValue): string;
}

interface Prepared {
  pointer: string;
  /** The schema, allOfs merged: what invalid examples break. */
  schema: FakerSchema;
  /** The same with long strings and arrays capped (faker-schema.ts): what json-schema-faker draws from. */
  fakerSchema: FakerSchema;
  check: SchemaCheck;
  faker: GenerateOptions;
  /** Set on an entry that draws one branch of its schema's root oneOf/anyOf (never split again). */
  branch?: true;
  /** A oneOf branch's siblings, which its draws may be changed to fail (separate-branches.ts). */
  others?: FakerSchema[];
  /** Drawn from the filled view (no empty plain strings). */
  filled: boolean;
}

/**
 * Builds the example generator of one loaded document; pass the validators the caller already
 * has so that examples are judged by the very same compiled schemas.
 * @example
 * const generator = createExampleGenerator(spec);
 * const plants = generator.examples(resolveTarget(spec, 'NewPlant'), { seed: 1, count: 10 });
 */
export function createExampleGenerator(
  spec: LoadedSpec,
  validators: Validators = createValidators(spec),
): ExampleGenerator {
  const random = createSeededRandom(1);
  // Views of schema nodes (faker-schema.ts), each made once: what invalid examples break, and the
  // same with long strings and arrays capped, which json-schema-faker draws from.
  const merged = new WeakMap<object, unknown>();
  const shortened = new WeakMap<object, unknown>();
  const filledViews = new WeakMap<object, unknown>();
  const drawView = (schema: unknown, filled: boolean) =>
    (filled ? fakerSchema(schema, filledViews, true, true) : fakerSchema(schema, shortened)) as FakerSchema;
  const base: GenerateOptions = {
    // Circular $refs stay as "#/components/..." in the dereferenced document; resolve them there,
    // to their capped view like every other node json-schema-faker draws from.
    refResolver: (ref) => {
      const schema = ref.startsWith('#/') ? getAtPointer(spec.document, ref) : undefined;
      if (schema === undefined) throw new Error(`cannot resolve $ref ${ref}`);
      return fakerSchema(schema, shortened) as FakerSchema;
    },
    outputTransform: (value, schema) => widenInteger(value, schema, random),
  };
  const resolveRef = (ref: string) => (ref.startsWith('#/') ? getAtPointer(spec.document, ref) : undefined);
  const prepared = new Map<string, Prepared>();
  // Distinctness needs each example's text; keeping it saves writing ndjson a second serialization.
  const texts = new WeakMap<object, string>();

  // Everything per schema happens once: the lookup, the validator, the faker options.
  function prepare(pointer: string, allOptionals: boolean, filled = false): Prepared {
    const key = `${allOptionals ? 'full' : 'some'}${filled ? '+filled' : ''}\0${pointer}`;
    let entry = prepared.get(key);
    if (!entry) {
      const schema = getAtPointer(spec.document, pointer);
      if (schema === undefined) throw new PlantstoreError('SPEC_INVALID', `${spec.file}: ${pointer}: no schema there`);
      entry = {
        pointer,
        schema: fakerSchema(schema, merged, false) as FakerSchema,
        fakerSchema: drawView(schema, filled),
        check: validators.at(pointer),
        faker: { ...base, alwaysFakeOptionals: allOptionals },
        filled,
      };
      prepared.set(key, entry);
    }
    return entry;
  }

  let exhausted = false;

  function draw(entry: Prepared, seed: number, index: number, seen?: Set<string>): JsonValue {
    exhausted = false;
    let duplicate: JsonValue | undefined;
    let issues: ValidationIssue[] = [];
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const drawSeed = mixSeed(seed, index, attempt);
      random.reseed(drawSeed ^ 0x5bd1e995);
      let value = fake(entry, drawSeed);
      let verdict = entry.check(value);
      if (!verdict.ok && entry.others) {
        const apart = separateBranches(value, entry.schema, entry.others, resolveRef).find(
          (v) => entry.check(v as JsonValue).ok,
        );
        if (apart !== undefined) {
          value = apart as JsonValue;
          verdict = { ok: true };
        }
      }
      if (!verdict.ok) {
        issues = verdict.issues;
        continue;
      }
      if (!seen) return value;
      const key = stringifyJson(value);
      if (!seen.has(key)) {
        seen.add(key);
        if (value !== null && typeof value === 'object') texts.set(value, key);
        return value;
      }
      duplicate = value;
    }
    // Only duplicates came back: the schema allows no more distinct values (an enum, a boolean).
    if (duplicate !== undefined) {
      exhausted = true;
      return duplicate;
    }
    // The lean draw comes last: it leaves out optional fields an answer is better with (an error
    // body's message). Since strings are drawn short, 20 full draws of Stripe's schemas take
    // milliseconds, no longer the 3-6 s they took with strings of up to 5,000 characters.
    if (!entry.faker.alwaysFakeOptionals && entry.faker.optionalsProbability !== 0) {
      const lean = leanDraw(entry, seed, index, seen);
      if (lean !== undefined) return lean;
    }
    const branch = branchDraw(entry, seed, index, seen);
    if (branch !== undefined) return branch;
    throw new PlantstoreError(
      'SPEC_INVALID',
      `${spec.file}: ${entry.pointer}: json-schema-faker produced no valid example in ${MAX_ATTEMPTS} attempts; ` +
        `the schema may be unsatisfiable`,
      [`Last attempt: ${formatIssues(issues, '(root)')}`],
    );
  }

  // Large schemas (Stripe's credit notes) can break in an optional corner on every draw: one
  // with the required properties alone is smaller, and often valid where the full ones are not.
  function leanDraw(entry: Prepared, seed: number, index: number, seen?: Set<string>): JsonValue | undefined {
    const lean = { ...entry, faker: { ...entry.faker, optionalsProbability: 0 } };
    try {
      return draw(lean, seed, index, seen);
    } catch {
      return undefined; // the full draws' issues say more than the lean ones'
    }
  }

  // A root oneOf whose branches overlap (GitHub's 422: two error shapes that both match a body
  // without `errors`) can defeat json-schema-faker, which leaves out what tells the branches apart.
  // Each branch is then drawn alone with every optional property, and judged by the whole schema.
  const branches = new Map<Prepared, Prepared[]>();
  function branchDraw(entry: Prepared, seed: number, index: number, seen?: Set<string>): JsonValue | undefined {
    if (entry.branch) return undefined;
    let list = branches.get(entry);
    if (!list) {
      const root = entry.schema as { oneOf?: unknown; anyOf?: unknown };
      const choices = Array.isArray(root.oneOf) ? root.oneOf : Array.isArray(root.anyOf) ? root.anyOf : [];
      const schemas = choices.map((choice) => fakerSchema(choice, merged, false) as FakerSchema);
      list = choices.map((choice, i): Prepared => ({
        pointer: entry.pointer,
        schema: schemas[i],
        others: Array.isArray(root.oneOf) ? schemas.filter((_, j) => j !== i) : undefined,
        fakerSchema: drawView(choice, entry.filled),
        check: entry.check,
        faker: { ...base, alwaysFakeOptionals: true },
        branch: true,
        filled: entry.filled,
      }));
      branches.set(entry, list);
    }
    for (const choice of list) {
      try {
        return draw(choice, seed, index, seen);
      } catch {
        // the next branch
      }
    }
    return undefined;
  }

  function fake(entry: Prepared, seed: number): JsonValue {
    try {
      // json-schema-faker copies its options on each call, so one options object per schema serves every draw.
      entry.faker.seed = seed;
      return generateSync(entry.fakerSchema, entry.faker) as JsonValue;
    } catch (error) {
      throw new PlantstoreError(
        'SPEC_INVALID',
        `${spec.file}: ${entry.pointer}: json-schema-faker cannot generate it: ${(error as Error).message}`,
      );
    }
  }

  return {
    examples(target, { seed, count, filled = false }) {
      const entry = prepare(target.pointer, false, filled);
      const seen = new Set<string>();
      const out: JsonValue[] = new Array(count);
      // Once a few examples in a row found nothing new, the schema has no more to give: stop
      // spending MAX_ATTEMPTS draws on each of the rest.
      let exhaustedInARow = 0;
      for (let index = 0; index < count; index++) {
        out[index] = draw(entry, seed, index, exhaustedInARow < 3 ? seen : undefined);
        if (exhaustedInARow < 3) exhaustedInARow = exhausted ? exhaustedInARow + 1 : 0;
      }
      return out;
    },
    invalidExamples(target, { seed, count, malformed = true }) {
      // Bases with every optional property present, so each property's type can be broken too.
      const entry = prepare(target.pointer, true);
      // A schema can break whenever some optional property is present (Nexmo's workflow items
      // match both branches of a oneOf): then the bases are drawn as the valid examples are,
      // with fewer properties to break, rather than giving the operation no negative case at all.
      let fallback: Prepared | undefined;
      const base = (index: number): JsonValue => {
        if (fallback === undefined) {
          try {
            return draw(entry, mixSeed(seed, 0x1badb002), index);
          } catch {
            fallback = prepare(target.pointer, false);
          }
        }
        return draw(fallback, mixSeed(seed, 0x1badb002), index);
      };
      return buildInvalidExamples({
        schema: entry.schema,
        check: entry.check,
        resolveRef: (ref) => getAtPointer(spec.document, ref),
        base,
        count,
        malformed,
      });
    },
    generateOne(pointer, seed) {
      return draw(prepare(pointer, false), seed, 0);
    },
    compactJson(value) {
      return (value !== null && typeof value === 'object' ? texts.get(value) : undefined) ?? stringifyJson(value);
    },
  };
}
