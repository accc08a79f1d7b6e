// The mock engine: plain data in, plain data out, no socket. `step` narrates one request from top
// to bottom: admin API, preflight, the checks a server makes before it acts (admit), then the
// answer, which is decided in one place, answers.ts, so that a reader finds it one hop from here.
// Deciding and writing are synchronous; `handle` is the one function that waits, and only for a
// step that returned a promise (a multipart body, a load, a durable write, a shared store).
// Everything it consults (router, compiled validators, bindings, error templates) is built once,
// here, before the first request; the engine also keeps the log, the journal and the webhooks.
import type { JsonValue } from '../json/exact-json.ts';
import { silentLogger, type Logger } from '../log/logger.ts';
import type { LoadedSpec } from '../document/loaded-spec.ts';
import { apiKeyNames, listOperations, preferDeclared, type Operation } from '../document/operations.ts';
import { createRouter } from '../document/router.ts';
import { NO_CONTENT_STATUSES } from '../document/operation-facts.ts';
import { brokenOperations } from '../document/schema-types.ts';
import { createMemoryStore, type StateStore } from '../state/store.ts';
import { createValidators, formatIssues, type ValidationIssue, type Validators } from '../validation/validator.ts';
import { ADMIN_PREFIX, handleAdmin, type AdminContext } from './admin/admin.ts';
import { createAdminAccess } from './admin/admin-access.ts';
import { createEngineState, type EngineState } from './admin/state-api.ts';
import { createAnswers, type Admitted, type Decision, type StateReply } from './answer/answers.ts';
import { GeneratorLoading } from './answer/generator-loading.ts';
import { authenticate } from './request/auth.ts';
import { bearerToken } from './request/bearer-token.ts';
import { isPreflight, preflightResponse } from './request/cors.ts';
import { INVALID } from './answer/declared-answers.ts';
import { readPreferences, type Preferences } from './answer/forced-response.ts';
import type { HttpRequest, HttpAnswer } from '../http/types.ts';
import { createJournal, type Journal, type JournalRecord } from './admin/journal.ts';
import { resolveMockOptions, type MockOptions } from './options.ts';
import { readParameters } from './request/parameters.ts';
import { readRequestBody, type BodyResult } from './request/request-body.ts';
import { buildResourceMap, type Resource, type ResourceBinding } from '../document/resources.ts';
import type { Reply } from './answer/responder.ts';
import { createWebhooks, type Webhooks } from './webhooks.ts';
import { startWarmUp } from './warm-up.ts';
import { scopedStore, tenantOf } from '../state/scoped-store.ts';
import { StateUnavailableError } from '../state/state-unavailable.ts';
import { createDecisionSteps, type Once } from './decision-steps.ts';
import { idempotencyKeyOf, type IdempotencyKey } from './idempotency.ts';

/** A value now, or later: the common request is answered synchronously, like a hand-written server. */
export type Eventually<T> = T | Promise<T>;

/**
 * The request passed every check a server makes before acting, or the mock's refusal and why (said by answers.error).
 *
 */
export type Admission =
  ({ ok: true } & Admitted) | { ok: false; code: AdmissionCode; reply: Reply; issues?: ValidationIssue[] };

/** Which check refused a request. */
export type AdmissionCode =
  | 'broken-schema'
  | 'no-operation'
  | 'method-not-allowed'
  | 'unauthorized'
  | 'invalid-parameter'
  | 'unsupported-media-type'
  | 'invalid-body';

const refused = (code: AdmissionCode, reply: Reply): Extract<Admission, { ok: false }> => ({ ok: false, code, reply });

/** A request that passed the checks before its body. */
interface Checked {
  ok: true;
  operation: Operation;
  params: Record<string, string>;
  query: Record<string, JsonValue>;
}

/** Where a request is in the engine's steps, and what the steps before it found. */
interface Flow {
  request: HttpRequest;
  started: number;
  step: 'start' | 'body' | 'decide' | 'prepare' | 'prepared' | 'write' | 'written' | 'kept' | 'answered' | 'done';
  checked: Checked | undefined;
  admitted: Admitted | undefined;
  preferences: Preferences | undefined;
  own: StateStore | undefined;
  key: IdempotencyKey | undefined;
  /** A key reserved (or unkept) and not kept yet: released if the request fails before it is answered. */
  once: Once | undefined;
  decision: Decision | undefined;
  reply: Reply | undefined;
}

export interface MockEngine {
  /**
   * Answers one request; never throws for any input. Synchronous unless it must wait (a durable write, a forced
   * response).
   */
  handle(request: HttpRequest): Eventually<HttpAnswer>;
  /**
   * Runs the checks a server makes before it acts (route, security, parameters, body) without answering or changing
   * state.
   */
  admit(request: HttpRequest): Promise<Admission>;
  /** The document's Error-shaped body for answers given outside the engine (413, 408). */
  errorBody(status: number, message: string): string;
  /** The Content-Type of errorBody's text (`application/problem+json` for problem details). */
  errorType(status: number): string;
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
  /**
   * The document's collections: kept or answered from the document, keys, list envelopes, paging (`spec --resources`
   * prints them).
   */
  readonly resources: Resource[];
  readonly store: StateStore;
  /** List, seed and reset the state (one tenant's, named by its hash, with --isolate-by token). */
  readonly state: EngineState;
  readonly journal: Journal;
  readonly webhooks: Webhooks;
}

export interface EngineSetup {
  spec: LoadedSpec;
  options?: Partial<MockOptions>;
  logger?: Logger;
  store?: StateStore;
  /** The journal to keep (a reloaded document's engine keeps the one before it). */
  journal?: Journal;
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
  const brokenBy = brokenOperations(operations, spec.badTypes ?? [], document);
  const declaredRoutes = operations.map((op) => `${op.method} ${op.path}`).join(', '); // for 404 messages
  // Schemas compile on an operation's first request, not here: GitHub's document has 1,200
  // operations, and compiling them all would hold up start-up for seconds. The loader has already
  // checked every schema against its meta-schema.
  const validators = createValidators(spec);
  validators.prepare();
  // The resource map, worked out once: which collections keep state, and what each operation does to them.
  const { resources, bindings } = buildResourceMap(operations, document);
  const policy = { tokens: new Set(options.tokens) };
  // Header and query names of apiKey schemes are secrets too.
  const secretNames = apiKeyNames(operations);
  const journal = setup.journal ?? createJournal(options.journalSize, secretNames);
  if (setup.journal) journal.redactAlso(secretNames);
  const webhooks = createWebhooks(spec, validators, logger, {
    url: options.webhookUrl,
    retries: options.webhookRetries,
    backoffMs: options.webhookBackoffMs,
  });
  // --isolate-by token: one view of the store per token (named by the token's hash). Views and
  // hashes are kept for the first 10,000 tokens only: a client that sends a new token each time
  // must not grow the heap (a view is cheap to make again).
  const KEPT_TOKENS = 10_000;
  const tenants = new Map<string, StateStore>();
  const tenantStore = (tenant: string | undefined) => {
    if (tenant === undefined) return store;
    let view = tenants.get(tenant);
    if (!view) {
      view = scopedStore(store, tenant);
      if (tenants.size < KEPT_TOKENS) tenants.set(tenant, view);
    }
    return view;
  };
  const tenantOfToken = new Map<string, string>(); // a hash per token, not per request
  const tenantFor = (request: HttpRequest) => {
    if (options.isolateBy !== 'token') return undefined;
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) return 'anonymous';
    let tenant = tenantOfToken.get(token);
    if (tenant === undefined) {
      tenant = tenantOf(token);
      if (tenantOfToken.size < KEPT_TOKENS) tenantOfToken.set(token, tenant);
    }
    return tenant;
  };
  // Every answer, refusals included, is decided there (answers.ts).
  const answers = createAnswers({ spec, validators, logger, options, operations, bindings });
  const state = createEngineState({ store, tenantStore, bindings, validators, hooks: answers.hooks });
  // The steps of deciding that wait or run again: on Redis, and with an Idempotency-Key.
  const steps = createDecisionSteps({ answers, store, tenantFor, tenantStore, announced });
  const adminAccess = createAdminAccess(options.host, options.adminToken);
  const admin: AdminContext = {
    title: document.info.title,
    version: document.info.version,
    operations,
    bindings,
    resources,
    state,
    journal,
    validators,
    answers,
    webhooks,
    startedAt: Date.now(),
  };

  /**
   * One step of a request, in order: admin API or preflight; the checks before the body (route,
   * security, parameters); the body (a multipart body waits) and its check; the key of a repeat;
   * what deciding needs loaded; the decision; its durability; what writing it needs (Prism's forced
   * choice); the answer written (when its body needs the generator first: wait, write again); a
   * misfit refitted; the key kept; the change announced. Returns what the next step takes, a
   * promise when it must wait: handle awaits it, and only then (fast path: see performance.md §10.20).
   */
  function step(flow: Flow, input: unknown): unknown {
    const { request } = flow;
    switch (flow.step) {
      case 'start': {
        flow.step = 'answered';
        // The admin API first: its prefix is reserved, so it never shadows the document (--no-admin frees it).
        if (options.admin && request.path.startsWith(ADMIN_PREFIX)) {
          const access = adminAccess(request);
          if (access.ok) return handleAdmin(request, admin);
          return {
            ...answers.raw(
              request,
              401,
              { error: 401, message: access.message },
              { 'www-authenticate': 'Bearer realm="plantstore-admin"' },
            ),
            problems: [access.message],
          };
        }
        // Preflights are the browser's, not the API's: answered for every path before routing.
        if (options.cors && isPreflight(request)) return { response: preflightResponse(request) };
        // The checks a server makes before it acts; a multipart body is read by the platform's parser, which waits.
        const checked = check(request);
        if (!checked.ok) return refusal(checked);
        flow.checked = checked;
        flow.step = 'body';
        return readRequestBody(checked.operation, request, options.maxDepth, document);
      }
      case 'body': {
        const admitted = checkBody(request, flow.checked!, input as BodyResult);
        if (!admitted.ok) {
          flow.step = 'answered';
          return refusal(admitted);
        }
        const preferences = readPreferences(request);
        const key = idempotencyKeyOf(request);
        // A store across a socket (Redis): decided against a view of it, then committed (decision-steps.ts).
        if (store.shared) {
          flow.step = 'answered';
          return steps.shared(admitted, preferences, key);
        }
        const tenant = tenantFor(request);
        const own = tenant === undefined ? store : tenantStore(tenant);
        // An Idempotency-Key: a repeat gets the kept answer; a new key keeps the answer it leads to.
        if (key !== undefined) {
          const once = steps.reserve(admitted, own, key);
          if (once.kind === 'answered') {
            flow.step = 'answered';
            return once.reply;
          }
          flow.key = key;
          flow.once = once;
        }
        flow.admitted = admitted;
        flow.preferences = preferences;
        flow.own = own;
        flow.step = 'decide';
        // What deciding needs loaded first (the generator of server-made fields, once).
        return answers.ready(admitted, preferences);
      }
      case 'decide':
        flow.decision = answers.decision(flow.admitted!, flow.own!, flow.preferences);
        flow.step = 'prepare';
        // The state it changed is durable before it is answered (a state file).
        return answers.durable(flow.decision, flow.own!);
      case 'prepare':
        flow.step = 'prepared';
        return answers.prepare(flow.decision!);
      case 'prepared':
        if (input !== undefined) flow.decision = input as Decision;
        flow.step = 'write';
        return undefined;
      case 'write': {
        let reply: StateReply;
        try {
          reply = answers.write(flow.decision!);
        } catch (error) {
          // The body must be generated, and the generator is still loading: written again once it is.
          if (error instanceof GeneratorLoading) return error.loaded;
          throw error;
        }
        flow.step = 'written';
        // A body that does not fit its schema is never sent: it is generated anew (refit).
        return reply.misfit ? answers.refit(request, reply) : reply;
      }
      case 'written': {
        const reply = input as StateReply;
        flow.reply = reply;
        flow.step = 'kept';
        if (flow.once === undefined) return undefined;
        // A new key keeps its answer (deciding is done: a failure from here on no longer frees the key).
        const once = flow.once;
        flow.once = undefined;
        return steps.kept(flow.own!, flow.key!, once, reply);
      }
      case 'kept':
        // (Only a change is announced.)
        announced(flow.reply as StateReply);
        flow.step = 'done';
        return undefined;
      case 'answered':
        flow.reply = input as Reply;
        flow.step = 'done';
        return undefined;
    }
    return undefined;
  }

  // A refused request gets the error its check described; which check refused it goes to the journal with the
  // pointers (the /__mock/ page says it).
  const refusal = (refused: Extract<Admission, { ok: false }>): Reply => ({
    ...refused.reply,
    refusal: { check: refused.code, pointers: refused.issues?.map((issue) => issue.pointer) ?? [] },
  });

  /**
   * Every check a server makes before it acts, and what the request asks for once it passes them:
   * route -> authenticate -> parameters -> body. The proxy runs these checks alone.
   */
  async function admit(request: HttpRequest): Promise<Admission> {
    const checked = check(request);
    if (!checked.ok) return checked;
    return checkBody(request, checked, await readRequestBody(checked.operation, request, options.maxDepth, document));
  }

  /** The checks before the body: route -> authenticate -> parameters. */
  function check(request: HttpRequest): Checked | Extract<Admission, { ok: false }> {
    // HEAD without its own operation is GET without a body (RFC 9110).
    let routed = route(request.method, request.path, request);
    if (request.method === 'HEAD' && routed.kind !== 'operation') routed = route('GET', request.path, request);
    if (routed.kind === 'not-found')
      return refused(
        'no-operation',
        answers.error(
          request,
          undefined,
          404,
          `no operation at ${request.path}; the document declares ${declaredRoutes}`,
        ),
      );
    if (routed.kind === 'method-not-allowed')
      return refused(
        'method-not-allowed',
        answers.error(
          request,
          undefined,
          405,
          `${request.method} is not declared for ${request.path}; allowed: ${routed.allow.join(', ')}`,
          {
            allow: routed.allow.join(', '),
          },
        ),
      );
    const { operation, params } = routed;
    // A schema the document got wrong (a `type` that names no JSON type): said at load, and here.
    const broken = brokenBy.get(operation);
    if (broken !== undefined)
      return refused(
        'broken-schema',
        answers.error(request, operation, 500, `the mock cannot answer ${operation.id}: ${broken}`),
      );
    // Security before anything else about the request, as a real server would.
    const auth = authenticate(operation.security, request, policy);
    if (!auth.ok)
      return refused(
        'unauthorized',
        answers.error(request, operation, 401, auth.message, { 'www-authenticate': auth.challenge }),
      );
    const parameters = readParameters(operation, params, request, validators, document);
    if (!parameters.ok)
      return refused(
        'invalid-parameter',
        answers.error(request, operation, preferDeclared(operation, INVALID), parameters.message),
      );
    return { ok: true, operation, params, query: parameters.values };
  }

  function checkBody(request: HttpRequest, { operation, params, query }: Checked, body: BodyResult): Admission {
    if (!body.ok)
      return refused(
        body.status === 415 ? 'unsupported-media-type' : 'invalid-body',
        answers.error(
          request,
          operation,
          body.status === 400 ? preferDeclared(operation, INVALID) : body.status,
          body.message,
        ),
      );
    if (body.value !== undefined && body.content?.schema !== undefined) {
      const result = validators.at(body.content.schemaPointer)(body.value, body.plain);
      if (!result.ok)
        return {
          ok: false,
          code: 'invalid-body',
          issues: result.issues,
          reply: answers.error(
            request,
            operation,
            preferDeclared(operation, INVALID),
            `invalid request body: ${formatIssues(result.issues)}`,
          ),
        };
    }
    return { ok: true, request, operation, params, query, body };
  }

  function announced(reply: StateReply): StateReply {
    if (reply.changed) webhooks.announce(bindings.get(reply.operation!)!, reply.changed);
    return reply;
  }

  function record(request: HttpRequest, reply: Reply, started: number): void {
    const durationMs = performance.now() - started;
    const time = Date.now();
    const { status } = reply.response;
    const operationId = reply.operation?.id;
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
      problems: reply.problems,
      refusal: reply.refusal,
      fault: request.fault,
    };
    logger.request(noted);
    // The journal is for the API's traffic; admin calls would crowd it out.
    if (options.journalSize !== 0 && !(options.admin && request.path.startsWith(ADMIN_PREFIX))) journal.add(noted);
  }

  // Only a bug gets here, or a store that lives elsewhere and is away (503: nothing was stored);
  // the client still gets a well-formed answer.
  const bug = (request: HttpRequest, error: unknown): Reply => {
    if (error instanceof StateUnavailableError)
      return answers.error(request, undefined, 503, error.message, { 'retry-after': '1' });
    logger.error(
      `plantstore bug while answering ${request.method} ${request.path}: ${(error as Error).stack ?? String(error)}`,
    );
    return answers.error(request, undefined, 500, 'internal mock error; see the mock log');
  };
  const finish = (request: HttpRequest, reply: Reply, started: number): HttpAnswer => {
    record(request, reply, started);
    const { response } = reply;
    return request.method === 'HEAD' || (NO_CONTENT_STATUSES.has(response.status) && response.body !== undefined)
      ? { ...response, body: undefined }
      : response;
  };

  /** The one function that waits: it runs the steps, and awaits one only when it returned a promise. */
  function advance(flow: Flow, input: unknown): Eventually<HttpAnswer> {
    try {
      while (flow.step !== 'done') {
        input = step(flow, input);
        if (input instanceof Promise)
          return input.then(
            (value) => advance(flow, value),
            (error) => failed(flow, error),
          );
      }
    } catch (error) {
      return failed(flow, error);
    }
    return finish(flow.request, flow.reply!, flow.started);
  }

  const failed = (flow: Flow, error: unknown): HttpAnswer => {
    // A key reserved for a request that failed before it was answered is free again.
    if (flow.once?.kind === 'reserved') steps.release(flow.own!, flow.key!);
    return finish(flow.request, bug(flow.request, error), flow.started);
  };

  return {
    handle(request) {
      const flow: Flow = {
        request,
        started: performance.now(),
        step: 'start',
        checked: undefined,
        admitted: undefined,
        preferences: undefined,
        own: undefined,
        key: undefined,
        once: undefined,
        decision: undefined,
        reply: undefined,
      };
      return advance(flow, undefined);
    },
    warmUp: () => startWarmUp(spec, operations, validators),
    admit,
    errorBody: answers.errorBody,
    errorType: answers.errorType,
    operations,
    validators,
    bindings,
    resources,
    store,
    state,
    journal,
    webhooks,
  };
}
