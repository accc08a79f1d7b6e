// A oneOf's branches can accept the very same values until one looks deep enough: Nexmo's SMS
// answer is oneOf [SMS, Error], two objects of optional strings whose `messages` items differ
// only in the names they declare. Any value drawn from one branch matches the other too, so no
// draw ever satisfies the oneOf. A value of one branch is then changed just enough that the others
// refuse it, where the branch lets it be: a property only another branch declares, given a value
// of a type that branch refuses; a property only another branch requires, left out; the same
// done inside shared properties and array items. The whole schema's validator still judges the
// result, so a change that breaks the chosen branch too is never sent.

type Node = Record<string, unknown>;

/** Resolves a local `$ref` left in the document (a circular one). */
export type RefResolver = (ref: string) => unknown;

const MAX_DEPTH = 8;

/**
 * Values made from `value` (valid for `branch`) that every schema in `others` refuses, most
 * likely first; the caller keeps the first its validator accepts. Empty where nothing tells them apart.
 */
export function separateBranches(value: unknown, branch: unknown, others: unknown[], resolve: RefResolver): unknown[] {
  let candidates = [value];
  for (const other of others) {
    candidates = candidates.flatMap((candidate) => apart(candidate, branch, other, resolve, 0));
    if (candidates.length === 0) return [];
    candidates = candidates.slice(0, 8);
  }
  return candidates;
}

/** Changes of `value` that `keep` may still accept and `refuse` does not, most likely first. */
function apart(value: unknown, keep: unknown, refuse: unknown, resolve: RefResolver, depth: number): unknown[] {
  const a = plain(keep, resolve);
  const b = plain(refuse, resolve);
  if (!a || !b || depth > MAX_DEPTH) return [];
  const out: unknown[] = [];
  if (isRecord(value) && !Array.isArray(value)) {
    const aProps = (isRecord(a.properties) ? a.properties : {}) as Node;
    const bProps = (isRecord(b.properties) ? b.properties : {}) as Node;
    const aRequired = new Set(Array.isArray(a.required) ? (a.required as string[]) : []);
    const bRequired = Array.isArray(b.required) ? (b.required as string[]) : [];
    const openA = a.additionalProperties !== false && a.patternProperties === undefined;
    // A property `refuse` requires and `keep` does not: left out.
    for (const name of bRequired)
      if (name in value && !aRequired.has(name)) {
        const { [name]: _left, ...rest } = value;
        out.push(rest);
      }
    // A property only `refuse` declares: a value of a type it refuses, where `keep` takes any.
    if (openA)
      for (const [name, schema] of Object.entries(bProps)) {
        if (name in aProps) continue;
        const wrong = wrongTypeFor(plain(schema, resolve));
        if (wrong !== undefined) out.push({ ...value, [name]: wrong });
      }
    // A property only `keep` declares, where `refuse` takes no others: present.
    if (b.additionalProperties === false)
      for (const name of Object.keys(aProps)) if (!(name in bProps) && name in value) out.push(value);
    // A property both declare: told apart inside.
    for (const [name, schema] of Object.entries(aProps)) {
      if (!(name in bProps) || !(name in value)) continue;
      for (const inner of apart(value[name], schema, bProps[name], resolve, depth + 1).slice(0, 2))
        out.push({ ...value, [name]: inner });
    }
  } else if (Array.isArray(value) && value.length > 0 && a.items !== undefined && b.items !== undefined) {
    // One item told apart makes the array apart.
    for (const inner of apart(value[0], a.items, b.items, resolve, depth + 1).slice(0, 2))
      out.push([inner, ...value.slice(1)]);
  }
  return out;
}

/** A value of a JSON type the schema's `type` leaves out, or undefined where it takes every type. */
function wrongTypeFor(schema: Node | undefined): unknown {
  const types = schema?.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length === 0) return undefined;
  const choices: [string, unknown][] = [
    ['integer', 0],
    ['string', 'x'],
    ['boolean', true],
    ['object', {}],
  ];
  const taken = (type: string) => types.includes(type) || (type === 'integer' && types.includes('number'));
  return choices.find(([type]) => !taken(type))?.[1];
}

/** The schema node with its `$ref` followed and a plain allOf's properties and required merged. */
function plain(schema: unknown, resolve: RefResolver): Node | undefined {
  let node = schema;
  for (let hops = 0; hops < 8 && isRecord(node) && typeof node.$ref === 'string'; hops++) node = resolve(node.$ref);
  if (!isRecord(node)) return undefined;
  if (!Array.isArray(node.allOf)) return node;
  const merged: Node = { ...node, properties: { ...((node.properties as Node) ?? {}) } };
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  for (const part of node.allOf) {
    const p = plain(part, resolve);
    if (!p) continue;
    Object.assign(merged.properties as Node, p.properties ?? {});
    for (const name of Array.isArray(p.required) ? (p.required as string[]) : []) required.add(name);
    if (p.additionalProperties === false) merged.additionalProperties = false;
    if (merged.type === undefined && p.type !== undefined) merged.type = p.type;
  }
  merged.required = [...required];
  return merged;
}

const isRecord = (value: unknown): value is Node => value !== null && typeof value === 'object';
