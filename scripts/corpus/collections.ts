// The state stage's reading of a document: the collections a person reading it would see. A
// collection is a path with a POST (the create) and a GET of its items (`<path>/{param}`) or of
// the list on the same path. A `.json` suffix is not part of the name (Twilio writes
// `/Accounts/{AccountSid}/Calls.json` and `/Accounts/{AccountSid}/Calls/{Sid}.json`). A path whose
// last segment is a lone `{param}` names one item (Stripe's `POST /v1/customers/{customer}` updates
// a customer), not a collection, unless items hang below it.
// Worked out from the document alone, by the harness's own rules: plantstore's inference
// (src/document/resources.ts) is what this measures, so it must not share its mistakes.
import { resolve, type Json, type LoadedDocument, type Operation } from './document.ts';
import { isJsonMedia } from './judge.ts';

export interface Collection {
  /** The create's path as the document writes it, e.g. `/users/{user_id}/playlists`. */
  path: string;
  create: Operation;
  /** GET on the same path. */
  list?: Operation;
  item?: {
    path: string;
    /** The item path's own parameter: the created item's id goes there. */
    param: string;
    get?: Operation;
    /** The first declared of PATCH, PUT and POST on the item path. */
    update?: Operation;
    delete?: Operation;
  };
  /** What the document says about it, for the breakdown of misses by cause. */
  kind: CollectionKind;
}

export interface CollectionKind {
  /** The collection's path holds a `{param}` (kept per parent). */
  nested: boolean;
  /** The create's body: its media type family, or `none`. */
  body: 'json' | 'form' | 'multipart' | 'other' | 'none';
  /** The list's declared 2xx schema: a bare array, an object wrapping one, or neither/undeclared. */
  list: 'bare' | 'wrapped' | 'other' | 'none';
  /** The item path ends in `.json`. */
  jsonSuffix: boolean;
}

const SUFFIX = /\.json$/;
const bare = (path: string) => path.replace(SUFFIX, '').replace(/\/+$/, '');
/** `/pets/{id}` → `{ parent: '/pets', param: 'id' }`; undefined unless the last segment is one whole parameter. */
function splitItem(path: string): { parent: string; param: string } | undefined {
  const match = /^(.*)\/\{([^{}/]+)\}$/.exec(bare(path));
  return match ? { parent: match[1], param: match[2] } : undefined;
}

export function findCollections(loaded: LoadedDocument): Collection[] {
  const byPath = new Map<string, Map<string, Operation>>();
  for (const op of loaded.operations) {
    const methods = byPath.get(op.path) ?? new Map<string, Operation>();
    methods.set(op.method, op);
    byPath.set(op.path, methods);
  }
  // Item paths by their parent's bare path: `/pets` → `/pets/{id}`, `/pets/{name}.json`, ...
  const items = new Map<string, { path: string; param: string }[]>();
  for (const path of byPath.keys()) {
    const split = splitItem(path);
    if (split) items.set(split.parent, [...(items.get(split.parent) ?? []), { path, param: split.param }]);
  }
  const out: Collection[] = [];
  for (const [path, methods] of byPath) {
    const create = methods.get('post');
    // AWS's query and JSON protocols write actions as `/#Action=AddRoleToDBCluster`: calls, not collections.
    if (!create || path.includes('#')) continue;
    const candidates = (items.get(bare(path)) ?? []).filter((i) => i.path !== path);
    // A POST on one item (`/pets/{id}`, `/repos/{owner}/{repo}`): an update, an action or a create
    // keyed by the caller, not a collection, unless items hang below it.
    if (splitItem(path) && candidates.length === 0) continue;
    const item = candidates.find((i) => byPath.get(i.path)!.has('get')) ?? candidates[0];
    const list = methods.get('get');
    const itemMethods = item ? byPath.get(item.path)! : undefined;
    if (!list && !itemMethods?.has('get')) continue;
    out.push({
      path,
      create,
      list,
      item:
        item && itemMethods
          ? {
              path: item.path,
              param: item.param,
              get: itemMethods.get('get'),
              update: itemMethods.get('patch') ?? itemMethods.get('put') ?? itemMethods.get('post'),
              delete: itemMethods.get('delete'),
            }
          : undefined,
      kind: {
        nested: path.includes('{'),
        body: bodyKind(loaded.doc, create),
        list: list ? listKind(loaded.doc, list) : 'none',
        jsonSuffix: item !== undefined && SUFFIX.test(item.path),
      },
    });
  }
  return out;
}

function bodyKind(doc: Json, op: Operation): CollectionKind['body'] {
  const body = resolve(doc, op.operation.requestBody, '').value;
  const types = Object.keys(body?.content ?? {}).map((k) => k.split(';')[0].trim().toLowerCase());
  if (types.length === 0) return 'none';
  if (types.some((t) => isJsonMedia(t) && t !== '*/*')) return 'json';
  if (types.includes('application/x-www-form-urlencoded')) return 'form';
  if (types.includes('multipart/form-data')) return 'multipart';
  return 'other';
}

/** The list's first 2xx JSON schema: an array, an object with an array property (through allOf), or else. */
function listKind(doc: Json, op: Operation): CollectionKind['list'] {
  const responses = op.operation.responses ?? {};
  const key = Object.keys(responses).find((k) => /^2/.test(k)) ?? Object.keys(responses).find((k) => k === 'default');
  if (key === undefined) return 'none';
  const content = resolve(doc, responses[key], '').value?.content ?? {};
  const mediaKey = Object.keys(content).find((k) => isJsonMedia(k.split(';')[0].trim().toLowerCase()));
  if (mediaKey === undefined) return 'none';
  const schema = resolve(doc, resolve(doc, content[mediaKey], '').value?.schema, '').value;
  if (isArraySchema(doc, schema)) return 'bare';
  return propertiesOf(doc, schema).some((p) => isArraySchema(doc, p)) ? 'wrapped' : 'other';
}

const isArraySchema = (doc: Json, schema: Json) => {
  const s = resolve(doc, schema, '').value;
  return Boolean(
    s && (s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array')) || (s.items && !s.properties)),
  );
};

/** An object schema's property schemas, allOf/anyOf/oneOf members' included. */
export function propertiesOf(doc: Json, schema: Json, depth = 0): Json[] {
  const s = resolve(doc, schema, '').value;
  if (!s || typeof s !== 'object' || depth > 8) return [];
  return [
    ...Object.values<Json>(s.properties ?? {}),
    ...[...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])].flatMap((member: Json) =>
      propertiesOf(doc, member, depth + 1),
    ),
  ];
}
