// How a list is wrapped and paged, read from the document once: where the items sit in a wrapped
// answer (`{data: [...], has_more}`, `{items: [...], total, next}`, `{services: [...], meta: {...}}`)
// and which query parameters page it (limit/offset, page/per_page, a cursor). The names are the
// ones public APIs use; a field is recognized without case and separators (`has_more`, `hasMore`).
import type { ParameterSpec } from './operations.ts';
import { objectShape, resolveSchema } from './schema-shape.ts';

/** Where a wrapped list's items and page fields sit; a field may sit one object down (`meta.next_page_url`). */
export interface ListEnvelope {
  items: string;
  total?: string;
  hasMore?: string;
  next?: string;
  previous?: string;
  offset?: string;
  limit?: string;
  page?: string;
  /** What `next`/`previous` hold: a link, a cursor (the last item's key), or a number (page or offset). */
  nextKind?: 'url' | 'cursor' | 'number';
  /** The list's own address (`href`, `url`, `self`), a string; `selfKind` says whether a full URL or a path. */
  self?: string;
  selfKind?: 'url' | 'path';
}

/** The query parameters that page a list, and the page size when the client names none. */
export interface Paging {
  limit?: string;
  offset?: string;
  page?: string;
  /** Items after this key (Stripe's starting_after, an opaque `cursor` the mock made). */
  after?: string;
  /** Items before this key (Stripe's ending_before). */
  before?: string;
  defaultLimit?: number;
  /** The number of the first page (1 unless the parameter allows 0 and defaults to it). */
  firstPage: number;
}

const ITEM_NAMES = [
  'items',
  'data',
  'results',
  'value',
  'values',
  'records',
  'entries',
  'elements',
  'content',
  'list',
  'rows',
  'objects',
  'resources',
];
const SELF_NAMES = ['href', 'url', 'self', 'uri'];
const FIELD_NAMES: Record<Exclude<keyof ListEnvelope, 'items' | 'nextKind' | 'self' | 'selfKind'>, string[]> = {
  total: [
    'total',
    'totalcount',
    'totalresults',
    'totalitems',
    'totalsize',
    'totalrecords',
    'totalelements',
    'totalentries',
    'count',
  ],
  hasMore: ['hasmore', 'hasnext', 'hasnextpage', 'more', 'moreresults', 'truncated'],
  next: [
    'next',
    'nextpage',
    'nextpageurl',
    'nextpageuri',
    'nexturl',
    'nexturi',
    'nexthref',
    'nextlink',
    'odatanextlink',
    'nextcursor',
    'nextpagetoken',
    'nexttoken',
    'nextmarker',
    'cursor',
  ],
  previous: [
    'previous',
    'prev',
    'previouspage',
    'previouspageurl',
    'previouspageuri',
    'prevpageurl',
    'prevpageuri',
    'previousurl',
    'previousuri',
    'prevcursor',
    'previouslink',
  ],
  offset: ['offset', 'skip', 'start', 'startindex'],
  limit: ['limit', 'perpage', 'pagesize', 'maxresults'],
  page: ['page', 'pagenumber', 'currentpage', 'pageindex'],
};
const NESTED = ['meta', 'pagination', 'paging', 'pageinfo', 'page', 'links', 'metadata'];
const PARAM_NAMES: Record<'limit' | 'offset' | 'page' | 'after' | 'before', string[]> = {
  limit: ['limit', 'perpage', 'pagesize', 'maxresults', 'top', 'size', 'count', 'max'],
  offset: ['offset', 'skip', 'start', 'startindex'],
  page: ['page', 'pagenumber', 'pageindex', 'pageno'],
  after: [
    'startingafter',
    'after',
    'cursor',
    'pagetoken',
    'nexttoken',
    'continuationtoken',
    'continuation',
    'marker',
    'startafter',
    'nextcursor',
  ],
  before: ['endingbefore', 'before'],
};

const normal = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

type Obj = Record<string, unknown>;

const envelopes = new WeakMap<object, Map<string, ListEnvelope | undefined>>();

/**
 * The envelope of a list answer, or undefined when the answer is not a wrapped list (a bare array, an item); once per
 * schema and name.
 */
export function findListEnvelope(schema: unknown, document: unknown, segment: string): ListEnvelope | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  let bySegment = envelopes.get(schema);
  if (!bySegment) envelopes.set(schema, (bySegment = new Map()));
  if (bySegment.has(segment)) return bySegment.get(segment);
  const envelope = computeEnvelope(schema, document, segment);
  bySegment.set(segment, envelope);
  return envelope;
}

function computeEnvelope(schema: unknown, document: unknown, segment: string): ListEnvelope | undefined {
  const s = resolveSchema(schema, document);
  if (!s || s.type === 'array') return undefined;
  const properties = objectShape(s, document).properties;
  if (properties.size === 0) return undefined;
  const arrays = [...properties].filter(([, p]) => isArray(resolveSchema(p, document)));
  if (arrays.length === 0) return undefined;
  const named = new Map(arrays.map(([name]) => [normal(name), name]));
  // The collection's own name, or its last word (GitHub's `/copilot-spaces` lists its `spaces`); an array named so, or
  // whose last word is so (Shutterstock's `/renders` list their `audio_renders`).
  const own = [normal(segment), normal(lastWord(segment))];
  const byLastWord = new Map(arrays.map(([name]) => [normal(lastWord(name)), name]));
  let items =
    [...ITEM_NAMES, ...own].map((name) => named.get(name)).find((name) => name !== undefined) ??
    own.map((name) => byLastWord.get(name)).find((name) => name !== undefined);
  const fields = pageFields(properties, document);
  // An unnamed array is a list only beside a page field and holding objects: a Plant's `tags` is not one.
  if (
    items === undefined &&
    arrays.length === 1 &&
    Object.keys(fields).length > 0 &&
    holdsObjects(arrays[0][1], document)
  )
    items = arrays[0][0];
  if (items === undefined) return undefined;
  const envelope: ListEnvelope = { items, ...fields };
  if (envelope.next !== undefined) envelope.nextKind = kindOf(envelope.next, properties, document);
  const self = [...properties].find(
    ([name, p]) => SELF_NAMES.includes(normal(name)) && resolveSchema(p, document)?.type === 'string',
  );
  if (self) {
    const format = resolveSchema(self[1], document)?.format;
    envelope.self = self[0];
    envelope.selfKind = format === 'uri' || format === 'url' ? 'url' : 'path';
  }
  return envelope;
}

/** A name's last word: `copilot-spaces` → `spaces`, `audio_renders` → `renders`. */
export const lastWord = (name: string): string => name.split(/[-_.]/).at(-1) ?? name;

function pageFields(properties: Map<string, unknown>, document: unknown): Partial<ListEnvelope> {
  const out: Partial<ListEnvelope> = {};
  const at = (names: Map<string, string>, prefix: string) => {
    for (const [field, candidates] of Object.entries(FIELD_NAMES) as Array<[keyof typeof FIELD_NAMES, string[]]>) {
      if (out[field] !== undefined) continue;
      const found = candidates.map((c) => names.get(c)).find((n) => n !== undefined);
      if (found !== undefined) out[field] = prefix + found;
    }
  };
  const top = new Map([...properties.keys()].map((name) => [normal(name), name]));
  // `page` at the top may be the nested page object (Twilio's meta is named meta, others' page).
  const scalars = new Map([...top].filter(([, name]) => !isObject(resolveSchema(properties.get(name), document))));
  at(scalars, '');
  for (const [norm, name] of top) {
    if (!NESTED.includes(norm)) continue;
    const nested = resolveSchema(properties.get(name), document);
    if (!isObject(nested)) continue;
    const inner = objectShape(nested, document).properties;
    at(new Map([...inner.keys()].map((n) => [normal(n), n])), `${name}.`);
  }
  return out;
}

function kindOf(path: string, properties: Map<string, unknown>, document: unknown): ListEnvelope['nextKind'] {
  const [first, second] = path.split('.');
  let schema = resolveSchema(properties.get(first), document);
  if (second !== undefined) schema = resolveSchema(objectShape(schema, document).properties.get(second), document);
  const types = Array.isArray(schema?.type) ? schema.type : [schema?.type];
  if (types.includes('integer') || types.includes('number')) return 'number';
  if (
    schema?.format === 'uri' ||
    schema?.format === 'url' ||
    /ur[il]|link|href/i.test(path) ||
    normal(path.split('.').pop() ?? '') === 'next'
  )
    return 'url';
  return 'cursor';
}

/** The paging parameters of a list operation (undefined when it has none). */
export function findPaging(parameters: ParameterSpec[], document: unknown): Paging | undefined {
  const query = new Map(parameters.filter((p) => p.in === 'query').map((p) => [normal(p.name), p]));
  const pick = (names: string[]) => names.map((n) => query.get(n)).find((p) => p !== undefined);
  const limit = pick(PARAM_NAMES.limit);
  const offset = pick(PARAM_NAMES.offset);
  const page = pick(PARAM_NAMES.page);
  const after = pick(PARAM_NAMES.after);
  const before = pick(PARAM_NAMES.before);
  if (!limit && !offset && !page && !after && !before) return undefined;
  const limitDefault = resolveSchema(limit?.schema, document)?.default;
  const pageSchema = resolveSchema(page?.schema, document);
  const firstPage = pageSchema?.default === 0 || pageSchema?.minimum === 0 ? 0 : 1;
  return {
    ...(limit && { limit: limit.name }),
    ...(offset && { offset: offset.name }),
    ...(page && { page: page.name }),
    ...(after && { after: after.name }),
    ...(before && { before: before.name }),
    ...(typeof limitDefault === 'number' &&
      Number.isInteger(limitDefault) &&
      limitDefault > 0 && { defaultLimit: limitDefault }),
    firstPage,
  };
}

function isArray(schema: Obj | undefined): boolean {
  if (!schema) return false;
  return (
    schema.type === 'array' ||
    (Array.isArray(schema.type) && schema.type.includes('array')) ||
    (schema.type === undefined && schema.items !== undefined)
  );
}

function isObject(schema: Obj | undefined): schema is Obj {
  if (!schema) return false;
  return schema.type === 'object' || (schema.type === undefined && schema.properties !== undefined);
}

function holdsObjects(schema: unknown, document: unknown): boolean {
  const items = resolveSchema(resolveSchema(schema, document)?.items, document);
  return items !== undefined && (items.type === 'object' || objectShape(items, document).properties.size > 0);
}
