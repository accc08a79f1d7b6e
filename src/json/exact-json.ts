// JSON with exact integers. JSON.parse turns 9007199254740993 into 9007199254740992, so two
// different int64 ids would collide. Integer literals that a double cannot hold exactly become
// bigint (read from the literal's source text); everything else is what JSON.parse gives.
// Serialization writes bigints back as plain integer literals (JSON.rawJSON).
import { readValidJson, TooDeepError } from './valid-json-reader.ts';

export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

export type JsonParseResult =
  /** `plain`: the value holds no bigint (every number was a safe double); false when it may hold one. */
  { ok: true; value: JsonValue; plain: boolean } | { ok: false; message: string; line?: number; column?: number };

/** Parses JSON text, keeping every integer exact (unsafe integers become bigint). */
export function parseJson(text: string): JsonParseResult {
  try {
    // The native parse first; only when it met a number a double cannot hold exactly is the text
    // read again, by a reader that keeps integer literals exact. That test is exact: an integer
    // literal within +-(2^53 - 1) parses to exactly its value, so a lossy literal always shows as
    // an unsafe or infinite double (a fraction's double is what JSON gives either way). Fast path:
    // see docs/performance.md §10.1 (the regex pre-scan it replaced cost a share of every create).
    const value = JSON.parse(text) as JsonValue;
    return holdsUnsafeNumber(value)
      ? { ok: true, value: readExactly(text), plain: false }
      : { ok: true, value, plain: true };
  } catch (error) {
    if (error instanceof NumberRangeError) return { ok: false, message: error.message };
    return describeSyntaxError(error as Error, text);
  }
}

/** True when a parsed value holds a number past +-(2^53 - 1) or an infinite one (1e400). */
function holdsUnsafeNumber(value: unknown): boolean {
  if (typeof value === 'number') return isUnsafe(value);
  if (value === null || typeof value !== 'object') return false;
  // A loop with its own stack, not recursion: JSON.parse builds any depth, and this must not
  // overflow on it. The stack is made only for nested containers, and no function per call: a
  // flat body allocates nothing.
  let stack: object[] | undefined;
  let next: object | undefined = value;
  while (next !== undefined) {
    // Arrays by index: for-in would make a string key per element.
    if (Array.isArray(next)) {
      for (let i = 0; i < next.length; i++) {
        const child: unknown = next[i];
        if (typeof child === 'number') {
          if (isUnsafe(child)) return true;
        } else if (child !== null && typeof child === 'object') (stack ??= []).push(child);
      }
    } else {
      for (const key in next) {
        const child = (next as Record<string, unknown>)[key];
        if (typeof child === 'number') {
          if (isUnsafe(child)) return true;
        } else if (child !== null && typeof child === 'object') (stack ??= []).push(child);
      }
    }
    next = stack?.pop();
  }
  return false;
}

const isUnsafe = (n: number) => n > Number.MAX_SAFE_INTEGER || n < Number.MIN_SAFE_INTEGER;

class NumberRangeError extends Error {}

/** Valid JSON text read again, every integer exact; a text nested too deep for that reader takes the reviver. */
function readExactly(text: string): JsonValue {
  try {
    return readValidJson(text, exactNumber) as JsonValue;
  } catch (error) {
    if (error instanceof TooDeepError) return JSON.parse(text, reviveExact) as JsonValue;
    throw error;
  }
}

/** A number literal's value: its double, unless the double is not the integer it denotes. */
function exactNumber(literal: string): JsonValue {
  const value = Number(literal); // JSON's number grammar is a subset of Number's, with the same rounding
  if (!Number.isFinite(value)) throw new NumberRangeError(`number ${literal} is too large to represent`);
  if (!isUnsafe(value)) return value;
  // A plain digit run (an int64 id) is its own BigInt; other forms go through exactInteger.
  if (PLAIN_INTEGER.test(literal)) return BigInt(literal);
  return exactInteger(literal) ?? value; // a fraction past 2^53: the double is what JSON gives
}

function reviveExact(this: unknown, _key: string, value: unknown, context?: { source?: string }): unknown {
  if (typeof value !== 'number' || context?.source === undefined) return value;
  if (!Number.isFinite(value)) {
    // 1e400: no double holds it, and an exact bigint of it could be huge (1e999999999).
    throw new NumberRangeError(`number ${context.source} is too large to represent`);
  }
  const exact = exactInteger(context.source);
  if (exact === undefined) return value; // a fraction: the double is what JSON gives
  // 1e3 and 1.0 are the integer 1000 and 1 (JSON Schema judges numbers by value).
  if (Number.isSafeInteger(value) && BigInt(value) === exact) return value;
  return exact;
}

const PLAIN_INTEGER = /^-?\d+$/;
const NUMBER_LITERAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** The exact integer a JSON number literal denotes, or undefined when it has a fractional part. */
export function exactInteger(literal: string): bigint | undefined {
  const match = NUMBER_LITERAL.exec(literal);
  if (!match) return undefined;
  const [, sign, whole, fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText) - fraction.length;
  let digits = (whole + fraction).replace(/^0+(?=\d)/, '');
  if (exponent < 0) {
    const cut = digits.length + exponent;
    const dropped = cut > 0 ? digits.slice(cut) : digits;
    if (/[1-9]/.test(dropped)) return undefined;
    digits = cut > 0 ? digits.slice(0, cut) : '0';
  } else if (exponent > 0) {
    // Bounded: the value is finite as a double, so it has at most 309 digits.
    digits += '0'.repeat(exponent);
  }
  const magnitude = BigInt(digits);
  return sign === '-' ? -magnitude : magnitude;
}

function describeSyntaxError(error: Error, text: string): JsonParseResult {
  if (text.trim() === '') return { ok: false, message: 'the body is empty; a JSON value is required' };
  // V8 says "... in JSON at position 12 (line 1 column 13)"; older ones give only the position.
  const message = error.message.replace(/^JSON\.parse: /, '');
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return { ok: false, message, line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = /position (\d+)/.exec(message);
  if (position) {
    const before = text.slice(0, Number(position[1]));
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    return { ok: false, message, line, column };
  }
  return { ok: false, message };
}

function replaceBigInt(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? JSON.rawJSON(value.toString()) : value;
}

/** JSON.stringify that writes bigints as exact integer literals. */
export function stringifyJson(value: unknown, indent?: number): string {
  // Fast path: see docs/performance.md §10.2. A replacer slows JSON.stringify several times over,
  // and only values holding a bigint need one.
  return containsBigInt(value) ? JSON.stringify(value, replaceBigInt, indent) : JSON.stringify(value, null, indent);
}

/** True when the value holds a bigint anywhere (only then does it need the exact paths). */
export function containsBigInt(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (value === null || typeof value !== 'object') return false;
  // Loops, not Object.values: this runs on every answer body, and an array per object is garbage.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (containsBigInt(value[i])) return true;
    return false;
  }
  for (const key in value) if (containsBigInt((value as Record<string, unknown>)[key])) return true;
  return false;
}
