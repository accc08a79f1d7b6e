// Makes the values of server fields (server-fields.ts) the way a server would: keys unique in
// their collection, timestamps from the clock, anything else from the schema through the example
// generator, seeded by --seed so that the n-th made value of a run is the same for the same seed.
// Only a field no rule here covers loads the example generator (json-schema-faker), on first use.
import type { JsonValue } from '../../json/exact-json.ts';
import { isoTimestamp } from '../../log/clock.ts';
import type { LoadedSpec } from '../../document/loaded-spec.ts';
import { keyString } from '../../document/resources.ts';
import { StateFullError, type StoredRecord } from '../../state/store.ts';
import type { Validators } from '../../validation/validator.ts';
import { mixSeed } from '../../example/seeded-random.ts';
import type { ServerField } from './server-fields.ts';

type ExampleModule = typeof import('../../example/generate-one.ts');
type Kind = 'integer-key' | 'uuid-key' | 'token-key' | 'schema-key' | 'date-time' | 'date' | 'unix-time' | 'schema';

/** Tries for a key the schema leaves few of (a short maxLength, an enum) before the create is refused. */
const KEY_ATTEMPTS = 64;
const TOKEN_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const TOKEN_LENGTH = 16;

export interface FieldMaker {
  /**
   * Resolves once the example generator is loaded, when one of the fields needs it; undefined when nothing needs
   * waiting for.
   */
  ready(fields: ServerField[]): Promise<void> | undefined;
  /**
   * Fills the fields the record lacks, from `kept` where it has them (a replace keeps the stored
   * record's), else with made values; returns the key string when it made the key. `isFree` says
   * whether a key string is unused. Throws a StateFullError when the schema leaves no unused key.
   */
  fill(
    record: StoredRecord,
    fields: ServerField[],
    collection: string,
    isFree: (key: string) => boolean,
    kept?: StoredRecord,
  ): string | undefined;
}

/** The field maker of one engine. */
export function createFieldMaker(spec: LoadedSpec, validators: Validators, seed: number): FieldMaker {
  const kinds = new WeakMap<ServerField, Kind>();
  const kindOf = (field: ServerField) => {
    let kind = kinds.get(field);
    if (kind === undefined) kinds.set(field, (kind = classify(field)));
    return kind;
  };
  const needsGenerator = (field: ServerField) => kindOf(field) === 'schema' || kindOf(field) === 'schema-key';
  let example: ExampleModule | undefined;
  let loading: Promise<void> | undefined;
  // Per collection: the next integer key to try, and how many keys were made (a uuid's counter).
  const nextInteger = new Map<string, number>();
  const made = new Map<string, number>();
  let serial = 0;

  const fromSchema = (field: ServerField, drawSeed: number): JsonValue =>
    example!.generateOne(spec, field.pointer, drawSeed, validators);

  function makeKey(field: ServerField, collection: string, isFree: (key: string) => boolean): JsonValue {
    const kind = kindOf(field);
    if (kind === 'integer-key') {
      const [low, high] = integerRange(field.schema);
      for (let n = Math.max(nextInteger.get(collection) ?? low, low); n <= high; n++) {
        if (isFree(String(n))) {
          nextInteger.set(collection, n + 1);
          return n;
        }
      }
      throw new StateFullError(
        `no unused ${field.name} is left in ${collection} (the schema allows ${low} to ${high})`,
        'DELETE /__mock/state clears it',
      );
    }
    const collectionSeed = mixSeed(seed, hashText(collection));
    for (let attempt = 0; attempt < KEY_ATTEMPTS; attempt++) {
      const n = (made.get(collection) ?? 0) + 1;
      made.set(collection, n);
      const value =
        kind === 'uuid-key'
          ? uuid(collectionSeed, n)
          : kind === 'token-key'
            ? token(collectionSeed, n, tokenLength(field.schema))
            : fromSchema(field, mixSeed(collectionSeed, n));
      const key = keyString(value);
      if (key !== undefined && isFree(key)) return value;
    }
    throw new StateFullError(
      `no unused ${field.name} was found for ${collection} in ${KEY_ATTEMPTS} tries (its schema allows few)`,
      'DELETE /__mock/state clears it',
    );
  }

  function makeValue(field: ServerField): JsonValue {
    switch (kindOf(field)) {
      case 'date-time':
        return isoTimestamp();
      case 'date':
        return isoTimestamp().slice(0, 10);
      case 'unix-time':
        return Math.floor(Date.now() / 1000);
      default:
        return fromSchema(field, mixSeed(seed, 0x5e7f1e1d, serial++));
    }
  }

  return {
    ready(fields) {
      if (example || !fields.some(needsGenerator)) return undefined;
      return (loading ??= import('../../example/generate-one.ts').then((module) => {
        example = module;
      }));
    },
    fill(record, fields, collection, isFree, kept) {
      let madeKey: string | undefined;
      for (const field of fields) {
        if (record[field.name] !== undefined && Object.hasOwn(record, field.name)) continue;
        let value: JsonValue;
        if (kept !== undefined && Object.hasOwn(kept, field.name)) value = kept[field.name];
        else if (field.key) {
          value = makeKey(field, collection, isFree);
          madeKey = keyString(value);
        } else value = makeValue(field);
        // A field named "__proto__" stays a plain key.
        Object.defineProperty(record, field.name, { value, enumerable: true, writable: true, configurable: true });
      }
      return madeKey;
    },
  };
}

function classify(field: ServerField): Kind {
  const { schema } = field;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const constrained = schema.enum !== undefined || schema.const !== undefined;
  if (field.key && !constrained) {
    // A `type: number` key is made as an integer too: a number, and one a path can name.
    if ((types.includes('integer') || types.includes('number')) && schema.multipleOf === undefined)
      return 'integer-key';
    if (types.includes('string') && schema.format === 'uuid') return 'uuid-key';
    if (types.includes('string') && schema.format === undefined && schema.pattern === undefined) return 'token-key';
  }
  if (field.key) return 'schema-key';
  if (constrained) return 'schema';
  if (types.includes('string') && schema.format === 'date-time') return 'date-time';
  if (types.includes('string') && schema.format === 'date') return 'date';
  // Stripe's `created`: seconds since the epoch.
  if ((types.includes('integer') || types.includes('number')) && schema.format === 'unix-time') return 'unix-time';
  return 'schema';
}

/** The integers a key schema allows, within the safe integers (int32 keeps to its range). */
function integerRange(schema: Record<string, unknown>): [number, number] {
  let low = 1;
  let high = schema.format === 'int32' ? 2147483647 : Number.MAX_SAFE_INTEGER;
  if (typeof schema.minimum === 'number')
    low = Math.max(
      low,
      Math.ceil(schema.minimum) + (schema.exclusiveMinimum === true && Number.isInteger(schema.minimum) ? 1 : 0),
    );
  if (typeof schema.exclusiveMinimum === 'number') low = Math.max(low, Math.floor(schema.exclusiveMinimum) + 1);
  if (typeof schema.maximum === 'number')
    high = Math.min(
      high,
      Math.floor(schema.maximum) - (schema.exclusiveMaximum === true && Number.isInteger(schema.maximum) ? 1 : 0),
    );
  if (typeof schema.exclusiveMaximum === 'number') high = Math.min(high, Math.ceil(schema.exclusiveMaximum) - 1);
  return [low, high];
}

/** A version 4 UUID whose 122 free bits are mixed from the seed and the count. */
function uuid(collectionSeed: number, n: number): string {
  let hex = '';
  for (let word = 0; word < 4; word++) hex += mixSeed(collectionSeed, n, word).toString(16).padStart(8, '0');
  const variant = ((parseInt(hex[16], 16) & 3) | 8).toString(16);
  return (
    `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-` +
    `${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
  );
}

function token(collectionSeed: number, n: number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += TOKEN_ALPHABET[mixSeed(collectionSeed, n, i) % TOKEN_ALPHABET.length];
  return out;
}

function tokenLength(schema: Record<string, unknown>): number {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 1;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  return Math.max(min, Math.min(TOKEN_LENGTH, max));
}

function hashText(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
