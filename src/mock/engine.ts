// The mock engine: plain data in, plain data out, no socket. `respond` narrates one request from
// top to bottom; everything it consults (router, compiled validators, bindings, error templates)
// is built once, here, before the first request.
import { stringifyJson, type JsonValue } from '../json/exact-json.ts';
import { silentLogger, type Logger } from '../log/logger.ts';
import type { LoadedSpec } from '../document/loaded-spec.ts';
import { apiKeyNames, declaredStatuses, listOperations, preferDeclared, type Operation } from '../document/operations.ts';
import { createRouter } from '../document/router.ts';
import { createMemoryStore, type StateStore } from '../state/store.ts';
import { createValidators, formatIssues, type ValidationIssue, type Validators } from '../validation/validator.ts';
import { ADMIN_PREFIX, handleAdmin, type AdminContext } from './admin.ts';
import { createAdminAccess } from './admin-access.ts';
import { authenticate } from './auth.ts';
import { isPreflight, preflightResponse } from './cors.ts';
import { createDeclaredAnswers, INVALID } from './declared-answers.ts';
import { generateBody } from './dynamic-body.ts';
import { documentAnswer } from './document-answer.ts';
import { createErrorBodies } from './error-bodies.ts';
import { createForcedResponder, readPreferences, type Preferences } from './forced-response.ts';
import type { MockRequest, MockResponse } from '../http/types.ts';
import { createJournal, type Journal, type JournalRecord } from './journal.ts';
import { resolveMockOptions, type MockOptions } from './options.ts';
import { readParameters } from './parameters.ts';
import { readBody, type BodyResult } from './request-body.ts';
import { bindResources, type ResourceBinding } from '../document/resources.ts';
import { createResponder, type Outcome } from './responder.ts';
import { applyState, type StateHooks, type StateOutcome } from './state-actions.ts';
import { absentAnswer, absentItemWarnings } from './absent-items.ts';
import { createFieldMaker } from './field-maker.ts';
import { planServerFields } from './server-fields.ts';
import { createWebhooks, type Webhooks } from './webhooks.ts';
import { startWarmUp } from './warm-up.ts';
import { keepFitting } from './keep-fitting.ts';
import { scopedStore, tenantOf } from '../state/scoped-store.ts';

/** The request passed every check a server makes before acting, or the mock's refusal and why. */
export type Admission =
  | {
      ok: true;
      request: MockRequest;
      operation: Operation;
      params: Record<string, string>;
      query: Record<string, JsonValue>;
      body: Extract<BodyResult, { ok: true }>;
    }
  | { ok: false; code: AdmissionCode; outcome: Outcome; issues?: ValidationIssue[] };

/** Which check refused a request. */
export type AdmissionCode = 'no-operation' | 'method-not-allowed' | 'unauthorized' | 'invalid-parameter' | 'unsupported-media-type' | 'invalid-body';

const refused = (code: AdmissionCode, outcome: Outcome): Admission => ({ ok: false, code, outcome });

/** A value now, or later: the common request is answered synchronously, like a hand-written server. */
export type Eventually<T> = T | Promise<T>;

export interface MockEngine {
  /** Answers one request; never throws for any input. Synchronous unless it must wait (a durable write, a forced response). */
  handle(request: MockRequest): Eventually<MockResponse>;
  /** Runs the checks a server makes before it acts (route, security, parameters, body) without answering or changing state. */
  admit(request: MockRequest): Eventually<Admission>;
  /** The document's Error-shaped body for answers given outside the engine (413, 408). */
  errorBody(status: number, message: string): string;
  /**
   * Compiles every schema of the document in the background, one schema (or one cycle of schemas)
   * per turn of the event loop, so that a large document's operations are ready before their first
   * request without holding up start-up, a request or a signal for long; then writes the compiled
   * code to the cache, a short step per turn, so that the next start compiles nothing (warm-up.ts).
   * Returns a function that stops it.
   */
  warmUp(): () => void;
  readonly operations: Operation[];
  /** The document's compiled schemas, shared with whatever else judges payloads by it (the proxy). */
  readonly validators: Validators;
  /** The REST roles of the operations (create, list, read, ...), by operation. */
  readonly bindings: Map<Operation, ResourceBinding>;
  readonly store: StateStore;
  readonly journal: Journal;
  readonly webhooks: Webhooks;
}

export interface EngineSetup {
  spec: LoadedSpec;
  options?: Partial<MockOptions>;
  logger?: Logger;
  store?: StateStore;
}

/**
 * Builds a mock engine for a loaded document.
 * @example const engine = createMockEngine({ spec: await loadSpec() }); await engine.handle(request);
 */
export function createMockEngine(setup: EngineSetup): MockEngine {
  const { spec } = setup;
  const options = resolveMockOptions(setup.options);
  const logger = setup.logger ?? silentLogger;
  const store = setup.store ?? createMemoryStore({ maxBytes: options.maxStateBytes });
  const document = spec.document;
  const operations = listOperations(spec);
  const route = createRouter(operations);
  const declaredRoutes = operations.map((op) => `${op.method} ${op.path}`).join(', '); // for 404 messages
  // Schemas compile on an operation's first request, not here: GitHub's document has 1,200
  // operations, and compiling them all would hold up start-up for seconds. The loader has already
  // checked every schema against its meta-schema.
  const validators = createValidators(spec);
  validators.prepare();
  // Answers from the document; an error schema a status and a message cannot fill gets its example, else a generated body.
  const declared = createDeclaredAnswers(spec, validators, logger, options);
  const errorBodies = createErrorBodies(document, operations, validators, declared.errorBase);
  const fallbackErrorStatus = operations.flatMap(declaredStatuses).find((s) => s >= 400 && s < 500) ?? 400;
  const responder = createResponder(spec, validators, errorBodies, logger, options, fallbackErrorStatus);
  const bindings = bindResources(operations, document);
  const policy = { tokens: new Set(options.tokens) };
  // Header and query names of apiKey schemes are secrets too.
  const secretNames = apiKeyNames(operations);
  const journal = createJournal(options.journalSize, secretNames);
  const forcedResponder = createForcedResponder(spec);
  const webhooks = createWebhooks(spec, validators, logger, { url: options.webhookUrl, retries: options.webhookRetries, backoffMs: options.webhookBackoffMs });
  // --isolate-by token: one view of the store per token (named by the token's hash).
  const tenants = new Map<string, StateStore>();
  const tenantStore = (tenant: string | undefined) => {
    if (tenant === undefined) return store;
    let view = tenants.get(tenant);
    if (!view) {
      view = scopedStore(store, tenant);
      tenants.set(tenant, view);
    }
    return view;
  };
  const tenantOfToken = new Map<string, string>(); // a hash per token, not per request
  const storeFor = (request: MockRequest) => {
    if (options.isolateBy !== 'token') return store;
    const token = /^bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (token === undefined) return tenantStore('anonymous');
    let tenant = tenantOfToken.get(token);
    if (tenant === undefined) {
      tenant = tenantOf(token);
      if (tenantOfToken.size < 10_000) tenantOfToken.set(token, tenant);
    }
    return tenantStore(tenant);
  };
  let keyCounter = 0;
  const nextKey = () => String(++keyCounter);
  // Absent items of operations without a 404 are answered from the document: said once, now.
  for (const warning of absentItemWarnings(bindings, options.absentItems)) logger.warn(warning);
  const hooks: StateHooks = { nextKey, serverFields: planServerFields(bindings, document), fields: createFieldMaker(spec, validators, options.seed), absent };
  const adminAccess = createAdminAccess(options.host, options.adminToken);
  const admin: AdminContext = {
    title: document.info.title,
    version: document.info.version,
    operations,
    bindings,
    store,
    tenantStore,
    journal,
    validators,
    responder,
    webhooks,
    startedAt: Date.now(),
    hooks,
  };

  // Not async: most answers are ready at once, and the listener then writes them in the same tick.
  function respond(request: MockRequest): Eventually<Outcome> {
    // The admin API first: its prefix is reserved, so it never shadows the document (--no-admin frees it).
    if (options.admin && request.path.startsWith(ADMIN_PREFIX)) {
      const access = adminAccess(request);
      if (!access.ok)
        return {
          ...responder.raw(request, 401, { error: 401, message: access.message }, { 'www-authenticate': 'Bearer realm="plantstore-admin"' }),
          problems: [access.message],
        };
      return handleAdmin(request, admin);
    }
    // Preflights are the browser's, not the API's: answered for every path before routing.
    if (options.cors && isPreflight(request)) return { response: preflightResponse(request) };
    const admitted = admit(request);
    if (admitted instanceof Promise) return admitted.then(proceed);
    return proceed(admitted);
  }

  /**
   * Every check a server makes before it acts, and what the request asks for once it passes them:
   * route -> authenticate -> parameters -> body. The proxy runs these checks alone.
   */
  function admit(request: MockRequest): Eventually<Admission> {
    // HEAD without its own operation is GET without a body (RFC 9110).
    let routed = route(request.method, request.path);
    if (request.method === 'HEAD' && routed.kind !== 'operation') routed = route('GET', request.path);
    if (routed.kind === 'not-found')
      return refused('no-operation', responder.fail(request, undefined, 404, `no operation at ${request.path}; the document declares ${declaredRoutes}`));
    if (routed.kind === 'method-not-allowed')
      return refused(
        'method-not-allowed',
        responder.fail(request, undefined, 405, `${request.method} is not declared for ${request.path}; allowed: ${routed.allow.join(', ')}`, {
          allow: routed.allow.join(', '),
        }),
      );
    const { operation, params } = routed;
    // Security before anything else about the request, as a real server would.
    const auth = authenticate(operation.security, request, policy);
    if (!auth.ok) return refused('unauthorized', responder.fail(request, operation, 401, auth.message, { 'www-authenticate': auth.challenge }));
    const parameters = readParameters(operation, params, request, validators, document);
    if (!parameters.ok) return refused('invalid-parameter', responder.fail(request, operation, preferDeclared(operation, INVALID), parameters.message));
    // A multipart body is read by the platform's parser, which only answers later.
    const body = readBody(operation, request, options.maxDepth, document);
    if (body instanceof Promise) return body.then((read) => checkBody(request, operation, params, parameters.values, read));
    return checkBody(request, operation, params, parameters.values, body);
  }

  function checkBody(
    request: MockRequest,
    operation: Operation,
    params: Record<string, string>,
    query: Record<string, JsonValue>,
    body: BodyResult,
  ): Admission {
    if (!body.ok)
      return refused(
        body.status === 415 ? 'unsupported-media-type' : 'invalid-body',
        responder.fail(request, operation, body.status === 400 ? preferDeclared(operation, INVALID) : body.status, body.message),
      );
    if (body.value !== undefined && body.content?.schema !== undefined) {
      const result = validators.at(body.content.schemaPointer)(body.value, body.plain);
      if (!result.ok)
        return {
          ok: false,
          code: 'invalid-body',
          issues: result.issues,
          outcome: responder.fail(request, operation, preferDeclared(operation, INVALID), `invalid request body: ${formatIssues(result.issues)}`),
        };
    }
    return { ok: true, request, operation, params, query, body };
  }

  /** The rest of the pipeline, once the request is admitted: negotiate, then answer. */
  function proceed(admitted: Admission): Eventually<Outcome> {
    if (!admitted.ok) return admitted.outcome;
    const { request, operation, params, query, body } = admitted;
    // Content negotiation before any change: a client that accepts none of the declared types gets 406 and changes nothing.
    const unacceptable = responder.refuseUnacceptable(request, operation);
    if (unacceptable) return unacceptable;
    // A forced response (Prefer / __code) is a what-if: it answers but changes no state.
    const preferences = readPreferences(request);
    if (preferences) return forced(request, operation, preferences);
    const binding = bindings.get(operation);
    if (binding) {
      const outcome = applyState(
        storeFor(request),
        responder,
        { request, operation, binding, body: body.value, bodyText: body.text, bodyPlain: body.plain, params, query },
        hooks,
      );
      // (No function per request: the common answer is ready now, and only a change is announced.)
      if (outcome instanceof Promise) return outcome.then((done) => announced(binding, done));
      return announced(binding, outcome);
    }
    // No state convention fits: answer as Prism would, with the first example or a generated body.
    return documented(request, operation);
  }

  // No stored item matched: a declared (or asked-for) 404, else what the document answers.
  function absent(request: MockRequest, operation: Operation, binding: ResourceBinding, key: string): Eventually<StateOutcome> {
    const message = `no ${binding.noun} with ${binding.keyField ?? 'key'} ${key}`;
    if (absentAnswer(operation, options.absentItems) === '404') return responder.fail(request, operation, 404, message);
    const note = `${message} is stored; answered from the document, which declares no 404 for ${operation.id}`;
    return Promise.resolve(documented(request, operation)).then((outcome) => ({ ...outcome, problems: [...(outcome.problems ?? []), note] }));
  }

  function announced(binding: ResourceBinding, outcome: StateOutcome): StateOutcome {
    if (outcome.changed) webhooks.announce(binding, outcome.changed);
    return outcome;
  }

  // No convention, no Prefer: the document's own answer (its lowest 2xx), in the negotiated media type.
  function documented(request: MockRequest, operation: Operation): Eventually<Outcome> {
    const { status } = documentAnswer(operation);
    if (status < 200) return cannotSwitch(request, operation, status);
    return declared.answer(responder, request, operation, status, { dynamic: false });
  }

  // A 1xx is never a final answer (RFC 9110 §15.2): a declared 101 is a switch to another protocol
  // (a WebSocket), which the mock does not speak; a 101 written as an HTTP answer breaks clients.
  function cannotSwitch(request: MockRequest, operation: Operation, status: number): Outcome {
    return responder.fail(
      request,
      operation,
      501,
      `${operation.id} answers ${status} (a switch to another protocol, such as a WebSocket); the mock answers HTTP only`,
    );
  }

  async function forced(request: MockRequest, operation: Operation, preferences: Preferences): Promise<Outcome> {
    if (preferences.badCode !== undefined)
      return responder.fail(
        request,
        operation,
        preferDeclared(operation, INVALID),
        `cannot force that response: ${preferences.forcedBy} is not an HTTP status (three digits from 100 to 599, e.g. code=404)`,
      );
    const choice = await forcedResponder(operation, preferences);
    if (!choice.ok) return responder.fail(request, operation, preferDeclared(operation, INVALID), `cannot force that response: ${choice.message}`);
    if (choice.status < 200) return cannotSwitch(request, operation, choice.status);
    return declared.answer(responder, request, operation, choice.status, preferences);
  }

  function record(request: MockRequest, outcome: Outcome, started: number): void {
    const durationMs = performance.now() - started;
    const time = Date.now();
    const { status } = outcome.response;
    const operationId = outcome.operation?.id;
    // One note for both: the log formats its line from it at once; the journal keeps it as it is
    // and redacts and formats it when the entry is read.
    const noted: JournalRecord = {
      time,
      method: request.method,
      path: request.path,
      query: request.query,
      status,
      durationMs,
      operationId,
      headers: request.headers,
      problems: outcome.problems,
    };
    logger.request(noted);
    // The journal is for the API's traffic; admin calls would crowd it out.
    if (options.journalSize !== 0 && !(options.admin && request.path.startsWith(ADMIN_PREFIX))) journal.add(noted);
  }

  // Only a bug gets here; the client still gets a well-formed answer.
  const bug = (request: MockRequest, error: unknown): Outcome => {
    logger.error(`plantstore bug while answering ${request.method} ${request.path}: ${(error as Error).stack ?? String(error)}`);
    return responder.fail(request, undefined, 500, 'internal mock error; see the mock log');
  };
  // A stored record or an example that does not fit the answer's schema (a create whose request
  // and answer have different shapes, as Asana's envelopes do): the answer is generated from the
  // schema instead, with every field of the record that still fits laid over it (keep-fitting.ts),
  // so the mock never answers what the contract forbids, and warns once.
  const misfitsWarned = new Set<string>();
  let refits = 0;
  const refit = async (request: MockRequest, outcome: Outcome): Promise<Outcome> => {
    const { misfit, operation } = outcome;
    if (!misfit || !operation) return outcome;
    const key = `${operation.id} ${misfit.status}`;
    if (!misfitsWarned.has(key) && misfitsWarned.size < 1000) {
      misfitsWarned.add(key);
      logger.warn(`${misfit.problem}; answering a generated body instead (state is kept as sent)`);
    }
    const value = await keepFitting(misfit.value, misfit.schemaPointer, document, validators, (pointer) =>
      generateBody(spec, validators, pointer, options.seed, refits++),
    );
    const again = responder.json(request, operation, misfit.status, value, false, misfit.mediaType);
    if (again.misfit) logger.error(`plantstore bug: ${again.misfit.problem}. Please report it with the document and the request.`);
    return { ...again, misfit: undefined, problems: outcome.problems?.slice(1), changed: (outcome as StateOutcome).changed } as Outcome;
  };
  const finish = (request: MockRequest, outcome: Outcome, started: number): MockResponse => {
    record(request, outcome, started);
    return request.method === 'HEAD' ? { ...outcome.response, body: undefined } : outcome.response;
  };

  return {
    handle(request) {
      const started = performance.now();
      let outcome: Eventually<Outcome>;
      try {
        outcome = respond(request);
      } catch (error) {
        outcome = bug(request, error);
      }
      if (!(outcome instanceof Promise) && outcome.misfit) outcome = refit(request, outcome);
      if (outcome instanceof Promise) {
        return outcome
          .then((done) => (done.misfit ? refit(request, done) : done))
          .then(
            (answer) => finish(request, answer, started),
            (error) => finish(request, bug(request, error), started),
          );
      }
      return finish(request, outcome, started);
    },
    warmUp: () => startWarmUp(spec, operations, validators),
    admit,
    errorBody: (status, message) => stringifyJson(errorBodies(undefined, status, message).body ?? { error: status, message }),
    operations,
    validators,
    bindings,
    store,
    journal,
    webhooks,
  };
}
