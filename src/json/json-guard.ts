// One linear scan of JSON text, before anything recurses over it: rejects nesting deeper than a
// limit (a 1 MiB body of "[" would otherwise reach recursive validators) and duplicate keys in an
// object (JSON.parse silently keeps the last one, so the meaning would be ambiguous).
// It assumes nothing about validity: JSON.parse still decides that afterwards.

export type GuardResult = { ok: true } | { ok: false; problem: 'depth' | 'duplicate-key'; message: string };

const OK: GuardResult = { ok: true };

/** Scans JSON text for excessive depth and duplicate keys. */
export function guardJson(text: string, maxDepth: number): GuardResult {
  // Objects with fewer than two keys cannot repeat one, and short texts cannot nest deeply:
  // small bodies without a second key skip the scan altogether.
  if (text.length < 2 * maxDepth && text.indexOf(',') === -1) return OK;
  const keySets: (Set<string> | null)[] = [];
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i;
      i++;
      let escaped = false;
      while (i < text.length) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) {
          escaped = true;
          i += 2;
          continue;
        }
        if (d === 0x22) break;
        i++;
      }
      if (expectKey) {
        const raw = text.slice(start, i + 1);
        const key = escaped ? decodeKey(raw) : raw.slice(1, -1);
        const keys = keySets[keySets.length - 1];
        if (keys) {
          if (keys.has(key))
            return {
              ok: false,
              problem: 'duplicate-key',
              message: `the key "${key}" appears twice in one object; its meaning would be ambiguous`,
            };
          keys.add(key);
        }
        expectKey = false;
      }
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > maxDepth)
        return { ok: false, problem: 'depth', message: `JSON nested deeper than ${maxDepth} levels` };
      keySets.push(c === 0x7b ? new Set() : null);
      expectKey = c === 0x7b;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
      keySets.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      expectKey = keySets[keySets.length - 1] !== null && keySets.length > 0;
    }
  }
  return OK;
}

/**
 * Whether a text might nest deeper than the limit: only one with more opening brackets than the
 * limit can. Such a text must pass guardJson before JSON.parse sees it (a 1 MiB body of "[" would
 * make JSON.parse build half a million arrays before it fails).
 */
export function mayNestDeeperThan(text: string, maxDepth: number): boolean {
  if (text.length <= maxDepth) return false;
  let open = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === 0x7b || c === 0x5b) && ++open > maxDepth) return true;
  }
  return false;
}

/**
 * True when the parsed value proves its text had no duplicate key, without the scan: in a text
 * without backslashes every quote delimits a string, a key or a string value, so the text has
 * 2 x (keys + string values) quotes; a duplicate key drops a key (and its value) from the parsed
 * value, so the counts then differ. False means "not proven": guardJson decides.
 */
export function provesNoDuplicateKeys(text: string, value: unknown): boolean {
  // One pass over the characters, not an indexOf per quote. Fast path: see docs/performance.md §10.3.
  let quotes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) quotes++;
    else if (c === 0x5c) return false;
  }
  return quotes === 2 * countStrings(value);
}

/** Keys and string values in a parsed value (its depth is bounded: the text passed the depth check). */
function countStrings(value: unknown): number {
  if (typeof value === 'string') return 1;
  if (value === null || typeof value !== 'object') return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) count += countStrings(value[i]);
    return count;
  }
  for (const key in value) count += 1 + countStrings((value as Record<string, unknown>)[key]);
  return count;
}

function decodeKey(raw: string): string {
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw;
  }
}
