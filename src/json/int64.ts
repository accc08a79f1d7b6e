// Validators compile to code over doubles (Ajv has no bigint). To judge int64 and int32 exactly
// anyway, a bigint is projected to a double that keeps its side of every int64 bound: an in-range
// value is rounded toward zero (so it stays within [-2^63, 2^63-1024]) and an out-of-range value
// is rounded away from zero (so it stays beyond). Then a double comparison against the bounds is
// exact, and `type: integer` still holds.
import { containsBigInt, type JsonValue } from './exact-json.ts';

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
const TWO_63 = 2 ** 63;

/** The int64 format over doubles projected by `toValidationView`. */
export function isInt64(value: number): boolean {
  return Number.isInteger(value) && value >= -TWO_63 && value < TWO_63;
}

export function isInt32(value: number): boolean {
  return Number.isInteger(value) && value >= -2147483648 && value <= 2147483647;
}

const float = new Float64Array(1);
const bits = new BigInt64Array(float.buffer);

function nextAwayFromZero(value: number): number {
  float[0] = value;
  bits[0] += 1n;
  return float[0];
}

function nextTowardZero(value: number): number {
  float[0] = value;
  bits[0] -= 1n;
  return float[0];
}

/** The double a validator sees for an exact integer. */
export function projectBigInt(value: bigint): number {
  const nearest = Number(value);
  // Past the largest double (1e309 written out): Infinity, which no number schema takes.
  if (!Number.isFinite(nearest)) return nearest;
  const magnitude = value < 0n ? -value : value;
  const nearestMagnitude = BigInt(Math.abs(nearest));
  const inRange = value >= INT64_MIN && value <= INT64_MAX;
  if (inRange && nearestMagnitude > magnitude) return nextTowardZero(nearest);
  if (!inRange && nearestMagnitude < magnitude) return nextAwayFromZero(nearest);
  return nearest;
}

/** The value as validators see it: unchanged unless it holds bigints. */
export function toValidationView(value: JsonValue): unknown {
  if (!containsBigInt(value)) return value;
  return project(value);
}

function project(value: JsonValue): unknown {
  if (typeof value === 'bigint') return projectBigInt(value);
  if (Array.isArray(value)) return value.map(project);
  if (value !== null && typeof value === 'object') {
    // Plain assignment (an object shape V8 caches), defineProperty only where assignment would
    // set the prototype. Fast path: see docs/performance.md §10.5.
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = project(value[key]);
      if (key === '__proto__')
        Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
      else out[key] = item;
    }
    return out;
  }
  return value;
}
