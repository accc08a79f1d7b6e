// Stateful sequences (--generate N): for every collection the REST conventions find, N cases that
// follow one item through its life: create it, read it back, find it in the list, delete it, and
// read it again to get "not found". A list with a `limit` is also held to it (sequence-lists.ts):
// one or two more items are created, the list asked for fewer, and they are deleted at the end.
// The conventions are the mock's own (src/document/resources.ts), so a server is held to the same
// state the mock keeps. A step whose operation the document lacks
// (or whose request the runner cannot build) is left out; a create with nothing after it is no
// sequence. Every answer still gets the contract checks, and a failing step ends its case.
import type { JsonValue } from '../../json/exact-json.ts';
import { bindResources, keyString, type ResourceBinding, type ResourceRole } from '../../document/resources.ts';
import { objectShape, resolveSchema, type ObjectShape } from '../../document/schema-shape.ts';
import type { LoadedSpec } from '../../document/loaded-spec.ts';
import { jsonContent, type JsonSchema, type Operation } from '../../document/operations.ts';
import type { Validators } from '../../validation/validator.ts';
import type { Case, FixtureRequest, FixtureStep, StatusExpectation } from '../fixture.ts';
import type { CaseSource, GenerateOptions } from './case-source.ts';
import { guarded } from './generation-guard.ts';
import { credentialsFor, withCredentials } from './credentials.ts';
import { withUniqueField, type UniqueBody } from './generated-request-parts.ts';
import { expectedPart, updateSteps } from './sequence-updates.ts';
import { mixSeed } from '../../example/seeded-random.ts';
import { isLimit, listPlan, type ListPlan } from './sequence-lists.ts';

const SEQUENCE_DRAWS = 0x5e9;

/** Statuses that say "not allowed", not "not found": the same token read the item a moment ago. */
const NOT_ABOUT_THE_ITEM = new Set([401, 403]);

interface SequenceContext {
  document: unknown;
  validators: Validators;
  options: GenerateOptions;
  source: CaseSource;
}

/**
 * The operations one sequence uses, by role (only those the runner can send), with the path parameter that names the
 * item.
 */
type Roles = Partial<Record<ResourceRole, { operation: Operation; keyParam?: string }>>;

/**
 * Where a server-named item is found after its create: the answer's key field (when the answer declares it; `required`
 * when it must be there), else its Location header.
 */
interface ItemAddress {
  field?: string;
  required: boolean;
}

/**
 * Where the create's answer names the item: the field the item path's parameter names (`{id}` -> `id`), else the key
 * field, at the top of the answer or inside a one-item envelope (`{ data: { id } }`, as Twitter's answers are).
 */
function answerAddress(answered: ObjectShape, binding: ResourceBinding, roles: Roles, document: unknown): ItemAddress {
  const keyParam = Object.values(roles).find((role) => role.keyParam !== undefined)?.keyParam;
  const names = [keyParam, binding.keyField].filter((name): name is string => name !== undefined);
  for (const name of names)
    if (answered.properties.has(name)) return { field: name, required: answered.required.has(name) };
  // Only inside the one-item envelope the mock wraps its items in (a `photoId: {id}` is a part of the item).
  for (const [envelope, schema] of answered.properties) {
    if (envelope !== binding.answerEnvelope) continue;
    const inner = objectShape(schema, document);
    for (const name of names)
      if (inner.properties.has(name))
        return {
          field: `${envelope}/${name}`,
          required: answered.required.has(envelope) && inner.required.has(name),
        };
  }
  return { required: false };
}

/** Builds the sequences of a document: N per collection that has a create and something to follow it. */
export function generateSequences(
  spec: LoadedSpec,
  operations: Operation[],
  validators: Validators,
  options: GenerateOptions,
  source: CaseSource,
): Case[] {
  const bindings = bindResources(operations, spec.document);
  const context: SequenceContext = { document: spec.document, validators, options, source };
  const out: Case[] = [];
  for (const [create, binding] of bindings) {
    if (binding.role !== 'create') continue;
    // The sequence writer sends the key at the body's top and reads the item by a path key: a create
    // that wraps its item (`{data: {...}}`) and a singleton (no key in its path) get single cases only.
    if (binding.requestEnvelope !== undefined || binding.singleton) continue;
    const roles: Roles = {};
    for (const [operation, other] of bindings) {
      if (other.collection === binding.collection && sendable(operation, other, options.auth))
        roles[other.role] ??= { operation, keyParam: other.keyParam };
    }
    if (roles.create?.operation !== create) continue;
    // A body the generator cannot draw leaves the collection without sequences; its operations still get single cases
    // (or a reason).
    const sequences = guarded(() => sequencesFor(binding, roles, context));
    if (typeof sequences !== 'string') out.push(...sequences);
  }
  return out;
}

/**
 * True when the runner can fill every required parameter (the item key, a list's `limit`) and present the credentials.
 *
 */
function sendable(operation: Operation, binding: ResourceBinding, auth: Record<string, string>): boolean {
  if (!credentialsFor(operation, auth).ok) return false;
  const needsBody = binding.role === 'create' || binding.role === 'replace' || binding.role === 'merge';
  if (needsBody && !jsonContent(operation.requestBody?.contents ?? [])?.schema) return false;
  return operation.parameters.every(
    (p) => !p.required || (p.in === 'path' && p.name === binding.keyParam) || (binding.role === 'list' && isLimit(p)),
  );
}

function sequencesFor(binding: ResourceBinding, roles: Roles, context: SequenceContext): Case[] {
  const create = roles.create!.operation;
  const media = jsonContent(create.requestBody!.contents)!;
  const check = context.validators.at(media.schemaPointer);
  const createShape = objectShape(media.schema, context.document);
  const listItemSchema = roles.list && resolveSchema(successSchema(roles.list.operation), context.document)?.items;
  // The field that makes the item recognizable in the list: `name` if the list shows it, else another string it shows.
  const shown = objectShape(listItemSchema ?? successSchema(roles.read?.operation), context.document);
  const label = labelField(createShape, shown, binding.keyField, context.document);
  const page = roles.list && listPlan(roles.list.operation, context.validators, context.document);
  const { count, seed } = context.options;
  // The key goes in the create's body only where the create declares it (not readOnly); otherwise the server names
  // the item, and the steps after the create take it from the answer: its key field, else its Location header.
  const clientKeyed =
    binding.keyField !== undefined &&
    createShape.properties.has(binding.keyField) &&
    resolveSchema(createShape.properties.get(binding.keyField), context.document)?.readOnly !== true;
  const keyField = clientKeyed ? binding.keyField : undefined;
  const answered = objectShape(successSchema(create), context.document);
  const fromAnswer = answerAddress(answered, binding, roles, context.document);
  // A key the item path's parameter refuses (a name where the path takes digits, as Twitter's lists) is no address.
  const keyParameter = Object.values(roles)
    .map((role) => role.keyParam && role.operation.parameters.find((p) => p.in === 'path' && p.name === role.keyParam))
    .find((parameter) => parameter !== undefined && parameter !== '');
  const fitsPath = (sample: JsonValue | undefined) =>
    keyParameter === undefined ||
    keyParameter.schema === undefined ||
    sample === undefined ||
    context.validators.at(keyParameter.schemaPointer)(sample).ok;
  const out: Case[] = [];
  const drawn = new Map<Operation, JsonValue[]>();
  // Drawn from a seed of their own: the valid cases draw from `seed`, and a key the run cannot
  // make unique (a tight pattern such as ^ord_[0-9a-z]{26}$) would otherwise be drawn twice.
  context.source.valid(create, count, mixSeed(seed, SEQUENCE_DRAWS)).forEach((generated, index) => {
    if (generated === null || typeof generated !== 'object' || Array.isArray(generated)) return;
    let body: UniqueBody = { template: generated, sample: generated };
    const key =
      keyField === undefined ? undefined : withUniqueField(body, keyField, binding.keyType, `${binding.noun}-`, check);
    if (key) body = key;
    if (label !== undefined) body = withUniqueField(body, label, 'string', `${binding.noun} `, check) ?? body;
    // The path names the item by the key sent; a key the runner could not make unique goes in as generated.
    const sent = keyField === undefined ? undefined : key ? key.sample[keyField] : generated[keyField];
    const byKey = keyField !== undefined && fitsPath(sent);
    const address = byKey ? undefined : fromAnswer;
    const keyText = !byKey ? undefined : key ? String(key.template[keyField]) : encodedKey(generated[keyField]);
    const extras = (
      page?.smallLimit === undefined
        ? []
        : // A drawn key the server names (a readOnly id) must differ in each create too: unique, or no extra items.
          extraItems(generated, page.smallLimit, binding, keyField ?? sentKeyField(generated, binding), label, check)
    ).map((extra) => (byKey ? extra : { body: extra.body }));
    const steps = stepsOf(roles, body.template, keyText, address, page, media.mediaType, context, extras);
    if (keyText !== undefined || address !== undefined) {
      // A server-named key goes into an update's body as the create's answer gave it, where that answer must have it.
      const answeredKey =
        address?.field !== undefined && address.required && /^[A-Za-z_][A-Za-z0-9_-]*$/.test(address.field)
          ? { field: address.field, template: `{{steps.create.response.body.${address.field}}}`, sample: undefined }
          : undefined;
      // (A key inside an envelope, `data/id`, is not put into update bodies: the body's own field keeps its value.)
      const keyValue =
        keyField === undefined
          ? answeredKey
          : key
            ? { field: keyField, template: body.template[keyField], sample: body.sample[keyField] }
            : { field: keyField, template: generated[keyField], sample: generated[keyField] };
      const keyParamOf = (operation: Operation) =>
        Object.values(roles).find((role) => role.operation === operation)?.keyParam;
      const request = (operation: Operation, extra: Partial<FixtureRequest>) =>
        itemRequest(
          operation,
          keyParamOf(operation),
          keyText,
          extra,
          context,
          address && { ...address, step: 'create' },
        );
      const updates = updateSteps(roles.replace?.operation, roles.merge?.operation, roles.read?.operation, index, {
        document: context.document,
        validators: context.validators,
        source: context.source,
        seed,
        count,
        drawn,
        request,
        key: keyValue,
        keyField: binding.keyField ?? address?.field,
        fieldMap: binding.resource.fieldMap,
        label,
        noun: binding.noun,
      });
      // After the list (which looks for the item as created), before the delete.
      const at = steps.findIndex((step) => step.name === 'delete');
      steps.splice(at === -1 ? steps.length : at, 0, ...updates);
    }
    if (steps.length < 2) return;
    out.push({
      id: `generated/sequence${binding.collection}/${index + 1}`,
      name: `${binding.collection} sequence ${index + 1} (seed ${seed}): ${steps.map((s) => s.name).join(', ')}`,
      source: 'generated',
      steps,
    });
  });
  return out;
}

/**
 * The items beyond the sequence's own that a limit check needs (`count` of them), each with its
 * own run-unique key and label ({{uniqueId 2}}, ...); none when a key cannot be made unique.
 */
function extraItems(
  generated: Record<string, JsonValue>,
  count: 1 | 2,
  binding: ResourceBinding,
  keyField: string | undefined,
  label: string | undefined,
  check: (value: JsonValue) => { ok: boolean },
): Array<{ body: Record<string, JsonValue>; keyText?: string }> {
  const out: Array<{ body: Record<string, JsonValue>; keyText?: string }> = [];
  for (const ordinal of [2, 3].slice(0, count) as Array<2 | 3>) {
    let body: UniqueBody | undefined = { template: generated, sample: generated };
    if (keyField !== undefined)
      body = withUniqueField(body, keyField, binding.keyType, `${binding.noun}-`, check, ordinal);
    if (!body) return [];
    if (label !== undefined) body = withUniqueField(body, label, 'string', `${binding.noun} `, check, ordinal) ?? body;
    out.push({
      body: body.template,
      ...(keyField !== undefined && { keyText: String(body.template[keyField]) }),
    });
  }
  return out;
}

function stepsOf(
  roles: Roles,
  sent: Record<string, JsonValue>,
  keyText: string | undefined,
  address: ItemAddress | undefined,
  page: ListPlan | undefined,
  mediaType: string,
  context: SequenceContext,
  extras: Array<{ body: Record<string, JsonValue>; keyText?: string }>,
): FixtureStep[] {
  const request = (
    { operation, keyParam }: { operation: Operation; keyParam?: string },
    extra: Partial<FixtureRequest> = {},
  ) => itemRequest(operation, keyParam, keyText, extra, context, address && { ...address, step: 'create' });
  const { create, list } = roles;
  // Item operations need the item's key or URL: sent in the create, or taken from its answer.
  const known = keyText !== undefined || address !== undefined;
  const read = known ? roles.read : undefined;
  const remove = known ? roles.remove : undefined;
  const steps: FixtureStep[] = [
    {
      name: 'create',
      request: request(create!, { headers: { 'content-type': mediaType }, body: sent }),
      expect: { status: '2xx' },
    },
  ];
  if (read) {
    const expected = expectedPart(sent, read.operation, context);
    steps.push({
      name: 'read',
      request: request(read),
      expect: { status: '2xx', ...(expected && { body: expected }) },
    });
  }
  if (list && page) {
    // More items than the smallest limit, then that limit: a list that ignores it shows them all.
    if (page.smallLimit !== undefined && extras.length === page.smallLimit) {
      extras.forEach((extra, index) =>
        steps.push({
          name: `create-${index + 2}`,
          request: request(create!, { headers: { 'content-type': mediaType }, body: extra.body }),
          expect: { status: '2xx' },
        }),
      );
      steps.push({
        name: 'limit-honoured',
        request: request(list, { query: { limit: page.smallLimit } }),
        expect: { status: '2xx', listAtMost: page.smallLimit },
      });
    }
    const expected = expectedPart(sent, list.operation, context, 'items');
    const query: Record<string, number> = page.pageSize === undefined ? {} : { limit: page.pageSize };
    const paging = page.offsetParam === undefined ? {} : { offsetParam: page.offsetParam };
    steps.push({
      name: 'find-in-list',
      request: request(list, { query }),
      expect: { status: '2xx', ...(expected && { listContains: { item: expected, limit: page.pageSize, ...paging } }) },
    });
  }
  if (remove) {
    steps.push({ name: 'delete', request: request(remove), expect: { status: '2xx' } });
    if (read)
      steps.push({
        name: 'read-after-delete',
        request: request(read),
        expect: { status: goneStatuses(read.operation) },
      });
    // The limit check's items go too, so a run leaves no more behind than it has to.
    if (list && page?.smallLimit !== undefined && extras.length === page.smallLimit) {
      extras.forEach((extra, index) => {
        if (extra.keyText !== undefined || address !== undefined)
          steps.push({
            name: `delete-${index + 2}`,
            request: itemRequest(
              remove.operation,
              remove.keyParam,
              extra.keyText,
              {},
              context,
              address && { ...address, step: `create-${index + 2}` },
            ),
            expect: { status: '2xx' },
          });
      });
    }
  }
  return steps;
}

/** A request of the sequence: to the collection, or (keyParam) to the item it created. */
function itemRequest(
  operation: Operation,
  keyParam: string | undefined,
  keyText: string | undefined,
  extra: Partial<FixtureRequest>,
  context: SequenceContext,
  address?: ItemAddress & { step: string },
): FixtureRequest {
  const credentials = credentialsFor(operation, context.options.auth);
  // Without a key sent, the item is the one the address's step created: the path is filled when this step runs.
  const follows = keyParam !== undefined && keyText === undefined && address !== undefined;
  const plain: FixtureRequest = {
    method: operation.method,
    path: keyParam === undefined || follows ? operation.path : operation.path.replace(`{${keyParam}}`, keyText!),
    headers: {},
    ...extra,
    ...(follows && {
      follow: {
        step: address.step,
        item: { param: keyParam, ...(address.field !== undefined && { field: address.field }) },
      },
    }),
  };
  return credentials.ok ? withCredentials(plain, credentials.parts) : plain;
}

function labelField(
  create: ObjectShape,
  shown: ObjectShape,
  keyField: string | undefined,
  document: unknown,
): string | undefined {
  const candidates = [...create.properties]
    .filter(
      ([name, schema]) =>
        name !== keyField && shown.properties.has(name) && resolveSchema(schema, document)?.type === 'string',
    )
    .map(([name]) => name);
  return candidates.includes('name') ? 'name' : candidates[0];
}

/**
 * "Not found": a 404, declared or not (a server never answers what it deleted, and the mock answers
 * an undeclared 404 there too), or any other 4xx the read declares (410 Gone, a declared 400, what
 * --declared-only maps the 404 to), but not an auth failure.
 */
function goneStatuses(read: Operation): StatusExpectation[] {
  const statuses: StatusExpectation[] = [404];
  for (const { status } of read.responses) {
    if (/^4xx$/i.test(status)) statuses.push('4xx');
    else if (/^4\d\d$/.test(status) && !statuses.includes(Number(status)) && !NOT_ABOUT_THE_ITEM.has(Number(status)))
      statuses.push(Number(status));
  }
  return statuses;
}

function successSchema(operation: Operation | undefined): JsonSchema | undefined {
  const ok = operation?.responses.find((r) => r.status.startsWith('2'));
  return ok && jsonContent(ok.contents)?.schema;
}

function encodedKey(value: JsonValue | undefined): string | undefined {
  const text = keyString(value);
  return text === undefined ? undefined : encodeURIComponent(text);
}

/** The key field when the drawn body carries it anyway (a readOnly id the generator drew). */
function sentKeyField(body: Record<string, JsonValue>, binding: ResourceBinding): string | undefined {
  return binding.keyField !== undefined && Object.hasOwn(body, binding.keyField) ? binding.keyField : undefined;
}
