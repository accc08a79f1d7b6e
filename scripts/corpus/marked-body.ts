// The state stage's bodies: a valid body for a create or an update (the probe builder's example or
// sample), with a unique mark in every string field the schema accepts one in, so that a read or
// a list that shows a mark shows what was sent. Each marked body is checked by the harness's own
// request judge: a field whose rules (pattern, length, format, oneOf) refuse a mark is left as it
// was.
import { atPointer, resolve, type Json, type LoadedDocument, type Operation } from './document.ts';
import { concreteMediaType, encodeBody, planBody } from './probe-request.ts';
import type { SchemaJudge } from './schema-judge.ts';

export interface MarkedBody {
  body: string | Buffer;
  contentType: string;
  /** The marks sent, as they appear in the values (an email's local part, a URL's last segment). */
  marks: string[];
  /** The value sent, before encoding. */
  value: Record<string, unknown> | unknown[];
  /** Where each mark went, as property paths (a JSON Patch update replaces the same ones). */
  fields: string[][];
}

export type MarkResult = { ok: true; body: MarkedBody } | { ok: false; reason: string };

/**
 * Unique marks for one document: `zq0001k`, in the shapes a pattern may ask for (letters only,
 * capitals, hexadecimal digits, decimal digits).
 */
export function markMaker(): () => string[] {
  let n = 0;
  const letters = (value: number) => {
    let out = '';
    for (let i = 0; i < 4; i++, value = Math.floor(value / 26)) out = String.fromCharCode(97 + (value % 26)) + out;
    return out;
  };
  return () => {
    n++;
    const alnum = `zq${n.toString(36).padStart(4, '0')}k`;
    const alpha = `zq${letters(n)}k`;
    const hex = `fa${n.toString(16).padStart(5, '0')}d`;
    const digits = `93${String(n).padStart(5, '0')}7`;
    return [alnum, alpha, alpha.toUpperCase(), hex, digits];
  };
}

// Formats a mark can be dressed in; any other declared format (date, uuid, byte, ...) takes no mark.
const DRESSED: Record<string, (mark: string) => string> = {
  email: (m) => `${m}@example.com`,
  'idn-email': (m) => `${m}@example.com`,
  uri: (m) => `https://example.com/${m}`,
  url: (m) => `https://example.com/${m}`,
  iri: (m) => `https://example.com/${m}`,
  'uri-reference': (m) => `https://example.com/${m}`,
  hostname: (m) => `${m}.example.com`,
};
const PLAIN_FORMATS = new Set([
  '',
  'password',
  'string',
  'text',
  'html',
  'markdown',
  'phone',
  'tel',
  'name',
  'description',
]);

interface Field {
  path: string[];
  /** The string's schema (an array's items' for a list of strings). */
  schema: Json;
  /** A list of strings: the mark goes in as its one item. */
  list?: boolean;
}

const typesOf = (schema: Json): string[] =>
  Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];

/** A list of strings that one item satisfies: its items' schema, else undefined. */
function stringItems(doc: Json, schema: Json): Json {
  if (!typesOf(schema).includes('array') || (typeof schema.minItems === 'number' && schema.minItems > 1))
    return undefined;
  const items = resolve(doc, schema.items, '').value;
  return items && typeof items === 'object' && typesOf(items).includes('string') ? items : undefined;
}

/** The string-typed properties of an object schema (allOf/anyOf/oneOf members' too), nested objects two levels down. */
function stringFields(doc: Json, schema: Json, prefix: string[] = [], seen = new Set<Json>()): Field[] {
  const s = resolve(doc, schema, '').value;
  if (!s || typeof s !== 'object' || seen.has(s) || prefix.length > 2) return [];
  seen.add(s);
  const fields: Field[] = [];
  for (const [name, raw] of Object.entries<Json>(s.properties ?? {})) {
    const property = resolve(doc, raw, '').value;
    if (!property || typeof property !== 'object' || property.readOnly === true) continue;
    const types = typesOf(property);
    const items = stringItems(doc, property);
    if (types.includes('string')) fields.push({ path: [...prefix, name], schema: property });
    else if (items) fields.push({ path: [...prefix, name], schema: items, list: true });
    // An untyped property made of members (Asana's `data: {allOf: [TaskBase, ...]}`) is an object too.
    else if (
      (types.includes('object') ||
        (types.length === 0 && (property.properties || property.allOf || property.anyOf || property.oneOf))) &&
      prefix.length < 2
    )
      fields.push(...stringFields(doc, property, [...prefix, name], seen));
  }
  for (const member of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])])
    fields.push(...stringFields(doc, member, prefix, seen));
  return fields;
}

/**
 * The value a field takes for a mark, or undefined where its rules cannot hold one. Where the mark
 * alone breaks a pattern, it replaces the tail of the value already there (Twilio's
 * `^CL[0-9a-fA-F]{32}$` takes a hexadecimal mark after the sample's `CL...`).
 */
function dress(schema: Json, shapes: string[], current: unknown): { value: string; mark: string } | undefined {
  if (schema.enum !== undefined || schema.const !== undefined) return undefined;
  const format = String(schema.format ?? '').toLowerCase();
  const wrap =
    DRESSED[format] ?? (PLAIN_FORMATS.has(format) || !(format in KNOWN_FORMATS) ? (m: string) => m : undefined);
  if (!wrap) return undefined;
  let pattern: RegExp | undefined;
  try {
    pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern) : undefined;
  } catch {
    return undefined;
  }
  const spliced = (shape: string) =>
    typeof current === 'string' && current.length > shape.length && DRESSED[format] === undefined
      ? [current.slice(0, current.length - shape.length) + shape]
      : [];
  for (const shape of shapes) {
    for (let value of [wrap(shape), ...spliced(shape)]) {
      if (typeof schema.minLength === 'number' && value.length < schema.minLength)
        value = value.padEnd(schema.minLength, 'x');
      if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) continue;
      if (pattern && !pattern.test(value)) continue;
      return { value, mark: shape };
    }
  }
  return undefined;
}

// JSON Schema's and OpenAPI's formats that a plain mark would break.
const KNOWN_FORMATS = Object.fromEntries(
  [
    'date',
    'date-time',
    'time',
    'duration',
    'uuid',
    'ipv4',
    'ipv6',
    'byte',
    'binary',
    'int32',
    'int64',
    'float',
    'double',
    'decimal',
    'regex',
    'json-pointer',
    'relative-json-pointer',
    'uri-template',
    'iri-reference',
    'idn-hostname',
    ...Object.keys(DRESSED),
  ].map((f) => [f, true]),
);

function getAt(target: Record<string, unknown>, path: string[]): unknown {
  let node: unknown = target;
  for (const key of path)
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  return node;
}

function setAt(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (node[key] === null || typeof node[key] !== 'object' || Array.isArray(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
}

/**
 * A marked body for `op` (a create, or an update with `update`), or why there is none. An update
 * declared as `application/json-patch+json` replaces the fields the create marked (`patchFields`).
 */
export function markBody(
  loaded: LoadedDocument,
  requests: SchemaJudge,
  op: Operation,
  nextMarks: () => string[],
  update = false,
  patchFields: string[][] = [],
  key?: { param: string; id: string },
): MarkResult {
  const plan = planBody(loaded, requests, op, update);
  if (!plan) return { ok: false, reason: 'no request body declared' };
  const media = concreteMediaType(plan.mediaKey).toLowerCase();
  const family = /^application\/(.+\+)?json$/.test(media)
    ? 'json'
    : media === 'application/x-www-form-urlencoded' || media === 'multipart/form-data'
      ? 'form'
      : undefined;
  if (!family) return { ok: false, reason: `the body is ${media}, which the harness does not write` };
  if (media === 'application/json-patch+json') {
    if (patchFields.length === 0) return { ok: false, reason: 'a JSON Patch update with no marked field to replace' };
    const marks = patchFields.map(() => nextMarks()[0]);
    const value = patchFields.map((path, i) => ({
      op: 'replace',
      path: `/${path.map((k) => k.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`,
      value: marks[i],
    }));
    return {
      ok: true,
      body: { body: JSON.stringify(value), contentType: plan.mediaKey, marks, value, fields: patchFields },
    };
  }
  if (!plan.valid) return { ok: false, reason: `no example or sample of the ${plan.mediaKey} body validates` };
  const schema = resolve(loaded.doc, atPointer(loaded.doc, plan.schemaPointer), '').value;
  // A body that is one list of strings (GitHub's status check contexts, team slugs).
  const items = schema && typeof schema === 'object' ? stringItems(loaded.doc, schema) : undefined;
  if (items && Array.isArray(plan.value)) {
    const fit = dress(items, nextMarks(), plan.value[0]);
    const value = fit ? [fit.value] : undefined;
    if (!fit || !requests.validate(plan.schemaPointer, value).ok)
      return { ok: false, reason: 'no string field takes a mark' };
    const encoded = encodeBody(concreteMediaType(plan.mediaKey), value, plan.encoding);
    return { ok: true, body: { ...encoded, marks: [fit.mark], value: value!, fields: [] } };
  }
  if (plan.value === null || typeof plan.value !== 'object' || Array.isArray(plan.value))
    return { ok: false, reason: 'the body is not an object' };
  const base = { ...(plan.value as Record<string, unknown>) };
  // An update keeps the item's key as it is (the key named by the item path's parameter): a person
  // updating an item does not rename it on the way, and a mock may rightly refuse a body whose key
  // differs from the path's.
  const norm = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
  const keyField = key ? Object.keys(base).find((name) => norm(name) === norm(key.param)) : undefined;
  if (keyField !== undefined && key) {
    const kept = { ...base, [keyField]: key.id };
    if (requests.validate(plan.schemaPointer, kept).ok) base[keyField] = key.id;
  }
  const fields = stringFields(loaded.doc, schema)
    .filter((f) => key === undefined || f.path.length !== 1 || norm(f.path[0]) !== norm(key.param))
    .filter((f, i, all) => all.findIndex((g) => g.path.join('\u0000') === f.path.join('\u0000')) === i);
  const dressed = fields.flatMap((field) => {
    const shapes = nextMarks();
    const current = getAt(base, field.path);
    const fit = dress(field.schema, shapes, Array.isArray(current) ? current[0] : current);
    return fit ? [{ ...field, ...fit }] : [];
  });
  const build = (chosen: typeof dressed) => {
    const value = structuredClone(base);
    for (const field of chosen) setAt(value, field.path, field.list ? [field.value] : field.value);
    return value;
  };
  const valid = (chosen: typeof dressed) => requests.validate(plan.schemaPointer, build(chosen)).ok;
  let chosen = dressed;
  if (!valid(chosen)) {
    // Greedy, one field at a time: a mark that breaks the body (a oneOf, a rule the harness does not read) is left out.
    chosen = [];
    for (const field of dressed) if (valid([...chosen, field])) chosen.push(field);
  }
  if (chosen.length === 0)
    return { ok: false, reason: fields.length === 0 ? 'no string field to mark' : 'no string field takes a mark' };
  const value = build(chosen);
  const encoded = encodeBody(concreteMediaType(plan.mediaKey), value, plan.encoding);
  return { ok: true, body: { ...encoded, marks: chosen.map((f) => f.mark), value, fields: chosen.map((f) => f.path) } };
}
