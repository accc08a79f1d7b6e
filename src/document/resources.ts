// The resource map: which collections a document has and what each operation does to them,
// inferred once at load from REST conventions in the paths, so a grown document needs no
// configuration. POST /plants creates in /plants, GET /plants lists it, GET|PUT|PATCH|DELETE
// /plants/{id} read, replace, merge or remove one item (POST on an item path merges, as Stripe's
// and Twilio's updates do). Collections may be nested (/users/{user_id}/playlists: kept per
// parent) and paths may end in an extension (/Calls/{Sid}.json). The map is plain data, printed by
// `plantstore spec --resources`; the mock reads it and never rediscovers it per request.
import { jsonContent, type MediaContent, type Operation, type ParameterSpec } from './operations.ts';
import { getAtPointer } from './json-pointer.ts';
import { singular } from './english.ts';
import { objectShape, resolveSchema } from './schema-shape.ts';
import { findListEnvelope, findPaging, lastWord, type ListEnvelope, type Paging } from './list-shapes.ts';

export type { ListEnvelope, Paging } from './list-shapes.ts';

export type ResourceRole = 'create' | 'list' | 'read' | 'replace' | 'merge' | 'remove';

/** One collection as a person reading the document sees it. Plain data. */
export interface Resource {
  /** The collection's path, parents as parameters, without an extension: `/users/{user_id}/playlists`. */
  collection: string;
  /** The item path, when there is one: `/users/{user_id}/playlists/{playlist_id}`. */
  itemPath?: string;
  /** The parameters that name the parent, in path order (none for a top-level collection). */
  parents: string[];
  /** The body field that carries the key (none: the mock numbers items and the key lives in the path only). */
  keyField?: string;
  /**
   * Why that key, in words (`named by {username}`, `x-plantstore-id`, `a conventional key name`, `numbered by the
   * mock`).
   */
  keySource: string;
  keyType: 'integer' | 'string';
  /** Singular noun for messages ("plant" for /plants). */
  noun: string;
  /** Whether the mock keeps what is created here, and if not, why. */
  kept: boolean;
  /** One item per parent, read and changed on the collection's own path (GitHub's Pages site of a repository). */
  singleton?: boolean;
  why: string;
  /** Operation ids by role. */
  operations: Partial<Record<ResourceRole, string[]>>;
  /**
   * The create's answer declares a Location header, or has no body to carry the key: the mock fills it with the item's
   * path.
   */
  location: boolean;
  /** Where the list's items sit in its answer, and the page fields beside them (undefined: a bare array). */
  listEnvelope?: ListEnvelope;
  /** The list's paging parameters. */
  paging?: Paging;
  /**
   * The field one item sits in where its answers wrap it (`{data: {...}}`, `{message, budget: {...}}`); the same
   * wrapper around a create's or an update's body is taken off before storing.
   */
  itemEnvelope?: string;
  /** The request media types of its creates and updates. */
  encodings: string[];
  /**
   * Request field -> stored (answer) field, where the document spells one name two ways (`FriendlyName` ->
   * `friendly_name`).
   */
  fieldMap: Record<string, string>;
  /**
   * Per parent, in order: the answer field that names it (`{ServiceSid}` -> `service_sid`), filled from the path at
   * the create; '' for none.
   */
  parentFields: string[];
}

export interface ResourceBinding {
  role: ResourceRole;
  /** The collection's path (the resource's `collection`); `collectionOf` makes the stored collection of a request. */
  collection: string;
  /** The body field that carries the key (undefined: the mock numbers records itself). */
  keyField?: string;
  /** The key's type in the schema, so "42" from a path matches the integer 42 from a body. */
  keyType: 'integer' | 'string';
  /** For item operations: the path parameter that names the item. */
  keyParam?: string;
  /** Singular noun for messages ("plant" for /plants). */
  noun: string;
  /** This operation's path parameters that name the parent, in the order of the collection's parameters. */
  parentParams: string[];
  /** The literal parts of the collection around its parents (`['/users/', '/playlists']`). */
  collectionParts: string[];
  /**
   * An item path outside its collection (Spotify's /playlists/{id} beside /users/{user_id}/playlists): the item is
   * found under any parent.
   */
  anyParent: boolean;
  /** The collection holds one item per parent, on its own path (no key in the path). */
  singleton?: boolean;
  /** The field this operation's request body wraps the item in (taken off before storing). */
  requestEnvelope?: string;
  /** The field this operation's answer wraps the item in (the record is answered inside it). */
  answerEnvelope?: string;
  resource: Resource;
}

/** The stored collection a request's parameters name: the collection path with its parents filled in. */
export function collectionOf(binding: ResourceBinding, params: Record<string, string>): string {
  const { parentParams, collectionParts } = binding;
  if (parentParams.length === 0) return binding.collection;
  let out = collectionParts[0];
  for (let i = 0; i < parentParams.length; i++) out += (params[parentParams[i]] ?? '') + collectionParts[i + 1];
  return out;
}

/** Whether a stored collection's name belongs to a binding's collection (any parent). */
export function collectionMatcher(binding: ResourceBinding): (stored: string) => boolean {
  if (binding.parentParams.length === 0 && !binding.collection.includes('{'))
    return (stored) => stored === binding.collection;
  const source = binding.collectionParts.map(escapeRegExp).join('[^/]*');
  const pattern = new RegExp(`^${source}$`);
  return (stored) => pattern.test(stored);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/Calls/{Sid}.json`: the item's parameter may be followed by an extension. */
const ITEM_PATH = /^(.*)\/\{([^}]+)\}(\.[A-Za-z0-9]+)?$/;
const EXTENSION = /\.(?:json|xml|csv|yaml)$/i;
const PARAM = /\{([^}]+)\}/g;

/** Where an operation's path sits among collections. */
interface PathPlace {
  /** The collection with parameters made anonymous, for grouping: `/users/{}/playlists`. */
  group: string;
  /** The collection path in this operation's own parameter names, without extension. */
  collection: string;
  keyParam?: string;
}

function placeOf(path: string): PathPlace | undefined {
  const item = ITEM_PATH.exec(path);
  const collection = item ? item[1] : path.replace(EXTENSION, '');
  if (collection === '' || collection.endsWith('}')) {
    // A collection named by a parameter alone (/{bucket}) is not one a person would see.
    if (!item || collection === '' || collection.endsWith('}')) return undefined;
  }
  return { group: collection.replace(PARAM, '{}'), collection, keyParam: item?.[2] };
}

const ITEM_ROLES: Record<string, ResourceRole> = { GET: 'read', PUT: 'replace', PATCH: 'merge', DELETE: 'remove' };

/** What one operation could be, before its collection is known whole. */
interface Candidate {
  operation: Operation;
  role: ResourceRole;
  place: PathPlace;
  /** A read, replace, merge or remove on the collection's own path: the one item of a singleton, if it is one. */
  single?: boolean;
}

function candidateOf(operation: Operation, document: unknown): Candidate | undefined {
  const place = placeOf(operation.path);
  if (!place) return undefined;
  const body = requestContent(operation);
  const responseSchema = successSchema(operation);
  if (place.keyParam === undefined) {
    // A create takes an object and answers one (or nothing): a POST of a list (petstore's
    // /user/createWithList) or one that answers a list (a search) stores nothing.
    if (
      operation.method === 'POST' &&
      body?.schema !== undefined &&
      describesObject(body.schema, document) &&
      (responseSchema === undefined || describesObject(responseSchema, document)) &&
      !answersPage(responseSchema, document, lastSegment(place.collection))
    )
      return { operation, role: 'create', place };
    if (
      operation.method === 'GET' &&
      (resolveSchema(responseSchema, document)?.type === 'array' ||
        findListEnvelope(responseSchema, document, lastSegment(place.collection)))
    )
      return { operation, role: 'list', place };
    // On a collection's own path, an object read or a change may be of its one item (a singleton).
    if (operation.method === 'GET' && responseSchema !== undefined && describesObject(responseSchema, document))
      return { operation, role: 'read', place, single: true };
    if (operation.method !== 'GET' && operation.method !== 'POST' && ITEM_ROLES[operation.method])
      return { operation, role: ITEM_ROLES[operation.method], place, single: true };
    return undefined;
  }
  if (operation.method === 'POST')
    return body?.schema !== undefined && describesObject(body.schema, document)
      ? { operation, role: 'merge', place }
      : undefined;
  const role = ITEM_ROLES[operation.method];
  return role ? { operation, role, place } : undefined;
}

/** How many fields of its own a list's page carries at most beside the list, when it names no page field. */
const PAGE_FIELDS_AT_MOST = 4;

/**
 * A POST's answer is a page of a list (a search), not the created item: a list envelope with a page field, or with few
 * fields besides its list, and no key of its own. An item with a list among many fields of its own (an appointment with
 * its `resources`) is an item.
 */
function answersPage(schema: unknown, document: unknown, segment: string): boolean {
  const envelope = findListEnvelope(schema, document, segment);
  if (envelope === undefined) return false;
  // The collection's own list in the answer: a page of it, or the parent that holds it (GitHub's add-assignees
  // answers the issue with its `assignees`).
  const named = normal(envelope.items);
  if (named === normal(segment) || named === normal(lastWord(segment))) return true;
  const { properties } = objectShape(schema, document);
  // A page has no key of its own; an item does (a git tree's `sha`, beside its `tree` and `truncated`).
  if ([...properties.keys()].some((name) => OWN_KEYS.has(normal(name)))) return false;
  if (PAGE_KEYS.some((key) => envelope[key] !== undefined)) return true;
  return properties.size <= PAGE_FIELDS_AT_MOST;
}

const OWN_KEYS = new Set(['id', 'sha', 'uuid', 'sid', 'key']);

const PAGE_KEYS = ['total', 'hasMore', 'next', 'previous', 'offset', 'limit', 'page'] as const;

/**
 * The resource map of a document: every collection a person would see, and the binding of each
 * operation that fits a convention. Worked out once, at load.
 */
export function buildResourceMap(
  operations: Operation[],
  document: unknown,
): { resources: Resource[]; bindings: Map<Operation, ResourceBinding> } {
  const groups = new Map<string, Candidate[]>();
  const singles = new Map<string, Candidate[]>();
  for (const operation of operations) {
    const candidate = candidateOf(operation, document);
    if (!candidate) continue;
    if (candidate.single) {
      singles.set(candidate.place.group, [...(singles.get(candidate.place.group) ?? []), candidate]);
      continue;
    }
    let group = groups.get(candidate.place.group);
    if (!group) groups.set(candidate.place.group, (group = []));
    group.push(candidate);
  }
  // An item path whose own collection has no create, named like exactly one nested collection
  // that has one (/playlists/{id} beside /users/{user_id}/playlists), reads that collection's items.
  const createGroups = [...groups].filter(([, members]) => members.some((m) => m.role === 'create'));
  for (const [name, members] of [...groups]) {
    if (members.some((m) => m.role === 'create' || m.role === 'list') || name.includes('{}')) continue;
    const last = lastSegment(name).toLowerCase();
    const hosts = createGroups.filter(
      ([other]) => other !== name && other.includes('{}') && lastSegment(other).toLowerCase() === last,
    );
    if (hosts.length !== 1) continue;
    hosts[0][1].push(...members.map((m) => ({ ...m, alias: true })));
    groups.delete(name);
  }

  // A singleton: a path with a create, no list and no item path below, whose read answers what the
  // create answers (GitHub's `POST|GET /repos/{owner}/{repo}/pages`, Stripe's charge dispute). Its
  // one item is kept per parent and read, replaced, merged or removed on the same path.
  for (const [name, members] of groups) {
    const reads = (singles.get(name) ?? []).filter((m) => m.role === 'read');
    if (reads.length === 0 || members.some((m) => m.role !== 'create')) continue;
    if (!members.every((m) => reads.every((r) => sameItem(m.operation, r.operation, document)))) continue;
    members.push(...singles.get(name)!);
  }

  const resources: Resource[] = [];
  const bindings = new Map<Operation, ResourceBinding>();
  for (const members of groups.values()) {
    const { resource, envelopes } = describeResource(members, document);
    resources.push(resource);
    const collectionParts = resource.collection.split(PARAM).filter((_, i) => i % 2 === 0);
    for (const member of members) {
      const alias = (member as { alias?: boolean }).alias === true;
      const parentParams = alias ? [] : [...member.place.collection.matchAll(PARAM)].map((m) => m[1]);
      bindings.set(member.operation, {
        role: member.role,
        collection: resource.collection,
        keyField: resource.keyField,
        keyType: resource.keyType,
        keyParam: member.place.keyParam,
        noun: resource.noun,
        parentParams,
        collectionParts,
        anyParent: alias,
        ...(resource.singleton && { singleton: true }),
        ...envelopes.get(member),
        resource,
      });
    }
  }
  return { resources, bindings };
}

/** The binding of one operation seen alone (its key from its own schemas), or undefined when it fits no convention. */
export function bindResource(operation: Operation, document: unknown): ResourceBinding | undefined {
  return buildResourceMap([operation], document).bindings.get(operation);
}

/**
 * Binds every operation that fits a convention (the map's bindings).
 * @example const bindings = bindResources(listOperations(spec), spec.document);
 */
export function bindResources(operations: Operation[], document: unknown): Map<Operation, ResourceBinding> {
  return buildResourceMap(operations, document).bindings;
}

type Envelopes = Pick<ResourceBinding, 'requestEnvelope' | 'answerEnvelope'>;

function describeResource(
  members: Candidate[],
  document: unknown,
): { resource: Resource; envelopes: Map<Candidate, Envelopes> } {
  const byRole = (role: ResourceRole) => members.filter((m) => m.role === role);
  const creates = byRole('create');
  const lists = byRole('list');
  const items = members.filter((m) => m.place.keyParam !== undefined && !(m as { alias?: boolean }).alias);
  const aliased = members.filter((m) => (m as { alias?: boolean }).alias);
  const home = creates[0] ?? lists[0] ?? items[0] ?? members[0];
  const collection = home.place.keyParam === undefined ? home.place.collection : home.place.collection;
  const noun = singular(lastSegment(collection) || 'resource');
  const itemMember = items[0] ?? aliased[0];
  const itemPath = itemMember?.operation.path;
  const keyParam = itemMember?.place.keyParam;

  // Items wrapped one to a body (`{data: {...}}`): the item is the wrapped field, on the way in and out.
  const named = new Set([normal(noun), normal(lastSegment(collection))]);
  const generic = new Set(['data', 'item', 'result', 'resource']);
  const envelopes = new Map<Candidate, Envelopes>();
  for (const m of members) {
    const writes = m.role === 'create' || m.role === 'replace' || m.role === 'merge';
    const requestEnvelope = writes
      ? itemEnvelope(requestContent(m.operation)?.schema, document, named, generic)
      : undefined;
    const answerEnvelope =
      m.role === 'list' ? undefined : itemEnvelope(successSchema(m.operation), document, named, generic);
    envelopes.set(m, {
      ...(requestEnvelope !== undefined && { requestEnvelope }),
      ...(answerEnvelope !== undefined && { answerEnvelope }),
    });
  }
  const inside = (schema: unknown, field: string | undefined) =>
    field === undefined ? schema : objectShape(schema, document).properties.get(field);
  const itemEnvelopeName = [...envelopes.values()].find((e) => e.answerEnvelope !== undefined)?.answerEnvelope;

  // The fields the collection's items carry: what its creates take, what its answers give.
  const requestShapes = members
    .filter((m) => m.role === 'create' || m.role === 'replace' || m.role === 'merge')
    .map((m) => objectShape(inside(requestContent(m.operation)?.schema, envelopes.get(m)?.requestEnvelope), document));
  const answerShapes = members.map((m) =>
    objectShape(inside(itemSchemaOf(m, document), envelopes.get(m)?.answerEnvelope), document),
  );
  const answerFields = new Map<string, unknown>();
  for (const shape of answerShapes)
    for (const [name, schema] of shape.properties) if (!answerFields.has(name)) answerFields.set(name, schema);
  const allFields = new Map(answerFields);
  for (const shape of requestShapes)
    for (const [name, schema] of shape.properties) if (!allFields.has(name)) allFields.set(name, schema);
  const idField = [...requestShapes, ...answerShapes].find((s) => s.idField)?.idField;

  // A key the client knows: one the answers show, else one every create's request must send. Named
  // by the item path's parameter first, then by a conventional key name; a `name` only last. Stripe's
  // `POST /v1/files` requires a `file` (the upload) and answers an `id`: the `id` keys the files.
  const readable = itemPath !== undefined;
  const createShapes = creates.map((c) =>
    objectShape(inside(requestContent(c.operation)?.schema, envelopes.get(c)?.requestEnvelope), document),
  );
  const sent = new Map<string, unknown>();
  for (const [name, schema] of allFields)
    if (
      createShapes.length > 0 &&
      createShapes.every((shape) => shape.required.has(name)) &&
      resolveSchema(schema, document)?.format !== 'binary'
    )
      sent.set(name, schema);
  const keyParamSchema = resolveSchema(
    itemMember?.operation.parameters.find((p) => p.in === 'path' && p.name === keyParam)?.schema,
    document,
  );
  const typesOf = (schema: Record<string, unknown> | undefined) =>
    [schema?.type].flat().filter((t): t is string => typeof t === 'string');
  // An integer parameter cannot carry a field that is only ever a string.
  const fitsParam = (schema: unknown) => {
    const field = typesOf(resolveSchema(schema, document));
    const param = typesOf(keyParamSchema);
    return !(param.includes('integer') && field.length > 0 && field.every((t) => t === 'string'));
  };
  // A key is a value a path can carry: an object or a list (Google's `photoId: {id}`) is none.
  const scalars = (fields: Map<string, unknown>) =>
    new Map([...fields].filter(([, schema]) => !holdsParts(resolveSchema(schema, document))));
  const [answerKeys, sentKeys] = [scalars(answerFields), scalars(sent)];
  const ladder: [Map<string, unknown>, KeyStep][] = [
    [answerKeys, 'param'],
    [answerKeys, 'conventional'],
    [sentKeys, 'param'],
    [sentKeys, 'conventional'],
    [answerKeys, 'name'],
  ];
  const key: { field?: string; source: string } = members.some((m) => m.single)
    ? { source: 'one item per parent, on the collection path' }
    : ((answerFields.size === 0
        ? undefined
        : ladder
            .map(([fields, step]) => chooseKey(idField, keyParam, noun, fields, readable, step, fitsParam))
            .find((k) => k.field !== undefined)) ?? chooseKey(idField, keyParam, noun, scalars(allFields), readable));
  const paramSchema = resolveSchema(
    itemMember?.operation.parameters.find((p) => p.in === 'path' && p.name === keyParam)?.schema,
    document,
  );
  const fieldSchema = key.field ? resolveSchema(allFields.get(key.field), document) : undefined;
  const typed = paramSchema?.type ?? fieldSchema?.type;
  const keyType =
    typed === 'string' || (Array.isArray(typed) && typed.includes('string'))
      ? 'string'
      : typed === undefined && key.field === undefined
        ? 'string'
        : 'integer';

  const fieldMap: Record<string, string> = {};
  const normalAnswers = new Map([...answerFields.keys()].map((name) => [normal(name), name]));
  for (const shape of requestShapes)
    for (const name of shape.properties.keys()) {
      if (answerFields.has(name) || answerFields.size === 0) continue;
      const match = normalAnswers.get(normal(name));
      if (match !== undefined) fieldMap[name] = match;
    }
  // A create that names the item by the path's own parameter under another name than the answers' key (Twitter's
  // `POST /2/lists/{id}/members` takes `user_id`; a member is read at `/members/{user_id}` and listed with its `id`):
  // the sent field is the key.
  if (key.field !== undefined && keyParam !== undefined && normal(keyParam) !== normal(key.field))
    for (const shape of createShapes)
      for (const name of shape.properties.keys())
        if (normal(name) === normal(keyParam) && !answerFields.has(name) && shape.required.has(name))
          fieldMap[name] = key.field;

  const parentNames = [...collection.matchAll(PARAM)].map((m) => m[1]);
  // Only a string field takes the path's text as it is.
  const parentFields = parentNames.map((name) => {
    const field = normalAnswers.get(normal(name));
    const type = field === undefined ? undefined : resolveSchema(answerFields.get(field), document)?.type;
    // The key is the item's own: a parent named like it (`/lists/{id}/members` keyed by a member's `id`) is not it.
    if (field === undefined || field === key.field) return '';
    return type === 'string' || (Array.isArray(type) && type.includes('string')) ? field : '';
  });
  const list = lists[0];
  const listSchema = list && successSchema(list.operation);
  const listEnvelope = list ? findListEnvelope(listSchema, document, lastSegment(collection)) : undefined;
  const paging = list ? findPaging(list.operation.parameters, document) : undefined;
  const encodings = [
    ...new Set(
      members
        .filter((m) => m.role === 'create' || m.role === 'replace' || m.role === 'merge')
        .flatMap((m) => (m.operation.requestBody?.contents ?? []).map((c) => c.mediaType)),
    ),
  ];
  const operations: Partial<Record<ResourceRole, string[]>> = {};
  for (const m of members) (operations[m.role] ??= []).push(m.operation.id);
  // Declared, or the only place left to say where the item is: a create answered without a body (eBay's 202 Accepted
  // for a task read at /task/{task_id}), as the servers of such documents do, where the item has a key field (a key
  // the mock numbers may not fit the path: Apicurio's rules are read by a rule type's name).
  const location = creates.some(
    (c) =>
      declaresLocation(c.operation, document) ||
      (itemPath !== undefined && key.field !== undefined && successSchema(c.operation) === undefined),
  );
  const kept = creates.length > 0;
  const why = kept
    ? `kept: ${creates.map((c) => `${c.operation.method} ${c.operation.path}`).join(', ')} creates, keyed by ` +
      `${key.field ?? 'number'}`
    : `answered from the document: no create (a POST of an object on ${collection})`;
  const singleton = members.some((m) => m.single);
  const resource: Resource = {
    collection,
    ...(itemPath !== undefined && { itemPath }),
    ...(singleton && { singleton: true }),
    parents: parentNames,
    ...(key.field !== undefined && { keyField: key.field }),
    keySource: key.source,
    keyType,
    noun,
    kept,
    why,
    operations,
    location,
    ...(listEnvelope && { listEnvelope }),
    ...(paging && { paging }),
    ...(itemEnvelopeName !== undefined && { itemEnvelope: itemEnvelopeName }),
    encodings,
    fieldMap,
    parentFields,
  };
  return { resource, envelopes };
}

/**
 * Whether a create and a read on one path are of the same item: their answers declare the same
 * fields, or the create answers nothing and the read's answer holds every field the create sends.
 */
function sameItem(create: Operation, read: Operation, document: unknown): boolean {
  const readFields = [...objectShape(successSchema(read), document).properties.keys()].map(normal);
  if (readFields.length === 0) return false;
  const created = successSchema(create);
  const fields =
    created === undefined
      ? [...objectShape(requestContent(create)?.schema, document).properties.keys()].map(normal)
      : [...objectShape(created, document).properties.keys()].map(normal);
  if (fields.length === 0) return false;
  const inRead = new Set(readFields);
  return fields.every((f) => inRead.has(f)) && (created === undefined || fields.length === readFields.length);
}

/** Names an item carries its own key in: an object that has one is the item, not a wrapper around it. */
const KEY_NAMES = new Set(['id', 'gid', 'sid', 'uuid', 'key']);

/**
 * The field a body wraps one item in, where the body itself carries no key: an object named like
 * the collection's item, however many fields sit beside it (Stripe's `bank_account[...]` in a
 * create of `/customers/{customer}/bank_accounts`), or in a body of at most three fields an object
 * named `data`, `item`, `result` or `resource` (`{data: {...}}`, GitHub's `{message, budget: {...}}`).
 * Undefined when the body is the item.
 */
function itemEnvelope(
  schema: unknown,
  document: unknown,
  named: Set<string>,
  generic: Set<string>,
): string | undefined {
  if (schema === undefined || !describesObject(schema, document)) return undefined;
  const shape = objectShape(schema, document);
  if (shape.properties.size === 0) return undefined;
  for (const name of shape.properties.keys())
    if (KEY_NAMES.has(normal(name)) || normal(name).endsWith('id')) return undefined;
  for (const [name, property] of shape.properties)
    if (named.has(normal(name)) && mayBeObject(property, document)) return name;
  if (shape.properties.size > 3) return undefined;
  for (const [name, property] of shape.properties)
    if (generic.has(normal(name)) && describesObject(property, document)) return name;
  return undefined;
}

/** An object, or a choice one of whose members is an object (Stripe's `anyOf: [{...}, string]`). */
function mayBeObject(schema: unknown, document: unknown): boolean {
  if (describesObject(schema, document)) return true;
  const s = resolveSchema(schema, document);
  return [...[s?.anyOf ?? []].flat(), ...[s?.oneOf ?? []].flat()].some((member) => describesObject(member, document));
}

/**
 * The key field among `fields`: the schema's `x-plantstore-id`; else the field the item path's parameter names
 * ({username} -> username, {Sid} -> sid, {playlist_id} -> id, {issue_number} -> number); else a
 * conventional name (id, <noun>Id, sid, uuid, key, and name when items are read by it). `step` takes one rung only
 * (the parameter's name, the conventional names without `name`, or `name`), for the ladder describeResource climbs.
 */
type KeyStep = 'param' | 'conventional' | 'name' | 'all';
const KEY_TAIL = /(id|sid|gid|uuid|key|sha|number|slug|name)$/;

function chooseKey(
  idField: string | undefined,
  keyParam: string | undefined,
  noun: string,
  fields: Map<string, unknown>,
  readable: boolean,
  step: KeyStep = 'all',
  fits?: (schema: unknown) => boolean,
): { field?: string; source: string } {
  if (idField) return { field: idField, source: 'x-plantstore-id' };
  const byNormal = new Map([...fields.keys()].map((name) => [normal(name), name]));
  const from = keyParam === undefined ? '' : `, read from {${keyParam}}`;
  if (keyParam !== undefined && (step === 'param' || step === 'all')) {
    const p = normal(keyParam);
    const exact = byNormal.get(p);
    if (exact !== undefined) return { field: exact, source: `named by {${keyParam}}` };
    const n = normal(noun);
    if (p.startsWith(n) && p.length > n.length) {
      const rest = byNormal.get(p.slice(n.length));
      if (rest !== undefined) return { field: rest, source: `named by {${keyParam}}` };
    }
    // The key-like field the parameter ends with ({space_number} -> number, {tree_sha} -> sha), of a type the
    // parameter can carry ({gpg_key_id}, an integer, is not the string `key_id`).
    const tail = [...byNormal]
      .filter(([f, name]) => f.length >= 2 && p.endsWith(f) && KEY_TAIL.test(f) && (fits?.(fields.get(name)) ?? true))
      .sort((a, b) => b[0].length - a[0].length)[0];
    if (tail !== undefined) return { field: tail[1], source: `named by {${keyParam}}` };
  }
  if (step === 'param') return { source: `numbered by the mock${from}` };
  const strong = step === 'name' ? [] : ['id', `${noun}id`, 'sid', 'uuid', 'key'];
  const conventional = [...strong, ...(readable && step !== 'conventional' ? ['name'] : [])];
  for (const name of conventional) {
    const field = byNormal.get(normal(name));
    if (field !== undefined) return { field, source: `a conventional key name${from}` };
  }
  return { source: `numbered by the mock${from}` };
}

/** A schema of an object or a list: its value has parts, and is no key. */
function holdsParts(schema: Record<string, unknown> | undefined): boolean {
  if (schema === undefined) return false;
  const types = [schema.type].flat();
  return (
    types.includes('object') ||
    types.includes('array') ||
    (schema.type === undefined && (schema.properties !== undefined || schema.items !== undefined))
  );
}

/** Names compared without case and separators: FriendlyName, friendly_name and friendly-name are one. */
const normal = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The request content a create or update is read by: JSON first, else a URL-encoded or multipart
 * form (the bodies the mock reads into an object; an XML body is checked but not read into one).
 */
export function requestContent(operation: Operation): MediaContent | undefined {
  const contents = operation.requestBody?.contents ?? [];
  return (
    jsonContent(contents) ??
    contents.find((c) => c.schema !== undefined && /^application\/x-www-form-urlencoded/i.test(c.mediaType)) ??
    contents.find((c) => c.schema !== undefined && /^multipart\/form-data/i.test(c.mediaType))
  );
}

const successSchemas = new WeakMap<Operation, { schema: unknown }>();

/** The JSON schema of the operation's lowest declared 2xx answer, once per operation. */
function successSchema(operation: Operation): unknown {
  let known = successSchemas.get(operation);
  if (!known) {
    let ok: { status: string; contents: MediaContent[] } | undefined;
    for (const r of operation.responses)
      if (/^2\d\d$/.test(r.status) && (ok === undefined || Number(r.status) < Number(ok.status))) ok = r;
    known = { schema: ok && jsonContent(ok.contents)?.schema };
    successSchemas.set(operation, known);
  }
  return known.schema;
}

/** The schema of one item in an operation's answer: a list's items (bare or wrapped), else the answer itself. */
function itemSchemaOf(member: Candidate, document: unknown): unknown {
  const schema = successSchema(member.operation);
  if (member.role !== 'list') return schema;
  const s = resolveSchema(schema, document);
  if (s?.type === 'array') return s.items;
  const envelope = findListEnvelope(schema, document, lastSegment(member.place.collection));
  if (!envelope) return undefined;
  const items = resolveSchema(objectShape(s, document).properties.get(envelope.items), document);
  return items?.items;
}

/** Whether a 2xx answer of the operation declares a Location header. */
function declaresLocation(operation: Operation, document: unknown): boolean {
  const responses = getAtPointer(document, `${operation.pointer}/responses`);
  if (responses === null || typeof responses !== 'object') return false;
  return Object.entries(responses).some(([status, response]) => {
    if (!status.startsWith('2')) return false;
    const headers = resolveSchema(response, document)?.headers;
    return (
      headers !== null &&
      typeof headers === 'object' &&
      Object.keys(headers).some((name) => name.toLowerCase() === 'location')
    );
  });
}

const lastSegments = new Map<string, string>();

/** The last literal segment of a path, without extension (memoized: the map asks for it per pair of collections). */
function lastSegment(path: string): string {
  let last = lastSegments.get(path);
  if (last === undefined) {
    const segments = path.split('/').filter((s) => s !== '' && !s.includes('{'));
    last = (segments.pop() ?? '').replace(EXTENSION, '');
    if (lastSegments.size < 100_000) lastSegments.set(path, last);
  }
  return last;
}

/** Whether a schema can only be an object: not an array, not a scalar, not untyped. */
function describesObject(schema: unknown, document: unknown): boolean {
  const s = resolveSchema(schema, document);
  if (!s) return false;
  if (s.type !== undefined) return s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object'));
  return objectShape(s, document).properties.size > 0;
}

/** The exact key string of a key value: integers in canonical decimal (bigint-exact), strings as is. */
export function keyString(value: unknown): string | undefined {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return undefined;
    // Past the small integers, toFixed(0) writes the same digits sooner than String(): it skips
    // the shortest-form search (fast path: see docs/performance.md §10.13). The two agree on
    // every safe integer, which is what a body holds here (a larger literal parses to a bigint);
    // past 2^53, toFixed(0) writes the double's exact value, as the bigint would be written.
    return value >= -0x80000000 && value <= 0x7fffffff ? String(value === 0 ? 0 : value) : value.toFixed(0);
  }
  if (typeof value === 'string') return value;
  return undefined;
}

/** The key a path parameter names, in the same form keyString gives for a body field. */
export function keyFromParam(text: string, keyType: 'integer' | 'string'): string | undefined {
  if (keyType === 'string') return text;
  if (!/^-?\d{1,30}$/.test(text)) return undefined;
  return BigInt(text).toString();
}

export type { ParameterSpec };
