// The bundled document as Ajv compiles from it, made once, in place. Real documents carry things
// Ajv would misread or refuse, and OpenAPI gives some keywords a meaning that depends on the
// direction:
// - examples, `example` and `x-` extensions hold free data: an example object with an `id`
//   (GitHub's document) reads as a schema id to Ajv, and two such examples collide;
// - `nullable: true` without `type` (Stripe, GitHub, OpenAI, Twilio) means "any value": Ajv
//   refuses to compile it, so it is dropped;
// - `$recursiveAnchor`/`$recursiveRef` (JSON Schema 2019-09, in OpenAI's document) are unknown
//   to Ajv's 2020-12 dialect: the anchor is dropped and the reference accepts any value;
// - readOnly properties are never required in a request, and writeOnly ones never in an answer
//   (OpenAPI 3.0 section 4.7.25.1, and the 3.1 schema object's annotations): such names leave
//   `required` for DIRECTIONAL, which the validator checks by the direction of the value;
// - a `oneOf` with a `discriminator` picks its branch by the discriminator's value, not by
//   "exactly one branch matches": its branches may overlap (Prism's harness, public documents
//   whose variants differ only in the tag's value), so it is judged as an `anyOf`.
// One view serves both directions, so a large document is walked and registered with Ajv once.
// Name maps (properties, components.schemas, ...) keep every key: a property may be named `example`.

/** The keyword that holds the names required in one direction only. */
import { getAtPointer, unescapePointerToken } from '../document/json-pointer.ts';

export const DIRECTIONAL = 'plantstoreDirectional';

/** Required only in requests (writeOnly) or only in answers (readOnly); both when neutral. */
export interface DirectionalRequired {
  request: string[];
  response: string[];
}

export type Direction = 'request' | 'response' | 'neutral';

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

const NAME_MAPS = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'schemas',
  'responses',
  'parameters',
  'requestBodies',
  'headers',
  'securitySchemes',
  'links',
  'callbacks',
  'pathItems',
  'content',
  'paths',
  'webhooks',
  'encoding',
  'variables',
  'mapping',
  'scopes',
]);
// Link objects hold runtime expressions, no schemas: Ajv walks every key for ids, and link
// parameters named `id` ("$response.body#/user/id" twice, as PeerTube's document has) read as
// two draft-04 schemas of one id, which Ajv refuses.
const FREE_DATA = new Set(['example', 'examples', 'links']);
// A nested `$schema` names a dialect Ajv may not have loaded (draft-07 inside a 3.1 document);
// the document's dialect decides.
const DROPPED = new Set(['$recursiveAnchor', '$schema']);
// Values that are data, not schemas: copied as they are.
const VALUES = new Set(['enum', 'const', 'default', 'required', DIRECTIONAL]);

const prepared = new WeakSet<object>();
/** A discriminated oneOf judged as an anyOf: the path its branches moved to, per schema node. */
const movedOneOfs = new WeakMap<object, string[]>();

/** Turns a bundled document into Ajv's view of it, in place, once; returns it. */
export function prepareForValidation<T extends object>(bundled: T): T {
  if (prepared.has(bundled)) return bundled;
  prepared.add(bundled);
  const seen = new Set<object>();
  const visit = (node: unknown, parentKey: string | undefined): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item, undefined);
      return;
    }
    const source = node as Obj;
    const names = parentKey !== undefined && NAME_MAPS.has(parentKey);
    if (!names) {
      if (Array.isArray(source.required) && source.required.length > 0) splitRequired(source, bundled);
      for (const key of Object.keys(source)) {
        if (FREE_DATA.has(key) || key.startsWith('x-') || DROPPED.has(key) || key === '$recursiveRef')
          delete source[key];
        else if (key === 'nullable' && source.type === undefined) delete source[key];
      }
      if (isObj(source.discriminator) && Array.isArray(source.oneOf)) {
        if (source.anyOf === undefined) {
          source.anyOf = source.oneOf;
          movedOneOfs.set(source, ['anyOf']);
        } else {
          const allOf = Array.isArray(source.allOf) ? source.allOf : [];
          source.allOf = [...allOf, { anyOf: source.oneOf }];
          movedOneOfs.set(source, ['allOf', String(allOf.length), 'anyOf']);
        }
        delete source.oneOf;
        moved = true;
      }
    }
    // A map's entries are schemas whatever their names: Azure's resources have a property named `properties`.
    for (const [key, value] of Object.entries(source))
      if (names || !VALUES.has(key)) visit(value, names ? undefined : key);
  };
  // Where a discriminated oneOf was judged as an anyOf: a $ref through its old place (a bundled multi-file document
  // points a schema used twice at its first place, inside such a oneOf) follows it to the new one.
  let moved = false;
  visit(bundled, undefined);
  if (moved) followMoves(bundled);
  return bundled;
}

/** Rewrites every internal `$ref` whose path goes through a moved `oneOf` to the place its branches went. */
function followMoves(root: object): void {
  const seen = new Set<object>();
  const rewrite = (ref: string): string => {
    const tokens = ref.slice(1).split('/').slice(1);
    const out: string[] = [];
    let node: unknown = root;
    let changed = false;
    for (const token of tokens) {
      const to = isObj(node) && token === 'oneOf' ? movedOneOfs.get(node) : undefined;
      if (to) {
        out.push(...to);
        node = getAtPointer(root, `#/${out.join('/')}`);
        changed = true;
        continue;
      }
      out.push(token);
      node = isObj(node) || Array.isArray(node) ? (node as Obj)[unescapePointerToken(token)] : undefined;
    }
    return changed ? `#/${out.join('/')}` : ref;
  };
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    const source = node as Obj;
    if (typeof source.$ref === 'string' && source.$ref.startsWith('#/') && source.$ref.includes('/oneOf/'))
      source.$ref = rewrite(source.$ref);
    for (const value of Object.values(source)) walk(value);
  };
  walk(root);
}

/** Moves readOnly and writeOnly names out of `required`, into the directional keyword. */
function splitRequired(schema: Obj, root: object): void {
  const required = schema.required as unknown[];
  const readOnly = hiddenProperties(schema, root, 'readOnly');
  const writeOnly = hiddenProperties(schema, root, 'writeOnly');
  if (readOnly.size === 0 && writeOnly.size === 0) return;
  const names = required.map(String);
  schema.required = names.filter((name) => !readOnly.has(name) && !writeOnly.has(name));
  const directional: DirectionalRequired = {
    request: names.filter((name) => writeOnly.has(name)),
    response: names.filter((name) => readOnly.has(name)),
  };
  schema[DIRECTIONAL] = directional;
}

/** Properties of a schema (own and through allOf) marked readOnly or writeOnly. */
function hiddenProperties(schema: Obj, root: object, flag: 'readOnly' | 'writeOnly'): Set<string> {
  const hidden = new Set<string>();
  const visit = (node: unknown, depth: number) => {
    const s = follow(node, root);
    if (!s || depth > 8) return;
    if (isObj(s.properties)) {
      for (const [name, property] of Object.entries(s.properties))
        if (follow(property, root)?.[flag] === true) hidden.add(name);
    }
    if (Array.isArray(s.allOf)) for (const branch of s.allOf) visit(branch, depth + 1);
  };
  visit(schema, 0);
  return hidden;
}

/** Follows internal `$ref`s of the bundled document. */
export function follow(node: unknown, root: object): Obj | undefined {
  let current = node;
  for (let hops = 0; isObj(current) && typeof current.$ref === 'string' && hops < 32; hops++) {
    current = pointerValue(root, current.$ref);
  }
  return isObj(current) ? current : undefined;
}

/**
 * Where a pointer of the dereferenced document lies in the bundled one. On the way, a step may
 * land on a `$ref` (a response or a request body defined in components): the walk continues at
 * its target, so the result is a pointer Ajv can resolve without passing through a reference.
 */
export function bundledPointer(root: object, pointer: string): string | undefined {
  const tokens = pointer.replace(/^#/, '').split('/').slice(1);
  let path: string[] = [];
  let node: unknown = root;
  for (const token of tokens) {
    for (let hops = 0; isObj(node) && typeof node.$ref === 'string' && hops < 32; hops++) {
      if (!node.$ref.startsWith('#')) return undefined;
      path = node.$ref.slice(1).split('/').slice(1);
      node = pointerValue(root, node.$ref);
    }
    if (node === null || typeof node !== 'object') return undefined;
    const to = token === 'oneOf' ? movedOneOfs.get(node) : undefined;
    if (to) {
      path.push(...to);
      node = pointerValue(root, `#/${path.join('/')}`);
      continue;
    }
    node = (node as Obj)[unescapePointerToken(token)];
    path.push(token);
  }
  return node === undefined ? undefined : `#/${path.join('/')}`;
}

/** The value a `$ref` inside the document points to (`#/...` only). */
function pointerValue(root: unknown, pointer: string): unknown {
  return pointer.startsWith('#') ? getAtPointer(root, pointer) : undefined;
}
