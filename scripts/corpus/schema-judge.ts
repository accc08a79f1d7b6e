// The judge's own schema validator: an Ajv instance of its own over a copy of the document in which
// every schema is plain JSON Schema. OpenAPI 3.0's dialect (nullable, boolean exclusiveMaximum, ...)
// goes through @openapi-contrib/openapi-schema-to-json-schema and is judged as draft-04, which that
// converter emits; 3.1 schemas are JSON Schema 2020-12 already. The document is added whole, so
// each response schema compiles as a reference into it and recursive schemas stay finite.
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Ajv, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { openapiSchemaToJsonSchema } from '@openapi-contrib/openapi-schema-to-json-schema';
import type { Json } from './document.ts';

// ajv-draft-04 and ajv-formats are CommonJS with a default export, which Node's ESM interop wraps.
const AjvDraft04 = ((m: { default?: unknown }) => m.default ?? m)(
  createRequire(import.meta.url)('ajv-draft-04'),
) as new (options: object) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv;

const DOC_ID = 'https://corpus.invalid/document.json';

/**
 * A `pattern` is read as the mock and JavaScript clients read it, with the `u` flag (so `\p{L}` is a letter, as in
 * AWS's tag keys); one that only compiles without it (`[\w\_]`) is read without it rather than refused.
 */
const patternRegExp = Object.assign(
  (pattern: string, flags: string) => {
    try {
      return new RegExp(pattern, flags);
    } catch {
      return new RegExp(pattern, flags.replace('u', ''));
    }
  },
  { code: 'patternRegExp' },
);

export type Verdict = { ok: true } | { ok: false; reason: string };

/** One finding of the judge's Ajv, with the schema node whose keyword it broke (in the judge's view). */
export interface SchemaIssue {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  parentSchema: Json;
}

export interface SchemaJudge {
  /** Judges `value` against the schema at `pointer` (a local pointer into the document). */
  validate(pointer: string, value: unknown): Verdict;
  /** Every finding against the schema at `pointer` (none: valid); a schema the judge cannot compile gives none. */
  issues(pointer: string, value: unknown): SchemaIssue[];
  /** The document as the judge reads it: every schema plain JSON Schema, its $refs local. */
  view: Json;
}

/**
 * `response` judges answers (writeOnly properties may be absent), `request` judges the probes'
 * own bodies (readOnly properties may be absent).
 */
export function createSchemaJudge(doc: Json, version: '3.0' | '3.1', direction: 'request' | 'response'): SchemaJudge {
  const view = structuredClone(doc);
  const toJsonSchema =
    version === '3.0'
      ? (schema: Json) => convert30(declareRequired(dropNullable(schema, true)))
      : (schema: Json) => dropNullable(schema);
  const hidden = direction === 'response' ? 'writeOnly' : 'readOnly';
  // Before the conversion, which drops readOnly and writeOnly (draft-04 has neither).
  forEachSchema(view, (schema) => toJsonSchema(stripAccessOnly(schema, hidden)));
  const options = {
    strict: false,
    validateSchema: false,
    logger: false as const,
    code: { regExp: patternRegExp },
    allErrors: false,
  };
  const ajv = version === '3.0' ? new AjvDraft04(options) : (new Ajv2020(options) as unknown as Ajv);
  addFormats(ajv);
  const idKey = version === '3.0' ? 'id' : '$id';
  const renamed = renameIdEntries(view, idKey);
  view[idKey] = DOC_ID;
  ajv.addSchema(view, DOC_ID);
  const compiled = new Map<string, ValidateFunction | string>();
  // Every finding, with its schema node, is only wanted to repair a sample: a second Ajv, made on first use.
  let explaining: Ajv | undefined;
  const explained = new Map<string, ValidateFunction | undefined>();
  return {
    view,
    issues(original, value) {
      const pointer = renamedPointer(original, renamed);
      if (!explained.has(pointer)) {
        if (!explaining) {
          const options2 = { ...options, allErrors: true, verbose: true };
          explaining = version === '3.0' ? new AjvDraft04(options2) : (new Ajv2020(options2) as unknown as Ajv);
          addFormats(explaining);
          explaining.addSchema(view, DOC_ID);
        }
        try {
          explained.set(pointer, explaining.compile({ $ref: `${DOC_ID}${pointer}` }));
        } catch {
          explained.set(pointer, undefined);
        }
      }
      const fn = explained.get(pointer);
      if (!fn || fn(value)) return [];
      return (fn.errors ?? []).map((error) => ({
        instancePath: error.instancePath,
        keyword: error.keyword,
        params: error.params as Record<string, unknown>,
        parentSchema: error.parentSchema,
      }));
    },
    validate(original, value) {
      const pointer = renamedPointer(original, renamed);
      let fn = compiled.get(pointer);
      if (fn === undefined) {
        try {
          fn = ajv.compile({ $ref: `${DOC_ID}${pointer}` });
        } catch (error) {
          fn = `the judge could not compile the schema at ${pointer}: ${(error as Error).message.split('\n')[0]}`;
        }
        compiled.set(pointer, fn);
      }
      if (typeof fn === 'string') return { ok: false, reason: fn };
      if (fn(value)) return { ok: true };
      const first = fn.errors?.[0];
      return { ok: false, reason: `body ${first?.instancePath || '(root)'} ${first?.message ?? 'invalid'}` };
    },
  };
}

/**
 * OpenAPI 3.0.3: `nullable` adds null to the types `type` names, "only if type is explicitly defined within the same
 * Schema Object" (beside a $ref, which 3.0 says to read alone, it means nothing). In 3.1 it is no keyword at all (an
 * annotation JSON Schema ignores). Ajv knows it as a keyword, and refuses it without a type: the judge's view keeps
 * it only where it means something.
 */
function dropNullable(schema: Json, typedOnly = false): Json {
  const visit = (node: Json, isMap: boolean) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((child) => visit(child, false));
    if (!isMap && 'nullable' in node && !(typedOnly && node.type !== undefined)) delete node.nullable;
    for (const [key, child] of Object.entries(node)) {
      if (isMap || (key !== 'enum' && key !== 'const')) visit(child, !isMap && MAPS.has(key));
    }
  };
  visit(schema, false);
  return schema;
}

/**
 * JSON Schema's `required` holds whatever `properties` declares: Asana's SectionRequest requires a `project` it never
 * declares, and a body without one is invalid. The 3.0 converter drops such names from `required`; declared as any
 * value (`{}`), they stay required and nothing else changes.
 */
function declareRequired(schema: Json): Json {
  const visit = (node: Json, isMap: boolean) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((child) => visit(child, false));
    const props = node.properties;
    if (!isMap && Array.isArray(node.required) && props && typeof props === 'object' && !Array.isArray(props))
      for (const name of node.required) if (typeof name === 'string' && !(name in props)) props[name] = {};
    for (const [key, child] of Object.entries(node)) {
      if (isMap || (key !== 'enum' && key !== 'const')) visit(child, !isMap && MAPS.has(key));
    }
  };
  visit(schema, false);
  return schema;
}

/** Keys whose entries Ajv never reads a schema id from when it walks a $ref's pointer (ajv's PREVENT_SCOPE_CHANGE). */
const NO_SCOPE = new Set(['properties', 'patternProperties', 'enum', 'dependencies', 'definitions']);

/**
 * An entry named `id` (or `$id` in 3.1) in a map Ajv does not know, such as a schema called `id` in
 * `components.schemas` (AWS's Data Pipeline has one), reads to Ajv as the map's own schema id when it walks a $ref
 * through the map, and it gives up ("id.replace is not a function"). Such entries move to a free name, every $ref to
 * them follows, and the returned map (old pointer to new) lets callers keep the document's pointers.
 */
function renameIdEntries(view: Json, idKey: string): Map<string, string> {
  const renamed = new Map<string, string>();
  const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
  const visit = (node: Json, pointer: string, enteredBy: string) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((child, i) => visit(child, `${pointer}/${i}`, String(i)));
    if (pointer !== '#' && !NO_SCOPE.has(enteredBy) && idKey in node && typeof node[idKey] !== 'string') {
      let free = `${idKey}_`;
      while (free in node) free += '_';
      node[free] = node[idKey];
      delete node[idKey];
      renamed.set(`${pointer}/${escape(idKey)}`, `${pointer}/${escape(free)}`);
    }
    for (const [key, child] of Object.entries(node)) visit(child, `${pointer}/${escape(key)}`, key);
  };
  visit(view, '#', '');
  if (renamed.size === 0) return renamed;
  const rewrite = (node: Json) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(rewrite);
    if (typeof node.$ref === 'string') node.$ref = renamedPointer(node.$ref, renamed);
    for (const child of Object.values(node)) rewrite(child);
  };
  rewrite(view);
  return renamed;
}

/** A pointer into the document as it reads after renameIdEntries (outer renames first, as they were recorded). */
function renamedPointer(pointer: string, renamed: Map<string, string>): string {
  for (const [from, to] of renamed)
    if (pointer === from || pointer.startsWith(`${from}/`)) pointer = to + pointer.slice(from.length);
  return pointer;
}

function convert30(schema: Json): Json {
  const out = openapiSchemaToJsonSchema(schema, {
    cloneSchema: false,
    supportPatternProperties: true,
    strictMode: false,
  }) as Json;
  // The converter stamps draft-04's $schema on its result; the document's own Ajv knows its dialect.
  if (out && typeof out === 'object') delete out.$schema;
  return out;
}

/**
 * A response may leave out a writeOnly property even where the schema requires it, and a request a
 * readOnly one (OpenAPI 3.0 and 3.1 both say so), so the judge's view drops them from `properties`
 * and `required`. Example and default values go too: they do not constrain anything, and Ajv reads
 * every `id`/`$id` string it meets in an added document as a schema id (two examples with
 * `"id": "v2.0"` make it refuse the whole document).
 */
function stripAccessOnly(schema: Json, hidden: 'readOnly' | 'writeOnly'): Json {
  const visit = (node: Json, isMap: boolean) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((child) => visit(child, false));
    if (!isMap) {
      for (const key of ['example', 'examples', 'default', 'id']) delete node[key];
      const props = node.properties;
      if (props && typeof props === 'object') {
        for (const [name, prop] of Object.entries<Json>(props)) {
          if (prop && typeof prop === 'object' && prop[hidden] === true) {
            delete props[name];
            if (Array.isArray(node.required)) node.required = node.required.filter((r: string) => r !== name);
          }
        }
      }
    }
    for (const [key, child] of Object.entries(node)) {
      if (isMap || (key !== 'enum' && key !== 'const')) visit(child, !isMap && MAPS.has(key));
    }
  };
  visit(schema, false);
  return schema;
}

/** Keywords whose value maps names to schemas: their keys are names, not keywords. */
const MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * Replaces every schema in the document with `map(schema)`: components.schemas and every `schema`
 * of a parameter, header or media type, wherever it sits (paths, webhooks, callbacks, components).
 * Example values are data, not schemas, and are left alone.
 */
export function forEachSchema(doc: Json, map: (schema: Json) => Json): void {
  const schemas = doc?.components?.schemas;
  if (schemas && typeof schemas === 'object')
    for (const name of Object.keys(schemas)) schemas[name] = map(schemas[name]);
  const visit = (node: Json, skipSchemas: boolean) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((child) => visit(child, false));
    for (const [key, child] of Object.entries<Json>(node)) {
      if (key === 'example' || key === 'examples') {
        delete node[key]; // data, not schemas; and see stripAccessOnly on ids in them
        continue;
      }
      if (skipSchemas && key === 'schemas') continue;
      if (key === 'schema' && child && typeof child === 'object' && !Array.isArray(child)) node[key] = map(child);
      else visit(child, key === 'components' && node === doc);
    }
  };
  visit(doc, false);
}
