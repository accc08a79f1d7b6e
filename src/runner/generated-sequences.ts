// Stateful sequences (--generate N): for every collection the REST conventions find, N cases that
// follow one item through its life: create it, read it back, find it in the list, delete it, and
// read it again to get "not found". The conventions are the mock's own (src/mock/resources.ts), so
// a server is held to the same state the mock keeps. A step whose operation the document lacks
// (or whose request the runner cannot build) is left out; a create with nothing after it is no
// sequence. Every answer still gets the contract checks, and a failing step ends its case.
import type { JsonValue } from '../json/exact-json.ts';
import { bindResources, keyString, type ResourceBinding, type ResourceRole } from '../spec/resources.ts';
import { objectShape, pickDeclared, resolveSchema, type ObjectShape } from '../spec/schema-shape.ts';
import { escapePointerToken, getAtPointer, type LoadedSpec } from '../spec/load-spec.ts';
import { jsonContent, type JsonSchema, type Operation } from '../spec/operations.ts';
import type { Validators } from '../validation/validator.ts';
import type { Case, FixtureRequest, FixtureStep, StatusExpectation } from './fixture.ts';
import type { CaseSource, GenerateOptions } from './generated-cases.ts';
import { guarded } from './generation-guard.ts';
import { credentialsFor, withCredentials } from './credentials.ts';
import { withUniqueField, type UniqueBody } from './generated-request-parts.ts';
import { updateSteps } from './sequence-updates.ts';
import { mixSeed } from '../example/seeded-random.ts';

const SEQUENCE_DRAWS = 0x5e9;

/** The page asked of a list whose `limit` declares no maximum: large, yet not a load test. */
const DEFAULT_LIST_LIMIT = 1000;

/** Statuses that say "not allowed", not "not found": the same token read the item a moment ago. */
const NOT_ABOUT_THE_ITEM = new Set([401, 403]);

interface SequenceContext {
  document: unknown;
  validators: Validators;
  options: GenerateOptions;
  source: CaseSource;
}

/** The operations one sequence uses, by role (only those the runner can send), with the path parameter that names the item. */
type Roles = Partial<Record<ResourceRole, { operation: Operation; keyParam?: string }>>;

/** Builds the sequences of a document: N per collection that has a create and something to follow it. */
export function generateSequences(spec: LoadedSpec, operations: Operation[], validators: Validators, options: GenerateOptions, source: CaseSource): Case[] {
  const bindings = bindResources(operations, spec.document);
  const context: SequenceContext = { document: spec.document, validators, options, source };
  const out: Case[] = [];
  for (const [create, binding] of bindings) {
    if (binding.role !== 'create') continue;
    const roles: Roles = {};
    for (const [operation, other] of bindings) {
      if (other.collection === binding.collection && sendable(operation, other, options.auth)) roles[other.role] ??= { operation, keyParam: other.keyParam };
    }
    if (roles.create?.operation !== create) continue;
    // A body the generator cannot draw leaves the collection without sequences; its operations still get single cases (or a reason).
    const sequences = guarded(() => sequencesFor(binding, roles, context));
    if (typeof sequences !== 'string') out.push(...sequences);
  }
  return out;
}

/** True when the runner can fill every required parameter (the item key, a list's `limit`) and present the credentials. */
function sendable(operation: Operation, binding: ResourceBinding, auth: Record<string, string>): boolean {
  if (!credentialsFor(operation, auth).ok) return false;
  const needsBody = binding.role === 'create' || binding.role === 'replace' || binding.role === 'merge';
  if (needsBody && !jsonContent(operation.requestBody?.contents ?? [])?.schema) return false;
  return operation.parameters.every((p) => !p.required || (p.in === 'path' && p.name === binding.keyParam) || (binding.role === 'list' && isLimit(p)));
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
  const page = roles.list && listPage(roles.list.operation, context);
  const { count, seed } = context.options;
  const out: Case[] = [];
  const drawn = new Map<Operation, JsonValue[]>();
  // Drawn from a seed of their own: the valid cases draw from `seed`, and a key the run cannot
  // make unique (a tight pattern such as ^ord_[0-9a-z]{26}$) would otherwise be drawn twice.
  context.source.valid(create, count, mixSeed(seed, SEQUENCE_DRAWS)).forEach((generated, index) => {
    if (generated === null || typeof generated !== 'object' || Array.isArray(generated)) return;
    let body: UniqueBody = { template: generated, sample: generated };
    const key = binding.keyField === undefined ? undefined : withUniqueField(body, binding.keyField, binding.keyType, `${binding.noun}-`, check);
    if (key) body = key;
    if (label !== undefined) body = withUniqueField(body, label, 'string', `${binding.noun} `, check) ?? body;
    // The path names the item by the key sent; a key the runner could not make unique goes in as generated.
    const keyText = binding.keyField === undefined ? undefined : key ? String(key.template[binding.keyField]) : encodedKey(generated[binding.keyField]);
    const steps = stepsOf(roles, body.template, keyText, page, media.mediaType, context);
    if (keyText !== undefined) {
      const keyField = binding.keyField!;
      const keyValue = key ? { field: keyField, template: body.template[keyField], sample: body.sample[keyField] } : { field: keyField, template: generated[keyField], sample: generated[keyField] };
      const keyParamOf = (operation: Operation) => Object.values(roles).find((role) => role.operation === operation)?.keyParam;
      const request = (operation: Operation, extra: Partial<FixtureRequest>) => itemRequest(operation, keyParamOf(operation), keyText, extra, context);
      const updates = updateSteps(roles.replace?.operation, roles.merge?.operation, roles.read?.operation, index, { document: context.document, validators: context.validators, source: context.source, seed, count, drawn, request, key: keyValue, label, noun: binding.noun });
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

function stepsOf(roles: Roles, sent: Record<string, JsonValue>, keyText: string | undefined, page: ListPage | undefined, mediaType: string, context: SequenceContext): FixtureStep[] {
  const { document } = context;
  const request = ({ operation, keyParam }: { operation: Operation; keyParam?: string }, extra: Partial<FixtureRequest> = {}) => itemRequest(operation, keyParam, keyText, extra, context);
  const { create, list } = roles;
  // Item operations need the key in their path: without a key field, the server numbers the items itself.
  const read = keyText === undefined ? undefined : roles.read;
  const remove = keyText === undefined ? undefined : roles.remove;
  const steps: FixtureStep[] = [
    { name: 'create', request: request(create!, { headers: { 'content-type': mediaType }, body: sent }), expect: { status: '2xx' } },
  ];
  if (read) {
    const expected = fittingPart(declaredPart(sent, successSchema(read.operation), document), successContent(read.operation), context);
    steps.push({ name: 'read', request: request(read), expect: { status: '2xx', ...(expected && { body: expected }) } });
  }
  if (list && page) {
    const listContent = successContent(list.operation);
    const expected = fittingPart(declaredPart(sent, resolveSchema(successSchema(list.operation), document)?.items, document), listContent && { ...listContent, schemaPointer: `${listContent.schemaPointer}/items` }, context);
    const query: Record<string, number> = page.limit === undefined ? {} : { limit: page.limit };
    steps.push({ name: 'find-in-list', request: request(list, { query }), expect: { status: '2xx', ...(expected && { listContains: { item: expected, limit: page.limit } }) } });
  }
  if (remove) {
    steps.push({ name: 'delete', request: request(remove), expect: { status: '2xx' } });
    if (read) steps.push({ name: 'read-after-delete', request: request(read), expect: { status: goneStatuses(read.operation) } });
  }
  return steps;
}

/** A request of the sequence: to the collection, or (keyParam) to the item it created. */
function itemRequest(operation: Operation, keyParam: string | undefined, keyText: string | undefined, extra: Partial<FixtureRequest>, context: SequenceContext): FixtureRequest {
  const credentials = credentialsFor(operation, context.options.auth);
  const plain: FixtureRequest = { method: operation.method, path: keyParam === undefined ? operation.path : operation.path.replace(`{${keyParam}}`, keyText!), headers: {}, ...extra };
  return credentials.ok ? withCredentials(plain, credentials.parts) : plain;
}

/** What was sent, cut to what the answer declares (as the mock cuts its answers); undefined when nothing is left to compare. */
function declaredPart(sent: Record<string, JsonValue>, schema: unknown, document: unknown): Record<string, JsonValue> | undefined {
  if (schema === undefined) return undefined;
  const part = pickDeclared(sent, schema, document) as Record<string, JsonValue>;
  return Object.keys(part).length > 0 ? part : undefined;
}

/**
 * The expected part without the fields whose sent value the answer's own property schema refuses
 * (GitHub's migrations take `repositories` as names and answer them as objects): no server can
 * echo those, so they are not asked for. Fields the pointer cannot reach (through an allOf) stay.
 */
function fittingPart(part: Record<string, JsonValue> | undefined, content: { schemaPointer: string } | undefined, context: SequenceContext): Record<string, JsonValue> | undefined {
  if (part === undefined || content === undefined) return part;
  const kept: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(part)) {
    const pointer = `${content.schemaPointer}/properties/${escapePointerToken(name)}`;
    if (getAtPointer(context.document, pointer) === undefined || context.validators.at(pointer)(value).ok) kept[name] = value;
  }
  return Object.keys(kept).length > 0 ? kept : undefined;
}

function successContent(operation: Operation | undefined): { schemaPointer: string } | undefined {
  const ok = operation?.responses.find((r) => r.status.startsWith('2'));
  const content = ok && jsonContent(ok.contents);
  return content?.schema === undefined ? undefined : content;
}

function labelField(create: ObjectShape, shown: ObjectShape, keyField: string | undefined, document: unknown): string | undefined {
  const candidates = [...create.properties].filter(([name, schema]) => name !== keyField && shown.properties.has(name) && resolveSchema(schema, document)?.type === 'string').map(([name]) => name);
  return candidates.includes('name') ? 'name' : candidates[0];
}

interface ListPage {
  /** Undefined: the list declares no usable `limit`, and answers the whole collection. */
  limit?: number;
}

/**
 * The page the list is asked for: the largest `limit` the document allows (its maximum, else
 * DEFAULT_LIST_LIMIT), so the new item is on it unless the collection is larger still. Undefined
 * when the list requires a limit the runner cannot give.
 */
function listPage(list: Operation, context: SequenceContext): ListPage | undefined {
  const parameter = list.parameters.find(isLimit);
  if (!parameter) return {};
  const schema = resolveSchema(parameter.schema, context.document);
  const limit = typeof schema?.maximum === 'number' ? schema.maximum : typeof schema?.exclusiveMaximum === 'number' ? Math.ceil(schema.exclusiveMaximum) - 1 : DEFAULT_LIST_LIMIT;
  if (Number.isSafeInteger(limit) && context.validators.at(parameter.schemaPointer)(limit).ok) return { limit };
  return parameter.required ? undefined : {};
}

function isLimit(parameter: Operation['parameters'][number]): boolean {
  return parameter.in === 'query' && parameter.name === 'limit';
}

/** "Not found": a 404, or any other 4xx the read declares (410 Gone, a declared 400), but not an auth failure. */
function goneStatuses(read: Operation): StatusExpectation[] {
  const statuses: StatusExpectation[] = [404];
  for (const { status } of read.responses) {
    if (/^4xx$/i.test(status)) statuses.push('4xx');
    else if (/^4\d\d$/.test(status) && !statuses.includes(Number(status)) && !NOT_ABOUT_THE_ITEM.has(Number(status))) statuses.push(Number(status));
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
