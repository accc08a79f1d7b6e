// json-schema-faker draws integers from [-1000, 1000] unless the schema bounds them, and as JS
// numbers, which are not exact past 2^53. For int64 and int32 fields that hides exactly the
// values that break clients (2^53 + 1, the int64 extremes), so the generator lets json-schema-faker
// walk the schema and then replaces each such integer here, through its outputTransform hook.
import { INT64_MAX, INT64_MIN } from '../json/int64.ts';
import type { SeededRandom } from './seeded-random.ts';

type Schema = Record<string, unknown>;

interface IntegerRange {
  min: bigint;
  max: bigint;
  /** Integer multipleOf, or 1n. */
  step: bigint;
  /** Interesting values inside the range: the bounds and the doubles' precision edge. */
  edges: bigint[];
  /** How to draw uniformly: the whole int64 range, a span that doubles hold exactly, or bigint math. */
  draw: 'int64' | 'number' | 'bigint';
}

const FORMAT_RANGES: Record<string, [bigint, bigint]> = {
  int64: [INT64_MIN, INT64_MAX],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
};

const SAFE = 2n ** 53n;
const CANDIDATE_EDGES = [
  INT64_MIN,
  INT64_MIN + 1n,
  -SAFE - 1n,
  -SAFE,
  -(2n ** 31n) - 1n,
  -(2n ** 31n),
  -1n,
  0n,
  1n,
  2n ** 31n - 1n,
  2n ** 31n,
  SAFE,
  SAFE + 1n,
  INT64_MAX - 1n,
  INT64_MAX,
];

const NOT_WIDENED = null;
const ranges = new WeakMap<Schema, IntegerRange | null>();

/** The exact JSON value of an integer as parseJson gives it: a safe integer is a number, any other a bigint. */
export function toJsonInteger(value: bigint): number | bigint {
  return value > -SAFE && value < SAFE ? Number(value) : value;
}

/**
 * Replaces a generated integer of an int64/int32 schema with one drawn from the format's whole
 * range (within the schema's own bounds); returns every other value unchanged.
 */
export function widenInteger(value: unknown, schema: unknown, random: SeededRandom): unknown {
  if (typeof value !== 'number' || !Number.isInteger(value) || schema === null || typeof schema !== 'object')
    return value;
  const node = schema as Schema;
  if (node.format !== 'int64' && node.format !== 'int32') return value;
  let range = ranges.get(node);
  if (range === undefined) {
    range = rangeOf(node);
    ranges.set(node, range);
  }
  if (range === NOT_WIDENED) return value;
  const draw = random.next32() & 7;
  // 1 in 8: an edge value, 1 in 8: what json-schema-faker drew (small, readable numbers), else
  // uniform over the range, which puts most int64 values past 2^53.
  if (draw === 0 && range.edges.length > 0) return toJsonInteger(range.edges[random.next32() % range.edges.length]);
  if (draw === 1 && BigInt(value) >= range.min && BigInt(value) <= range.max && BigInt(value) % range.step === 0n)
    return value;
  const slots = (range.max - range.min) / range.step + 1n;
  if (range.draw === 'int64') return toJsonInteger(random.int64());
  if (range.draw === 'number')
    return Number(range.min) + Math.floor((random.next32() / 0x1_0000_0000) * Number(slots)) * Number(range.step);
  return toJsonInteger(range.min + random.below(slots) * range.step);
}

function rangeOf(schema: Schema): IntegerRange | null {
  // enum and const already name the allowed values; a non-integer type is not ours to change.
  if (schema.enum !== undefined || schema.const !== undefined) return NOT_WIDENED;
  const type = schema.type;
  if (type !== undefined && type !== 'integer' && !(Array.isArray(type) && type.includes('integer')))
    return NOT_WIDENED;
  let [min, max] = FORMAT_RANGES[schema.format as string];
  const lower = bound(schema.minimum, schema.exclusiveMinimum, 'min');
  const upper = bound(schema.maximum, schema.exclusiveMaximum, 'max');
  if (lower !== undefined && lower > min) min = lower;
  if (upper !== undefined && upper < max) max = upper;
  let step = 1n;
  if (schema.multipleOf !== undefined) {
    if (typeof schema.multipleOf !== 'number' || !Number.isInteger(schema.multipleOf) || schema.multipleOf <= 0)
      return NOT_WIDENED;
    step = BigInt(schema.multipleOf);
    min = ceilDiv(min, step) * step;
    max = floorDiv(max, step) * step;
  }
  if (min > max) return NOT_WIDENED;
  const edges = CANDIDATE_EDGES.filter((edge) => edge >= min && edge <= max && edge % step === 0n);
  if (!edges.includes(min)) edges.push(min);
  if (!edges.includes(max)) edges.push(max);
  const draw =
    min === INT64_MIN && max === INT64_MAX && step === 1n
      ? 'int64'
      : max - min < 2n ** 32n && -SAFE < min && max < SAFE
        ? 'number'
        : 'bigint';
  return { min, max, step, edges, draw };
}

/** The inclusive integer bound of minimum/exclusiveMinimum (2020-12 numbers or 3.0 booleans). */
function bound(inclusive: unknown, exclusive: unknown, side: 'min' | 'max'): bigint | undefined {
  const toward = side === 'min' ? Math.ceil : Math.floor;
  const candidates: bigint[] = [];
  if (typeof inclusive === 'number' && Number.isFinite(inclusive)) {
    const exact = BigInt(toward(inclusive));
    // OpenAPI 3.0 (draft 4): exclusiveMinimum is a boolean that modifies minimum.
    candidates.push(exclusive === true && Number.isInteger(inclusive) ? exact + (side === 'min' ? 1n : -1n) : exact);
  }
  if (typeof exclusive === 'number' && Number.isFinite(exclusive)) {
    const exact = BigInt(toward(exclusive));
    candidates.push(Number.isInteger(exclusive) ? exact + (side === 'min' ? 1n : -1n) : exact);
  }
  if (candidates.length === 0) return undefined;
  return candidates.reduce((a, b) => (side === 'min' ? (a > b ? a : b) : a < b ? a : b));
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a > 0n ? q + 1n : q;
}
