// json-schema-faker merges every allOf again on every draw. The common OpenAPI pattern (NewPlant =
// allOf[Plant, { id }]: plain object schemas with disjoint properties) can be merged once, up
// front, which makes each draw about a fifth faster. Anything less plain is left to
// json-schema-faker; the validator judges the result against the original schema either way.

type Node = Record<string, unknown>;

// Keywords whose allOf-merge is a plain union. Annotations are dropped: the faker ignores them.
const MERGEABLE = new Set(['type', 'properties', 'required', 'description', 'title', 'allOf']);
const CHILD_MAPS = ['properties', 'patternProperties', '$defs'] as const;
const CHILD_LISTS = ['anyOf', 'oneOf', 'prefixItems'] as const;
const CHILD_SCHEMAS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'] as const;

/**
 * A copy of the schema with plain object allOfs merged; the input is not changed. With
 * `maxStringLength`, a string's maxLength above it is lowered to it (never below its minLength),
 * and an array's maxItems to a fifth of it:
 * json-schema-faker writes a string a character at a time, and Stripe's maxLength of 5,000 on
 * nearly every string made each of its examples tens of kilobytes and most of the draw time.
 * Each `done` map must serve one `maxStringLength` only.
 */
export function premergeAllOf(schema: unknown, done = new WeakMap<object, unknown>(), maxStringLength?: number): unknown {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const cached = done.get(schema);
  if (cached !== undefined) return cached;
  const copy: Node = { ...(schema as Node) };
  const walk = (child: unknown) => premergeAllOf(child, done, maxStringLength);
  for (const key of CHILD_MAPS) {
    const map = copy[key];
    if (map && typeof map === 'object') copy[key] = Object.fromEntries(Object.entries(map).map(([name, child]) => [name, walk(child)]));
  }
  for (const key of CHILD_LISTS) if (Array.isArray(copy[key])) copy[key] = (copy[key] as unknown[]).map(walk);
  for (const key of CHILD_SCHEMAS) if (copy[key] !== undefined) copy[key] = walk(copy[key]);
  if (Array.isArray(copy.allOf)) copy.allOf = copy.allOf.map(walk);
  if (maxStringLength !== undefined && typeof copy.maxLength === 'number' && copy.maxLength > maxStringLength) {
    copy.maxLength = Math.max(maxStringLength, typeof copy.minLength === 'number' ? copy.minLength : 0);
  }
  // Arrays likewise (GitHub's deployment records allow 1,000 items of objects: a body past the
  // mock's 1 MB limit), to a fifth of the string limit.
  const maxItems = maxStringLength === undefined ? undefined : Math.ceil(maxStringLength / 5);
  if (maxItems !== undefined && typeof copy.maxItems === 'number' && copy.maxItems > maxItems) {
    copy.maxItems = Math.max(maxItems, typeof copy.minItems === 'number' ? copy.minItems : 0);
  }
  const result = mergePlain(copy) ?? copy;
  done.set(schema, result);
  return result;
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
