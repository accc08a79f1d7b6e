// Compares an expected JSON value with an actual one and lists every place they differ, each
// with its JSON pointer: the raw material of a readable diff. Integers compare by exact value
// (9007199254740993 as bigint equals the same literal however it was parsed).
import type { JsonValue } from '../../json/exact-json.ts';
import { escapePointerToken } from '../../document/json-pointer.ts';

export type MatchMode = 'subset' | 'exact';

export interface Mismatch {
  pointer: string;
  /** Undefined: the actual value has something the expected value does not (exact mode). */
  expected?: JsonValue;
  /** Undefined: the expected value is missing from the actual one. */
  actual?: JsonValue;
}

/**
 * Lists the differences. In subset mode, objects may carry extra properties; arrays must have
 * the same length, element by element in subset mode too.
 */
export function compareJson(
  expected: JsonValue,
  actual: JsonValue | undefined,
  mode: MatchMode,
  pointer = '',
): Mismatch[] {
  if (actual === undefined) return [{ pointer, expected }];
  if (isObject(expected) && isObject(actual)) {
    const out: Mismatch[] = [];
    for (const [key, value] of Object.entries(expected)) {
      out.push(
        ...compareJson(
          value,
          Object.hasOwn(actual, key) ? actual[key] : undefined,
          mode,
          `${pointer}/${escapePointerToken(key)}`,
        ),
      );
    }
    if (mode === 'exact') {
      for (const [key, value] of Object.entries(actual))
        if (!Object.hasOwn(expected, key))
          out.push({ pointer: `${pointer}/${escapePointerToken(key)}`, actual: value });
    }
    return out;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) return [{ pointer, expected, actual }];
    return expected.flatMap((item, index) => compareJson(item, actual[index], mode, `${pointer}/${index}`));
  }
  return sameScalar(expected, actual) ? [] : [{ pointer, expected, actual }];
}

function sameScalar(a: JsonValue, b: JsonValue): boolean {
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    if (typeof a === 'number' && typeof b === 'number') return a === b;
    const exact = (n: number | bigint) => (typeof n === 'bigint' ? n : Number.isInteger(n) ? BigInt(n) : undefined);
    const x = exact(a);
    const y = exact(b);
    return x !== undefined && y !== undefined && x === y;
  }
  return a === b;
}

function isObject(value: unknown): value is Record<string, JsonValue> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
