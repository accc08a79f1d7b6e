// The schema as json-schema-faker is given it: a copy, made once per schema node, that draws the
// values faster and more often valid. The validator judges every draw against the original schema either way.
// - json-schema-faker merges every allOf again on every draw. The common OpenAPI pattern (NewPlant =
//   allOf[Plant, { id }]: plain object schemas with disjoint properties) is merged once, up front,
//   which makes each draw faster (docs/performance.md §10.15). Anything less plain is left to json-schema-faker.
// - A string's length is drawn up to its maxLength, one character at a time (and json-schema-faker
//   copies its 62-letter alphabet for each). Stripe's document gives 4,000 strings `maxLength: 5000`
//   as a ceiling, not an intent: an answer then held ~2,500 random letters per string and took
//   seconds to draw and check. A maxLength above json-schema-faker's own range for a string without
//   one (minLength + 10, at least 10) is lowered to that range; the value stays within the schema.
// - json-schema-faker copies a keyword it does not know into the object it draws, as if it were a
//   property: OpenAPI's `nullable: true` on Stripe's 1,000 `metadata` maps became
//   `{"nullable": true}`, which the map's string values refuse, so that nearly every full draw of
//   an invoice failed (3 to 6 s of failed draws per answer). OpenAPI's annotations (`nullable`,
//   `discriminator`, `xml`, `externalDocs`, `example`, `x-` extensions) say nothing about the
//   value to draw and are left out.
// - `filled` (the view a ready-to-send request is drawn from, `example --as curl`): a plain string
//   the schema lets be empty is drawn with at least one character, as a person would write it
//   (`"name": ""` is valid, and no one creates a plant so). A format, pattern, enum or const makes
//   its own value and is left alone, as is a maxLength of 0.

type Node = Record<string, unknown>;

/** Generated arrays hold at most this many items where the schema allows fewer (never below minItems). */
const MAX_ITEMS = 20;

// Keywords whose allOf-merge is a plain union. Annotations are dropped: the faker ignores them.
const MERGEABLE = new Set(['type', 'properties', 'required', 'description', 'title', 'allOf']);
const CHILD_MAPS = ['properties', 'patternProperties', '$defs'] as const;
const ANNOTATIONS = ['nullable', 'discriminator', 'xml', 'externalDocs', 'example'] as const;
const CHILD_LISTS = ['anyOf', 'oneOf', 'prefixItems'] as const;
const CHILD_SCHEMAS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'] as const;

/**
 * A copy of the schema with plain object allOfs merged and OpenAPI's annotations left out; the
 * input is not changed. `capped` (the view json-schema-faker draws from) also lowers long
 * maxLengths and maxItems; the uncapped view is what invalid examples break. Each `done` map must
 * serve one `capped` and `filled` pair only.
 */
export function fakerSchema(
  schema: unknown,
  done = new WeakMap<object, unknown>(),
  capped = true,
  filled = false,
): unknown {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const cached = done.get(schema);
  if (cached !== undefined) return cached;
  const copy: Node = { ...(schema as Node) };
  const walk = (child: unknown) => fakerSchema(child, done, capped, filled);
  const tag = (copy.discriminator as Node | undefined)?.propertyName;
  for (const key of ANNOTATIONS) delete copy[key];
  for (const key of Object.keys(copy)) if (key.startsWith('x-')) delete copy[key];
  for (const key of CHILD_MAPS) {
    const map = copy[key];
    if (map && typeof map === 'object')
      copy[key] = Object.fromEntries(Object.entries(map).map(([name, child]) => [name, walk(child)]));
  }
  for (const key of CHILD_LISTS) if (Array.isArray(copy[key])) copy[key] = (copy[key] as unknown[]).map(walk);
  if (capped && typeof tag === 'string')
    for (const key of ['oneOf', 'anyOf'] as const)
      if (Array.isArray(copy[key])) copy[key] = (copy[key] as unknown[]).map((branch) => withTag(branch, tag));
  for (const key of CHILD_SCHEMAS) if (copy[key] !== undefined) copy[key] = walk(copy[key]);
  if (Array.isArray(copy.allOf)) copy.allOf = copy.allOf.map(walk);
  // ajv-formats checks `url` (an absolute http, https or ftp URL); json-schema-faker does not know it and draws words.
  if (copy.format === 'url') copy.format = 'uri';
  if (capped) {
    if (typeof copy.pattern === 'string') copy.pattern = drawablePattern(copy.pattern);
    lowerMaxLength(copy);
    // Arrays likewise: GitHub's deployment records allow 5,000 objects, a body past the mock's 1 MB limit.
    if (typeof copy.maxItems === 'number' && copy.maxItems > MAX_ITEMS)
      copy.maxItems = Math.max(MAX_ITEMS, typeof copy.minItems === 'number' ? copy.minItems : 0);
  }
  if (filled) fillString(copy);
  const result = mergePlain(copy) ?? copy;
  done.set(schema, result);
  return result;
}

/**
 * A discriminated branch drawn with its tag: json-schema-faker may leave an optional tag out (Spotify's artists and
 * tracks, whose `type` enums tell them apart), and a body without it matches every branch whose properties are all
 * optional, which no oneOf allows.
 */
function withTag(branch: unknown, tag: string): unknown {
  if (branch === null || typeof branch !== 'object' || Array.isArray(branch)) return branch;
  const node = branch as Node;
  const properties = node.properties as Node | undefined;
  const required = Array.isArray(node.required) ? (node.required as string[]) : [];
  if (!properties || !(tag in properties) || required.includes(tag)) return branch;
  return { ...node, required: [...required, tag] };
}

function mergePlain(node: Node): Node | undefined {
  if (!Array.isArray(node.allOf)) return undefined;
  const parts: Node[] = [node, ...(node.allOf as unknown[]).map((member) => member as Node)];
  const properties: Node = {};
  const required: string[] = [];
  for (const part of parts) {
    if (part === null || typeof part !== 'object' || Array.isArray(part)) return undefined;
    if (part !== node && Array.isArray(part.allOf)) return undefined; // a nested allOf that did not merge
    if (!Object.keys(part).every((key) => MERGEABLE.has(key))) return undefined;
    if (part.type !== undefined && part.type !== 'object') return undefined;
    for (const [name, child] of Object.entries((part.properties as Node | undefined) ?? {})) {
      if (name in properties) return undefined; // two rules for one property: the faker must intersect them
      properties[name] = child;
    }
    for (const name of (part.required as string[] | undefined) ?? []) if (!required.includes(name)) required.push(name);
  }
  return { type: 'object', properties, required };
}

/**
 * A pattern as json-schema-faker can draw it: it reads `\u002F` as the letters `u002F` (AWS's IAM role ARNs), so such
 * escapes become the characters they stand for, escaped where the pattern syntax needs it. The validator still reads
 * the pattern as written.
 */
export function drawablePattern(pattern: string): string {
  if (!pattern.includes('\\u')) return pattern;
  return pattern.replace(/\\(\\|u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4}))/g, (whole, _escape, braced, hex) => {
    if (braced === undefined && hex === undefined) return whole; // an escaped backslash
    const char = String.fromCodePoint(parseInt(braced ?? hex, 16));
    return /[\\^$.|?*+()[\]{}/-]/.test(char) ? `\\${char}` : char;
  });
}

/** json-schema-faker's range for a string without maxLength, when the declared maxLength is wider. */
function lowerMaxLength(node: Node): void {
  // A format or a pattern makes its own value, which json-schema-faker then cuts to maxLength: left alone.
  if (typeof node.maxLength !== 'number' || node.format !== undefined || node.pattern !== undefined) return;
  const minLength = typeof node.minLength === 'number' ? node.minLength : 0;
  const range = Math.max(minLength + 10, 10);
  if (node.maxLength > range) node.maxLength = range;
}

/** A plain string that may be empty is drawn with at least one character (the `filled` view). */
function fillString(node: Node): void {
  const isString = node.type === 'string' || (Array.isArray(node.type) && node.type.includes('string'));
  if (!isString || node.minLength !== undefined || node.format !== undefined || node.pattern !== undefined) return;
  if (node.enum !== undefined || node.const !== undefined || node.maxLength === 0) return;
  node.minLength = 1;
}
