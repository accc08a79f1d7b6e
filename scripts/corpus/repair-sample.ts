// Where no example or openapi-sampler sample of a probe's body or parameter validates, the harness
// repairs the sample by its own judge's findings rather than sending an invalid request (which a
// mock must refuse, and which would then count against it). openapi-sampler writes a pattern's
// text more or less literally (`\d{1,3}` comes out as `\d`) and ignores lengths beside patterns:
// AWS's ARNs (`^arn:(aws|aws-cn|aws-us-gov):backup-gateway(:[a-zA-Z-0-9]+){3}\/...$`, at least 50
// characters) defeat it. Each finding's own schema node is drawn again by json-schema-faker, which
// writes patterns and lengths exactly; only what the judge's Ajv then accepts is sent, so the
// judge stays the harness's own.
import { generateSync, type JsonSchema } from 'json-schema-faker';
import { atPointer, type Json } from './document.ts';
import type { SchemaIssue, SchemaJudge } from './schema-judge.ts';

/** Rounds of judge-then-redraw before giving up: each round fixes every finding it can. */
const ROUNDS = 12;

/**
 * `value` made valid against the schema at `pointer`, or undefined where the findings cannot be
 * repaired in a few rounds. A valid `value` comes back as it is.
 */
export function repairSample(judge: SchemaJudge, pointer: string, value: unknown): unknown {
  let current: unknown = value === undefined ? null : structuredClone(value);
  for (let round = 0; round < ROUNDS; round++) {
    const issues = judge.issues(pointer, current);
    if (issues.length === 0) return current;
    let changed = false;
    const done = new Set<string>();
    // Deepest first: a fixed leaf is not drawn again with its parent.
    for (const issue of [...issues].sort((a, b) => b.instancePath.length - a.instancePath.length)) {
      if ([...done].some((path) => path.startsWith(issue.instancePath) || issue.instancePath.startsWith(path)))
        continue;
      const fixed = fix(judge.view, issue, atPath(current, issue.instancePath), round);
      if (fixed === NO_FIX) continue;
      current = setAtPath(current, issue.instancePath, fixed);
      done.add(issue.instancePath);
      changed = true;
    }
    if (!changed) return undefined;
  }
  return judge.issues(pointer, current).length === 0 ? current : undefined;
}

const NO_FIX = Symbol('no fix');

function fix(view: Json, issue: SchemaIssue, at: unknown, round: number): unknown {
  const schema = issue.parentSchema;
  if (!schema || typeof schema !== 'object') return NO_FIX;
  const draw = (node: Json) => drawFrom(view, node, round);
  switch (issue.keyword) {
    case 'required': {
      const name = issue.params.missingProperty as string;
      if (!at || typeof at !== 'object' || Array.isArray(at)) return draw(schema);
      const property = schema.properties?.[name];
      // A name `required` alone declares takes any value: a plain string, as a person would send.
      const any = property === undefined || (typeof property === 'object' && Object.keys(property).length === 0);
      const drawn = any ? 'probe' : draw(property);
      return drawn === NO_FIX ? NO_FIX : { ...at, [name]: drawn };
    }
    case 'additionalProperties': {
      if (!at || typeof at !== 'object' || Array.isArray(at)) return NO_FIX;
      const { [issue.params.additionalProperty as string]: _dropped, ...rest } = at as Record<string, unknown>;
      return rest;
    }
    default:
      // A oneOf/anyOf/allOf/not finding is drawn again as a whole, like any leaf's.
      return draw(schema);
  }
}

/** One json-schema-faker draw of a schema node of the judge's view; its local $refs resolve in that view. */
function drawFrom(view: Json, schema: Json, round: number): unknown {
  try {
    return generateSync(capped(schema) as JsonSchema, {
      seed: round + 1,
      maxDepth: 6,
      refResolver: (ref: string) => {
        const target = ref.startsWith('#') ? atPointer(view, ref) : undefined;
        if (target === undefined) throw new Error(`cannot resolve ${ref}`);
        return capped(target) as JsonSchema;
      },
    });
  } catch {
    return NO_FIX;
  }
}

/** Lengths a probe needs: json-schema-faker draws up to maxLength (Textract allows 10 MB of base64). */
const LONGEST = 256;
const MOST_ITEMS = 3;
const cappedViews = new WeakMap<object, Json>();

/** A copy of a schema node (its $refs left as they are) with maxLength and maxItems capped above their minimums. */
function capped(schema: Json): Json {
  if (!schema || typeof schema !== 'object') return schema;
  let copy = cappedViews.get(schema);
  if (copy) return copy;
  copy = Array.isArray(schema) ? schema.map(capped) : {};
  if (!Array.isArray(schema)) {
    for (const [key, child] of Object.entries(schema))
      copy[key] = key === 'enum' || key === 'const' || key === 'default' ? child : capped(child);
    if (typeof copy.maxLength === 'number')
      copy.maxLength = Math.min(copy.maxLength, Math.max(LONGEST, copy.minLength ?? 0));
    if (typeof copy.maxItems === 'number')
      copy.maxItems = Math.min(copy.maxItems, Math.max(MOST_ITEMS, copy.minItems ?? 0));
  }
  cappedViews.set(schema, copy);
  return copy;
}

const segments = (path: string) =>
  path === ''
    ? []
    : path
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

function atPath(root: unknown, path: string): unknown {
  let node = root;
  for (const key of segments(path)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function setAtPath(root: unknown, path: string, value: unknown): unknown {
  const keys = segments(path);
  if (keys.length === 0) return value;
  let node = root as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[keys[keys.length - 1]] = value;
  return root;
}
