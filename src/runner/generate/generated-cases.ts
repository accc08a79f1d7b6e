// Cases built from the document (--generate N --seed S), for every operation. Valid requests:
// parameters drawn from their schemas and written in their styles, credentials from --token and
// --auth, N bodies of the media type the operation takes. An operation without path parameters
// must accept them (2xx). One with path parameters cannot know whether the generated item
// exists, so (as Schemathesis judges it) its answer only has to keep the contract: a status the
// operation declares, never a 5xx, a body valid against its schema; the sequences follow a
// created item through read and delete. Negative requests must get a 4xx: each mutation the
// example generator makes of a JSON body, a required query/header/cookie parameter left out, a
// path/query/header parameter that breaks its schema (negative-parameters.ts), and no credentials. An operation the
// runner cannot build a request for gets no case, and the report says why. The same seed gives the same cases. The
// example module loads json-schema-faker, so it is imported only when cases are generated.
import type { JsonValue } from '../../json/exact-json.ts';
import type { LoadedSpec } from '../../document/loaded-spec.ts';
import type { MediaContent, Operation, ParameterSpec } from '../../document/operations.ts';
import { bindResources, type ResourceBinding } from '../../document/resources.ts';
import { createRouter } from '../../document/router.ts';
import type { Validators } from '../../validation/validator.ts';
import { credentialsFor, hasCredentials, withCredentials, type CredentialParts } from './credentials.ts';
import type { Case, FixtureExpectation, FixtureRequest } from '../fixture.ts';
import { drawsFromSchema, planBody, writeBody, type BodyPlan } from './generated-bodies.ts';
import { generateParameters, isIgnoredHeader, type ParameterParts } from './generated-parameters.ts';
import { withUniqueKey } from './generated-request-parts.ts';
import { generateSequences } from './generated-sequences.ts';
import { generateLinkCases } from './link-sequences.ts';
import type { CaseSource, GenerateOptions } from './case-source.ts';
import { guarded } from './generation-guard.ts';
import { brokenParameters, withBrokenParameter } from './negative-parameters.ts';
import { hostileCases } from './hostile-cases.ts';
import type { UncoveredOperation } from '../report.ts';

export type { CaseSource, GenerateOptions } from './case-source.ts';

export interface GeneratedCases {
  cases: Case[];
  /** Operations that got no case at all, each with the reason. */
  uncovered: UncoveredOperation[];
  /** What the run should say about the document: links that cannot be followed. */
  warnings: string[];
}

interface GenerateContext {
  document: unknown;
  source: CaseSource;
  validators: Validators;
  options: GenerateOptions;
  bindings: Map<Operation, ResourceBinding>;
}

/** Builds the generated cases of a document. */
export async function generateCases(
  spec: LoadedSpec,
  operations: Operation[],
  validators: Validators,
  options: GenerateOptions,
  source?: CaseSource,
): Promise<GeneratedCases> {
  if (options.count <= 0) return { cases: [], uncovered: [], warnings: [] };
  const cases = source ?? (await exampleCaseSource(spec, validators));
  const context: GenerateContext = {
    document: spec.document,
    source: cases,
    validators,
    options,
    bindings: bindResources(operations, spec.document),
  };
  const out: Case[] = [];
  const uncovered: UncoveredOperation[] = [];
  for (const operation of operations) {
    const built = guarded(() => casesFor(operation, context));
    if (typeof built === 'string')
      uncovered.push({ operationId: operation.id, method: operation.method, path: operation.path, reason: built });
    else out.push(...built);
  }
  out.push(...unsupportedMethods(operations, out));
  out.push(...generateSequences(spec, operations, validators, options, cases));
  const links = generateLinkCases(spec, operations, out);
  out.push(...links.cases);
  return { cases: out, uncovered, warnings: links.skipped.map((why) => `not followed: ${why}`) };
}

/**
 * Methods tried on a path that declares none of them, in this order (not OPTIONS, which CORS answers, nor HEAD, which
 * GET covers).
 */
const UNDECLARED_METHODS = ['DELETE', 'PATCH', 'PUT', 'POST', 'GET'];

/**
 * One case per path: a method the path does not declare should get 405 with an Allow header (RFC
 * 9110 §15.5.6), sent to the path of a valid case already built, without a body. Many frameworks
 * answer 404 instead: like the other off-contract statuses it warns, and fails under --strict.
 */
function unsupportedMethods(operations: Operation[], built: Case[]): Case[] {
  const byPath = new Map<string, Operation[]>();
  for (const operation of operations) byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation]);
  const route = createRouter(operations);
  const out: Case[] = [];
  for (const [path, declared] of byPath) {
    const valid = built.find((c) => declared.some((operation) => c.id === `generated/${operation.id}/valid-1`));
    if (!valid) continue;
    const { request: sample } = valid.steps[0];
    // Undeclared for the URL as a server sees it: another template may take the same URL with
    // this method (/orgs/{org}/runners/limits and /orgs/{org}/runners/{id}).
    const method = UNDECLARED_METHODS.find((m) => route(m, sample.path).kind === 'method-not-allowed');
    if (!method) continue;
    const headers = Object.fromEntries(
      Object.entries(sample.headers ?? {}).filter(([name]) => name !== 'content-type'),
    );
    out.push({
      id: `generated/unsupported-method/${method}${path}`,
      name: `${method} ${path}: answers an undeclared method with 405 and Allow`,
      source: 'generated',
      probe: `${method} ${path}`,
      steps: [
        {
          name: 'request',
          request: { method, path: sample.path, ...(sample.rawQuery && { rawQuery: sample.rawQuery }), headers },
          expect: { status: 405, headers: { allow: true }, advisory: true },
        },
      ],
    });
  }
  return out;
}

/** The example module behind the CaseSource interface. */
async function exampleCaseSource(spec: LoadedSpec, validators: Validators): Promise<CaseSource> {
  const [{ createExampleGenerator }, { jsonContent }] = await Promise.all([
    import('../../example/index.ts'),
    import('../../document/operations.ts'),
  ]);
  const generator = createExampleGenerator(spec, validators);
  const targetOf = (operation: Operation, content = jsonContent(operation.requestBody?.contents ?? [])!) => ({
    name: operation.id,
    kind: 'operation' as const,
    pointer: content.schemaPointer,
    schema: content.schema!,
    operation,
    mediaType: content.mediaType,
  });
  return {
    valid: (operation, count, seed, content) => generator.examples(targetOf(operation, content), { seed, count }),
    invalid: (operation, seed, content) =>
      generator.invalidExamples(targetOf(operation, content), { seed, malformed: true }),
    value: (pointer, seed) => generator.generateOne(pointer, seed),
  };
}

function casesFor(operation: Operation, context: GenerateContext): Case[] | string {
  const { count, seed, auth } = context.options;
  // A 1xx is no final answer: an operation whose success is one switches to another protocol,
  // which HTTP cases cannot check (its declared errors alone say nothing of it).
  const switches = operation.responses.filter((r) => r.status.startsWith('1'));
  if (switches.length > 0 && !operation.responses.some((r) => /^[23]/.test(r.status))) {
    return (
      `its success is ${switches.map((r) => r.status).join(', ')} (a switch to another protocol, such as a ` +
      `WebSocket), which verify does not speak`
    );
  }
  const credentials = credentialsFor(operation, auth);
  if (!credentials.ok) return credentials.reason;
  const body = planBody(operation);
  if (!body.ok) return body.reason;
  const plan = body.plan;
  const draw = context.source.value;
  const filled = (parameter: ParameterSpec) => carriesCredentials(parameter, credentials.parts);
  const first = generateParameters(operation, draw, seed, context.document, true, filled, context.validators);
  if (!first.ok) return first.reason;
  // A singleton's one item (on the collection's own path: a search index, a Pages site) may not exist either.
  const binding = context.bindings.get(operation);
  const itemOperation =
    operation.parameters.some((p) => p.in === 'path') || (binding?.singleton === true && binding.role !== 'create');
  const varies = (plan !== undefined && drawsFromSchema(plan)) || operation.parameters.length > 0;
  const bodies =
    plan && drawsFromSchema(plan)
      ? uniqueKeys(context.source.valid(operation, count, seed, plan.content), operation, plan, context)
      : [];
  const base = `generated/${operation.id}`;
  const make = (id: string, name: string, request: FixtureRequest, expect: FixtureExpectation): Case => ({
    id: `${base}/${id}`,
    name: `${operation.id}: ${name}`,
    source: 'generated',
    steps: [{ name: 'request', request, expect, operationId: operation.id }],
  });
  // Without path parameters the request must succeed; with them the item may not exist (see the top). An operation
  // that declares no success at all (only errors: BigOven's image scan) gets what it declares, which the contract
  // checks hold it to.
  const declaresSuccess = operation.responses.some((r) => /^[23]|^default$/i.test(r.status));
  const validExpect: FixtureExpectation = itemOperation || !declaresSuccess ? {} : { status: successClass(operation) };
  const out: Case[] = [];
  for (let index = 0; index < (varies ? count : 1); index++) {
    // Optional parameters in the odd cases (1st, 3rd, ...), left out in the even ones.
    const parameters =
      index === 0
        ? first
        : generateParameters(
            operation,
            draw,
            seed + index,
            context.document,
            index % 2 === 0,
            filled,
            context.validators,
          );
    if (!parameters.ok) continue;
    const request = build(
      operation,
      parameters.parts,
      credentials.parts,
      plan,
      bodies[index % Math.max(bodies.length, 1)],
      seed + index,
      context.document,
    );
    out.push(
      make(
        `valid-${index + 1}`,
        validName(index + 1, itemOperation, plan !== undefined, operation.parameters.length > 0, seed),
        request,
        validExpect,
      ),
    );
  }
  const firstBody = bodies[0];
  // Written as text or XML a JSON value's breaks mostly vanish (every XML value is text): valid bodies only.
  if (plan && drawsFromSchema(plan) && plan.kind !== 'text' && plan.kind !== 'xml') {
    negativeBodies(
      context.source.invalid(operation, seed, plan.content),
      plan,
      operation.requestBody?.required === true,
    ).forEach((negative, index) => {
      const request =
        'rawBody' in negative
          ? {
              ...build(operation, first.parts, credentials.parts, undefined, undefined, seed, context.document),
              rawBody: negative.rawBody,
            }
          : build(operation, first.parts, credentials.parts, plan, negative.body, seed, context.document);
      out.push(
        make(
          `invalid-${index + 1}`,
          `rejects ${negative.description}`,
          {
            ...request,
            headers: {
              ...request.headers,
              'content-type': request.headers?.['content-type'] ?? plan.content.mediaType,
            },
          },
          { status: '4xx' },
        ),
      );
    });
  }
  for (const parameter of operation.parameters) {
    // A parameter that is also where the credentials go is the credentials' business (no-credentials below).
    // Accept, Content-Type and Authorization declared as header parameters are ignored (OpenAPI), by the mock too.
    if (!parameter.required || parameter.in === 'path' || filled(parameter) || isIgnoredHeader(parameter)) continue;
    const without = generateParameters(
      operation,
      draw,
      seed,
      context.document,
      true,
      (other) => other === parameter || filled(other),
      context.validators,
    );
    if (!without.ok) continue;
    const request = build(operation, without.parts, credentials.parts, plan, firstBody, seed, context.document);
    out.push(
      make(
        `missing-${parameter.in}-${parameter.name}`,
        `rejects a request without the required ${parameter.in} parameter "${parameter.name}"`,
        request,
        {
          status: '4xx',
        },
      ),
    );
  }
  const brokenCount = new Map<ParameterSpec, number>();
  for (const broken of brokenParameters(operation, context.validators, context.document, filled)) {
    const parts = withBrokenParameter(operation, broken, draw, seed, context.document, filled);
    if (!parts) continue;
    const { parameter } = broken;
    const n = (brokenCount.get(parameter) ?? 0) + 1;
    brokenCount.set(parameter, n);
    const request = build(operation, parts, credentials.parts, plan, firstBody, seed, context.document);
    out.push({
      ...make(
        `invalid-${parameter.in}-${parameter.name}-${n}`,
        `rejects the ${parameter.in} parameter "${parameter.name}" ${broken.rule} ` +
          `(${JSON.stringify(broken.value).slice(0, 40)})`,
        request,
        { status: '4xx' },
      ),
      probe: `${parameter.in} ${parameter.name}: ${broken.rule}`,
    });
  }
  if (hasCredentials(credentials.parts)) {
    const request = build(
      operation,
      first.parts,
      { headers: {}, query: {}, cookies: {} },
      plan,
      firstBody,
      seed,
      context.document,
    );
    out.push(
      make(
        'no-credentials',
        plan ? 'rejects a valid body without credentials' : 'rejects a request without credentials',
        request,
        { status: '4xx' },
      ),
    );
    const wrong = malformedCredentials(credentials.parts);
    if (wrong && !anyAuthorizationAccepted(operation, wrong))
      out.push(
        make(
          'wrong-credentials',
          'rejects malformed credentials',
          build(operation, first.parts, wrong, plan, firstBody, seed, context.document),
          { status: '4xx' },
        ),
      );
    const otherKey = otherApiKeys(credentials.parts);
    if (otherKey)
      out.push(
        make(
          'wrong-api-key',
          'rejects an API key it was not given (advice: the document cannot say which keys are right)',
          build(operation, first.parts, otherKey, plan, firstBody, seed, context.document),
          { status: '4xx', advisory: true },
        ),
      );
  }
  out.push(
    ...hostileCases(operation, {
      draw,
      seed,
      document: context.document,
      validators: context.validators,
      budget: context.options.hostile ?? 0,
      filled,
      build: (parts, body) => {
        const request = build(
          operation,
          parts ?? first.parts,
          credentials.parts,
          body ? undefined : plan,
          body ? undefined : firstBody,
          seed,
          context.document,
        );
        return body
          ? {
              ...request,
              headers: { ...request.headers, 'content-type': body.contentType ?? 'application/json' },
              rawBody: body.rawBody,
            }
          : request;
      },
      jsonBody:
        plan?.kind === 'json' && firstBody !== undefined
          ? { value: firstBody, mediaType: plan.content.mediaType, schemaPointer: plan.content.schemaPointer }
          : undefined,
    }),
  );
  return out;
}

/**
 * Credentials that are there but cannot be right: a bearer token of characters no token uses
 * (RFC 6750's b64token), a basic pair that is not base64, an API key (header, query or cookie)
 * that is empty. Undefined when no part can be broken (Digest and other schemes answer a challenge).
 */
/**
 * Whether another of the operation's security requirements accepts the malformed Authorization header as it is: an
 * apiKey scheme named Authorization takes any value (Gitea's `token ...`), so a server that answers 200 is right.
 */
function anyAuthorizationAccepted(operation: Operation, wrong: CredentialParts): boolean {
  if (!wrong.headers.authorization) return false;
  return operation.security.some(
    (requirement) =>
      requirement.length > 0 &&
      requirement.every(
        (scheme) =>
          scheme.type === 'apiKey' && scheme.in === 'header' && scheme.parameterName?.toLowerCase() === 'authorization',
      ),
  );
}

function malformedCredentials(parts: CredentialParts): CredentialParts | undefined {
  const wrong: CredentialParts = { headers: {}, query: {}, cookies: {} };
  let broken = false;
  for (const [name, value] of Object.entries(parts.headers)) {
    const malformed =
      name !== 'authorization'
        ? ''
        : value.startsWith('Basic ')
          ? 'Basic !!not-base64!!'
          : value.startsWith('Bearer ')
            ? 'Bearer !!not-a-token!!'
            : undefined;
    wrong.headers[name] = malformed ?? value;
    broken ||= malformed !== undefined;
  }
  for (const place of ['query', 'cookies'] as const)
    for (const name of Object.keys(parts[place])) {
      wrong[place][name] = '';
      broken = true;
    }
  return broken ? wrong : undefined;
}

/**
 * The credentials with every API key (header, query, cookie) replaced by one the run was not given;
 * undefined when the operation takes no API key. Which keys are right only the server knows (a mock
 * takes any), so this case is advice: it warns, and fails under --strict.
 */
function otherApiKeys(parts: CredentialParts): CredentialParts | undefined {
  const other = (value: string) =>
    value === 'plantstore-not-the-key' ? 'plantstore-not-this-key' : 'plantstore-not-the-key';
  const keys = Object.keys(parts.headers).filter((name) => name !== 'authorization');
  if (keys.length + Object.keys(parts.query).length + Object.keys(parts.cookies).length === 0) return undefined;
  const changed = (record: Record<string, string>, keep?: string) =>
    Object.fromEntries(Object.entries(record).map(([name, value]) => [name, name === keep ? value : other(value)]));
  return {
    headers: changed(parts.headers, 'authorization'),
    query: changed(parts.query),
    cookies: changed(parts.cookies),
  };
}

/**
 * The negative bodies that still break their rule once written as the media type: all of them in
 * JSON; in a form, where every value is text, only a dropped required field and a value out of
 * range (a wrong type such as "42" for a string would be valid text, and malformed JSON is no form).
 */
function negativeBodies<T extends { rule: string; pointer: string } & ({ body: JsonValue } | { rawBody: string })>(
  negatives: T[],
  plan: BodyPlan,
  bodyRequired: boolean,
): T[] {
  if (plan.kind === 'json') return negatives;
  // A form whose only field is dropped is an empty body, which an optional body may be (the mock agrees).
  const emptied = (negative: T) => !bodyRequired && 'body' in negative && isEmptyObject(negative.body);
  return negatives.filter(
    (negative) =>
      (negative.rule === 'required' &&
        !emptied(negative) &&
        !(plan.kind === 'urlencoded' && 'body' in negative && leavesEmptyParent(negative.body, negative.pointer))) ||
      negative.rule === 'range',
  );
}

const isEmptyObject = (value: JsonValue) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;

/**
 * True when the removed field was its object's only one: an empty object writes no pair in a
 * URL-encoded form, so the whole object is gone and (when it is optional) the form stays valid.
 */
function leavesEmptyParent(body: JsonValue, pointer: string): boolean {
  const tokens = pointer
    .split('/')
    .slice(1, -1)
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (tokens.length === 0) return false;
  let node: JsonValue | undefined = body;
  for (const token of tokens)
    node = node !== null && typeof node === 'object' ? (node as Record<string, JsonValue>)[token] : undefined;
  return node !== null && typeof node === 'object' && !Array.isArray(node) && Object.keys(node).length === 0;
}

/**
 * The class a valid request's answer must be in: 2xx, unless the operation's only successes are
 * redirects (an OAuth authorize endpoint declares 302 and 303), which are then its success.
 */
function successClass(operation: Operation): '2xx' | '3xx' {
  const classes = operation.responses.map((r) => r.status[0]);
  return !classes.includes('2') && classes.includes('3') ? '3xx' : '2xx';
}

/**
 * True when a security scheme puts its credential where this parameter goes (an API key declared as a parameter too).
 *
 */
function carriesCredentials(parameter: ParameterSpec, parts: CredentialParts): boolean {
  if (parameter.in === 'header') return Object.hasOwn(parts.headers, parameter.name.toLowerCase());
  return Object.hasOwn(parameter.in === 'query' ? parts.query : parts.cookies, parameter.name);
}

function validName(n: number, itemOperation: boolean, hasBody: boolean, hasParameters: boolean, seed: number): string {
  const what = hasBody ? `generated example ${n}` : hasParameters ? `generated parameters ${n}` : 'a request';
  if (itemOperation) return `answers ${what} as the document declares (seed ${seed}; the item may not exist)`;
  return hasBody || hasParameters ? `accepts ${what} (seed ${seed})` : 'accepts a request (generated)';
}

function build(
  operation: Operation,
  parameters: ParameterParts,
  credentials: CredentialParts,
  plan: BodyPlan | undefined,
  value: JsonValue | undefined,
  seed: number,
  document: unknown,
): FixtureRequest {
  const written = plan && writeBody(plan, value, seed, document);
  const request: FixtureRequest = {
    method: operation.method,
    path: parameters.path,
    ...(parameters.rawQuery.length > 0 && { rawQuery: parameters.rawQuery }),
    headers: { ...parameters.headers, ...(written && { 'content-type': written.contentType }) },
    ...(written && ('body' in written ? { body: written.body } : { rawBody: written.rawBody })),
  };
  return withCredentials(request, credentials);
}

/**
 * A create's key field (whatever its type) becomes run-unique, so neither a sequence nor a re-run meets "already
 * exists".
 */
function uniqueKeys(bodies: JsonValue[], operation: Operation, plan: BodyPlan, context: GenerateContext): JsonValue[] {
  if (plan.kind !== 'json') return bodies;
  const binding = context.bindings.get(operation);
  const field = binding?.role === 'create' ? binding.keyField : 'id';
  const type = binding?.role === 'create' ? binding.keyType : 'integer';
  const check = context.validators.at(plan.content.schemaPointer);
  return bodies.map((body) => withUniqueKey(body, field, type, binding ? `${binding.noun}-` : '', check));
}
