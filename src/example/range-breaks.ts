// Values just outside what a schema node allows: one past the int64/int32 bounds, one past
// minimum/maximum, one character past a length limit, a value not in the enum. Each breaks one
// rule only: the int64 overflow is made only when no tighter maximum exists (else it would break
// two rules at once).
import { stringifyJson, type JsonValue } from '../json/exact-json.ts';
import { INT64_MAX, INT64_MIN } from '../json/int64.ts';
import type { SchemaFacts } from './schema-facts.ts';
import { toJsonInteger } from './wide-integers.ts';

export interface RangeBreak {
  value: JsonValue;
  description: string;
}

const FORMAT_BOUNDS: Record<string, [bigint, bigint]> = {
  int64: [INT64_MIN, INT64_MAX],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
};

/** The out-of-range replacements for a value of a schema node. */
export function rangeBreaks(facts: SchemaFacts, value: JsonValue): RangeBreak[] {
  if (typeof value === 'number' || typeof value === 'bigint')
    return numberBreaks(facts, typeof value === 'bigint' || Number.isInteger(value));
  if (typeof value === 'string') return stringBreaks(facts);
  return [];
}

function numberBreaks(facts: SchemaFacts, integer: boolean): RangeBreak[] {
  const out: RangeBreak[] = [];
  const bounds = facts.format ? FORMAT_BOUNDS[facts.format] : undefined;
  // A declared bound at or past the format's own (maximum: 9223372036854775807) adds nothing.
  const upper = within(limit(facts.maximum, facts.exclusiveMaximum, 'max'), bounds);
  const lower = within(limit(facts.minimum, facts.exclusiveMinimum, 'min'), bounds);
  if (upper) {
    const next = upper.exclusive ? upper.value : integer ? Math.floor(upper.value) + 1 : upper.value + 1;
    out.push({
      value: next,
      description:
        `out of range: ${next} is ` +
        `${upper.exclusive ? 'not below the exclusive maximum' : 'above the maximum'} ${upper.value}`,
    });
  } else if (bounds) {
    out.push({
      value: toJsonInteger(bounds[1] + 1n),
      description: `out of range: ${bounds[1] + 1n} is one past the ${facts.format} maximum`,
    });
  }
  if (lower) {
    const next = lower.exclusive ? lower.value : integer ? Math.ceil(lower.value) - 1 : lower.value - 1;
    out.push({
      value: next,
      description:
        `out of range: ${next} is ` +
        `${lower.exclusive ? 'not above the exclusive minimum' : 'below the minimum'} ${lower.value}`,
    });
  } else if (bounds) {
    out.push({
      value: toJsonInteger(bounds[0] - 1n),
      description: `out of range: ${bounds[0] - 1n} is one below the ${facts.format} minimum`,
    });
  }
  if (facts.enum && integer) {
    const numbers = facts.enum.filter((item): item is number => typeof item === 'number');
    const outside = numbers.length > 0 ? Math.max(...numbers) + 1 : 0;
    if (!facts.enum.includes(outside))
      out.push({ value: outside, description: `out of range: ${outside} is not one of the allowed values` });
  }
  return out;
}

function stringBreaks(facts: SchemaFacts): RangeBreak[] {
  const out: RangeBreak[] = [];
  if (typeof facts.maxLength === 'number') {
    out.push({
      value: 'x'.repeat(facts.maxLength + 1),
      description: `out of range: ${facts.maxLength + 1} characters, above maxLength ${facts.maxLength}`,
    });
  }
  if (typeof facts.minLength === 'number' && facts.minLength > 0) {
    out.push({
      value: 'x'.repeat(facts.minLength - 1),
      description: `out of range: ${facts.minLength - 1} characters, below minLength ${facts.minLength}`,
    });
  }
  if (Array.isArray(facts.enum)) {
    let outside = 'not-an-allowed-value';
    while (facts.enum.includes(outside)) outside += '!';
    out.push({
      value: outside,
      description: `out of range: ${stringifyJson(outside)} is not one of the allowed values`,
    });
  }
  return out;
}

function within(bound: { value: number; exclusive: boolean } | undefined, bounds: [bigint, bigint] | undefined) {
  if (!bound || !bounds || !Number.isFinite(bound.value)) return bound;
  const value = BigInt(Math.trunc(bound.value));
  return value > bounds[0] && value < bounds[1] ? bound : undefined;
}

/** minimum/maximum with its exclusive flag, in either dialect; the tighter one when both are given. */
function limit(
  inclusive: number | undefined,
  exclusive: number | boolean | undefined,
  side: 'min' | 'max',
): { value: number; exclusive: boolean } | undefined {
  if (typeof exclusive === 'number') {
    const inclusiveIsTighter =
      typeof inclusive === 'number' && (side === 'max' ? inclusive < exclusive : inclusive > exclusive);
    return inclusiveIsTighter ? { value: inclusive, exclusive: false } : { value: exclusive, exclusive: true };
  }
  if (typeof inclusive === 'number') return { value: inclusive, exclusive: exclusive === true };
  return undefined;
}
