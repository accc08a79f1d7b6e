// A second reading of JSON text that JSON.parse has already accepted, with the caller deciding
// what each number literal becomes. parseJson uses it when the native parse met a number past
// 2^53: JSON.parse's own way to see a literal's source (a reviver with context) is several times
// the plain parse (fast path: see docs/performance.md §10.4). Since the text is known to be valid
// JSON, this reader checks nothing: it only walks the tokens.

/** Thrown past the nesting this reader recurses to; the caller reads such text another way. */
export class TooDeepError extends Error {}

const MAX_DEPTH = 512;

/** Reads text that JSON.parse accepted; `number` turns each number literal into its value. */
export function readValidJson<T>(text: string, number: (literal: string) => T): unknown {
  let i = 0;
  const skipSpace = () => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else return;
    }
  };
  const string = (): string => {
    const start = i++;
    let escaped = false;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x5c /* \ */) {
        escaped = true;
        i += 2;
      } else if (c === 0x22 /* " */) break;
      else i++;
    }
    i++;
    // Escapes are JSON.parse's to decode; a plain string is the text between the quotes.
    return escaped ? (JSON.parse(text.slice(start, i)) as string) : text.slice(start + 1, i - 1);
  };
  const value = (depth: number): unknown => {
    if (depth > MAX_DEPTH) throw new TooDeepError();
    skipSpace();
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */) {
      i++;
      const object: Record<string, unknown> = {};
      skipSpace();
      if (text.charCodeAt(i) === 0x7d) {
        i++;
        return object;
      }
      for (;;) {
        skipSpace();
        const key = string();
        skipSpace();
        i++; // :
        const item = value(depth + 1);
        // "__proto__" is an own key in JSON, as JSON.parse makes it; never the prototype.
        if (key === '__proto__')
          Object.defineProperty(object, key, { value: item, enumerable: true, writable: true, configurable: true });
        else object[key] = item;
        skipSpace();
        if (text.charCodeAt(i++) === 0x7d) return object; // else a comma
      }
    }
    if (c === 0x5b /* [ */) {
      i++;
      const array: unknown[] = [];
      skipSpace();
      if (text.charCodeAt(i) === 0x5d) {
        i++;
        return array;
      }
      for (;;) {
        array.push(value(depth + 1));
        skipSpace();
        if (text.charCodeAt(i++) === 0x5d) return array; // else a comma
      }
    }
    if (c === 0x22) return string();
    if (c === 0x74 /* t */) {
      i += 4;
      return true;
    }
    if (c === 0x66 /* f */) {
      i += 5;
      return false;
    }
    if (c === 0x6e /* n */) {
      i += 4;
      return null;
    }
    const start = i;
    for (;;) {
      const d = text.charCodeAt(i);
      // Digits, '-', '+', '.', 'e', 'E': the characters a JSON number is made of.
      if ((d >= 0x30 && d <= 0x39) || d === 0x2d || d === 0x2b || d === 0x2e || d === 0x65 || d === 0x45) i++;
      else break;
    }
    return number(text.slice(start, i));
  };
  return value(0);
}
