// Where every answer of the mock is decided: what an admitted request gets (`decision`, then
// `write`) and what a refused one gets (`error`). One place, so that a reader finds why any request
// got its status and body one hop from the engine's handle(), and so that answers, forced answers,
// refusals and webhook announcements cannot drift apart (one error shape, one negotiation, one
// check of every body against its schema). The rules live in their own modules, each one call from
// here. Deciding and writing are synchronous; what must wait (the generator's first load, Prism's
// forced choice, a durable write, a refit) is a step of its own, which the engine awaits only
// when it returns a promise.
import { stringifyJson, type JsonValue } from '../../json/exact-json.ts';
import type { Logger } from '../../log/logger.ts';
import type { LoadedSpec } from '../../document/loaded-spec.ts';
import { declaredStatuses, jsonContent, preferDeclared, type Operation } from '../../document/operations.ts';
import { withArticle } from '../../document/english.ts';
import type { ResourceBinding } from '../../document/resources.ts';
import type { StateStore, StoredRecord } from '../../state/store.ts';
import type { Validators } from '../../validation/validator.ts';
import type { HttpRequest } from '../../http/types.ts';
import { absentAnswer, absentItemWarnings } from './absent-items.ts';
import { createDeclaredAnswers, INVALID } from './declared-answers.ts';
import { documentAnswer } from './document-answer.ts';
import { generateBody, generateBodyLoaded } from './dynamic-body.ts';
import { createErrorBodies } from './error-bodies.ts';
import { createFieldMaker } from './field-maker.ts';
import { createForcedResponder, type ForcedChoice, type Preferences } from './forced-response.ts';
import { GeneratorLoading } from './generator-loading.ts';
import { keepFitting } from './keep-fitting.ts';
import type { MockOptions } from '../options.ts';
import type { BodyResult } from '../request/request-body.ts';
import { createResponder, type Reply, type Responder } from './responder.ts';
import { planServerFields } from './server-fields.ts';
import { applyState, type ListPage, type StateContext, type StateHooks, type StateResult } from './state-actions.ts';
import { createTombstones } from '../../state/tombstones.ts';
import { exampleOf } from './forced-response.ts';
import { pageEnvelope } from './list-envelope.ts';
import { itemLocation, noContent, successStatus, withHeader } from './operation-facts.ts';
import { declaredSuccess } from '../../document/operation-facts.ts';

/** An answer, and the record a successful change touched (for webhooks). */
export type StateReply = Reply & { changed?: StoredRecord };

/**
 * What a request gets, before it is written: a refusal (its status and why: a missing credential,
 * an invalid body, an unknown path, ...), a 406 (the declared types none of which Accept allows), a
 * forced answer, what a state action did (created, exists, full, absent, read,
 * listed, replaced, removed, ...: see StateResult), or the document's own answer.
 */
export type Decision =
  | {
      kind: 'refuse';
      request: HttpRequest;
      operation: Operation | undefined;
      status: number;
      message: string;
      headers?: Record<string, string>;
    }
  | { kind: 'not-acceptable'; request: HttpRequest; operation: Operation; declared: string[] }
  /** (`choice`: what Prism chose, filled in by `prepare` before the decision is written.) */
  | { kind: 'forced'; request: HttpRequest; operation: Operation; preferences: Preferences; choice?: ForcedChoice }
  | { kind: 'state'; context: StateContext; result: StateResult }
  | { kind: 'document'; request: HttpRequest; operation: Operation };

/** A request the engine admitted: the operation it routes to, and its parameters and body, read and checked. */
export interface Admitted {
  request: HttpRequest;
  operation: Operation;
  params: Record<string, string>;
  query: Record<string, JsonValue>;
  body: Extract<BodyResult, { ok: true }>;
}

/**
 * The steps of an answer, in the order the engine takes them. Each one that may wait returns a
 * promise only when it does (as a store's flush does); the others are synchronous.
 */
export interface Answers {
  /**
   * Loads what deciding needs first: the generator of the server-made fields a create or replace
   * fills (the first time only). Undefined when nothing is missing.
   */
  ready(admitted: Admitted, preferences: Preferences | undefined): Promise<void> | undefined;
  /**
   * What the request gets, as data: a 406, a forced answer, the REST state action (applied: what it
   * did is part of the decision), or the document's own answer.
   */
  decision(admitted: Admitted, store: StateStore, preferences: Preferences | undefined): Decision;
  /** Resolves once the state the decision changed is durable (a state file); undefined when nothing waits. */
  durable(decision: Decision, store: StateStore): Promise<void> | undefined;
  /** The decision with what writing it needs from elsewhere (Prism's forced choice); undefined when nothing. */
  prepare(decision: Decision): Promise<Decision> | undefined;
  /**
   * A decision written as an answer (a refusal built as data is written here too). `changed` holds
   * the record a change touched, for the engine to announce. Throws GeneratorLoading when the answer
   * needs a generated body before the generator is loaded: wait, and write again.
   */
  write(decision: Decision): StateReply;
  /** A written answer whose body does not fit its schema (`misfit`), generated anew. */
  refit(request: HttpRequest, reply: StateReply): Promise<StateReply>;
  /**
   * Every step above in turn, awaited: the answer to an admitted request, for a caller without the
   * engine and its fast path (a test).
   */
  decide(admitted: Admitted, store: StateStore, preferences: Preferences | undefined): Promise<StateReply>;
  /**
   * A decision prepared, written and refitted, awaited (decide is ready, decision, durable, then
   * reply): a shared store's decision is written so (decision-steps.ts).
   */
  reply(request: HttpRequest, decision: Decision): Promise<StateReply>;
  /**
   * An error answer in the document's error shape (every refusal and failure of the API): a `refuse` decision, written.
   */
  error(
    request: HttpRequest,
    operation: Operation | undefined,
    status: number,
    message: string,
    headers?: Record<string, string>,
  ): Reply;
  /** The document's error body as text, for answers given outside the engine (413, 408, the proxy's 502). */
  errorBody(status: number, message: string): string;
  /**
   * The Content-Type of errorBody's text: the error schema's JSON media type (`application/problem+json`), else
   * application/json.
   */
  errorType(status: number): string;
  /** A plain JSON answer outside the contract (the admin API). */
  raw: Responder['raw'];
  /** The numbering and the server-made fields of creates, shared with the admin API's seeds. */
  readonly hooks: StateHooks;
}

export interface AnswersSetup {
  spec: LoadedSpec;
  validators: Validators;
  logger: Logger;
  options: MockOptions;
  operations: Operation[];
  bindings: Map<Operation, ResourceBinding>;
}

/**
 * Builds the answers of one engine, once, before the first request.
 * @example
 * const answers = createAnswers(setup);
 * await answers.decide(admitted, store, readPreferences(admitted.request));
 */
export function createAnswers(setup: AnswersSetup): Answers {
  const { spec, validators, logger, options, operations, bindings } = setup;
  const document = spec.document;
  // Answers from the document; an error schema a status and a message cannot fill gets its example, else a generated
  // body.
  const declared = createDeclaredAnswers(spec, validators, logger, options);
  const errorBodies = createErrorBodies(document, operations, validators, declared.errorBase);
  const fallbackErrorStatus = operations.flatMap(declaredStatuses).find((s) => s >= 400 && s < 500) ?? 400;
  const writer = createResponder(spec, validators, errorBodies, logger, options);
  // Every error answer goes through here: --declared-only maps an undeclared status to a declared one.
  const fail: Responder['fail'] = (request, operation, status, message, headers) =>
    writer.fail(
      request,
      operation,
      options.declaredOnly ? declaredErrorStatus(operation, status, fallbackErrorStatus) : status,
      message,
      headers,
    );
  const responder: Responder = { ...writer, fail };
  const forcedResponder = createForcedResponder(spec);
  let keyCounter = 0;
  const nextKey = () => String(++keyCounter);
  // Absent items of operations without a 404 are answered from the document: said once, now.
  for (const warning of absentItemWarnings(bindings, options.absentItems)) logger.warn(warning);
  const hooks: StateHooks = {
    nextKey,
    serverFields: planServerFields(bindings, document),
    fields: createFieldMaker(spec, validators, options.seed),
    tombstones: createTombstones(),
  };

  async function decide(admitted: Admitted, store: StateStore, preferences: Preferences | undefined) {
    await ready(admitted, preferences);
    const decision = decideAs(admitted, store, preferences);
    await durable(decision, store);
    return replyTo(admitted.request, decision);
  }

  async function replyTo(request: HttpRequest, decision: Decision): Promise<StateReply> {
    const prepared = (await prepare(decision)) ?? decision;
    let reply: StateReply | undefined;
    while (reply === undefined) {
      try {
        reply = write(prepared);
      } catch (error) {
        if (!(error instanceof GeneratorLoading)) throw error;
        await error.loaded;
      }
    }
    // A body that does not fit its schema is never sent: it is generated anew (refit).
    return reply.misfit ? refit(request, reply) : reply;
  }

  function ready({ request, operation }: Admitted, preferences: Preferences | undefined) {
    // Only a state action fills server fields: a forced answer or a 406 loads nothing (as decideAs decides).
    const fields = hooks.serverFields.get(operation);
    if (fields === undefined || preferences || !bindings.has(operation) || notAcceptable(request, operation))
      return undefined;
    return hooks.fields.ready(fields);
  }

  function durable(decision: Decision, store: StateStore) {
    if (decision.kind !== 'state') return undefined;
    const { kind } = decision.result;
    return kind === 'created' || kind === 'replaced' || kind === 'removed' ? store.flush() : undefined;
  }

  function prepare(decision: Decision): Promise<Decision> | undefined {
    if (decision.kind !== 'forced' || decision.preferences.badCode !== undefined || decision.choice) return undefined;
    return forcedResponder(decision.operation, decision.preferences).then((choice) => ({ ...decision, choice }));
  }

  /** What the request gets, as data: the steps of the decision, in order, each with its why. */
  function decideAs(
    { request, operation, params, query, body }: Admitted,
    store: StateStore,
    preferences: Preferences | undefined,
  ): Decision {
    // Content negotiation before any change: a client that accepts none of the declared types gets 406 and changes
    // nothing.
    const declared = notAcceptable(request, operation);
    if (declared) return { kind: 'not-acceptable', request, operation, declared };
    // A forced response (Prefer / __code) is a what-if: it answers but changes no state.
    if (preferences) return { kind: 'forced', request, operation, preferences };
    // A REST convention (create, list, read, replace, merge, remove) answers from the state.
    const binding = bindings.get(operation);
    if (binding) {
      const context: StateContext = {
        request,
        operation,
        binding,
        body: body.value,
        mediaType: body.content?.mediaType,
        bodyText: body.text,
        bodyPlain: body.plain,
        params,
        query,
      };
      return { kind: 'state', context, result: applyState(store, context, hooks) };
    }
    // No state convention fits: answer as Prism would, with the first example or a generated body.
    return { kind: 'document', request, operation };
  }

  /** A decision written as an answer. */
  function write(decision: Decision): StateReply {
    switch (decision.kind) {
      case 'refuse':
        return fail(decision.request, decision.operation, decision.status, decision.message, decision.headers);
      case 'not-acceptable':
        return fail(
          decision.request,
          decision.operation,
          406,
          `Accept "${decision.request.headers.accept}" allows none of the media types ${decision.operation.id} ` +
            `answers with: ${decision.declared.join(', ')}`,
        );
      case 'forced':
        return forced(decision.request, decision.operation, decision.preferences, decision.choice);
      case 'state':
        return fromState(decision.context, decision.result);
      case 'document':
        return documentReply(decision.request, decision.operation);
    }
  }

  /** The media types a request's Accept allows none of (a 406), else undefined. */
  function notAcceptable(request: HttpRequest, operation: Operation): string[] | undefined {
    if (acceptsAnything(request.headers.accept)) return undefined;
    // --declared-only never answers an undeclared 406: it answers in a declared type instead (RFC 9110 §12.1 allows
    // ignoring Accept).
    if (options.declaredOnly && !declaredStatuses(operation).includes(406)) return undefined;
    const success = declaredSuccess(operation);
    if (success === undefined) return undefined;
    const chosen = responder.negotiate(request, operation, success);
    return chosen.kind === 'not-acceptable' ? chosen.declared : undefined;
  }

  /** What happened to state, as an answer: the one place a state change gets its status. */
  function fromState(context: StateContext, result: StateResult): StateReply {
    const { request, operation, binding } = context;
    const success = successStatus(operation);
    switch (result.kind) {
      case 'created': {
        const reply = itemReply(context, success, result.record, result.plain);
        reply.changed = result.record;
        if (binding.resource.location && reply.response.status < 300)
          reply.response = withHeader(reply.response, 'location', itemLocation(binding, context.params, result.key));
        return reply;
      }
      case 'exists':
        return responder.fail(
          request,
          operation,
          preferDeclared(operation, [409, 400, 422]),
          `${withArticle(binding.noun)} with ${binding.keyField ?? 'key'} ${result.key} already exists`,
        );
      case 'full':
        // 507 Insufficient Storage when declared, else the status the operation declares for a refused request.
        return responder.fail(request, operation, preferDeclared(operation, [507, 400, 422]), result.message);
      case 'mismatch':
        return responder.fail(request, operation, preferDeclared(operation, [400, 422]), result.message);
      case 'absent':
        return absent(request, operation, binding, result.key, result.deleted);
      case 'read':
        return itemReply(context, success, result.record);
      case 'listed':
        return listAnswer(context, result.page, success);
      case 'unread':
        return documentReply(request, operation);
      case 'replaced':
      case 'removed': {
        const reply = noContent(operation, success)
          ? responder.json(request, operation, success, undefined)
          : itemReply(context, success, result.record);
        return { ...reply, changed: result.record };
      }
    }
  }

  // A wrapped list (`{data: [...], has_more}`) or item (`{data: {...}}`): the document's own
  // envelope (its example, else one generated once per operation) with the stored page, or the
  // stored item, laid over it, and the page fields saying the truth.
  const envelopeBases = new Map<Operation, Record<string, JsonValue>>();
  function withEnvelope(
    operation: Operation,
    success: number,
    fill: (base: Record<string, JsonValue>) => StateReply,
  ): StateReply {
    let base = envelopeBases.get(operation);
    if (base === undefined) {
      base = envelopeBase(operation, success);
      envelopeBases.set(operation, base);
    }
    return fill(base);
  }

  function listAnswer(context: StateContext, page: ListPage, success: number): StateReply {
    const { request, operation, binding } = context;
    const envelope = binding.resource.listEnvelope;
    if (envelope === undefined) return responder.json(request, operation, success, page.records);
    return withEnvelope(operation, success, (base) =>
      responder.json(
        request,
        operation,
        success,
        pageEnvelope(base, envelope, page, binding.resource.paging, request) as JsonValue,
      ),
    );
  }

  /** One stored item as the answer: itself, or inside the field the operation's answer wraps it in. */
  function itemReply(context: StateContext, success: number, record: StoredRecord, plain?: boolean): StateReply {
    const { request, operation, binding } = context;
    const field = binding.answerEnvelope;
    if (field === undefined) return responder.json(request, operation, success, record, plain);
    return withEnvelope(operation, success, (base) =>
      responder.json(request, operation, success, { ...base, [field]: record }, plain),
    );
  }

  function envelopeBase(operation: Operation, success: number): Record<string, JsonValue> {
    const content = jsonContent(operation.responses.find((r) => r.status === String(success))?.contents ?? []);
    if (!content?.schema) return {};
    const example = exampleOf(content, undefined)?.value;
    if (isObject(example) && declared.exampleFits(content.schemaPointer, example))
      return example as Record<string, JsonValue>;
    let value: JsonValue;
    try {
      value = generateBodyLoaded(spec, validators, content.schemaPointer, options.seed, () => 0);
    } catch (error) {
      // (GeneratorLoading goes up, before anything is kept: the answer is written again once it is loaded.)
      if (error instanceof GeneratorLoading) throw error;
      return {};
    }
    return isObject(value) ? (value as Record<string, JsonValue>) : {};
  }

  // No stored item matched. A declared (or asked-for) 404 answers it; an item this mock deleted
  // gets a 404 even where none is declared (a real server never returns what it deleted), with a
  // Warning header saying so; an item never created is answered from the document.
  function absent(
    request: HttpRequest,
    operation: Operation,
    binding: ResourceBinding,
    key: string,
    deleted: boolean,
  ): StateReply {
    const message = binding.singleton
      ? `no ${binding.noun} at ${request.path}`
      : `no ${binding.noun} with ${binding.keyField ?? 'key'} ${key}`;
    if (absentAnswer(operation, options.absentItems) === '404') return responder.fail(request, operation, 404, message);
    if (deleted) {
      const why = `${message}: it was deleted; ${operation.id} declares no 404, and a deleted item is never answered`;
      // (--declared-only answers a declared 4xx instead, which needs no warning.)
      const warning =
        `299 plantstore "undeclared 404: ${operation.id} declares none, ` + `and the ${binding.noun} was deleted"`;
      return responder.fail(request, operation, 404, why, options.declaredOnly ? undefined : { warning });
    }
    const note = `${message} is stored; answered from the document, which declares no 404 for ${operation.id}`;
    const reply = documentReply(request, operation);
    return { ...reply, problems: [...(reply.problems ?? []), note] };
  }

  // No convention, no Prefer: the document's own answer (its lowest 2xx), in the negotiated media type.
  function documentReply(request: HttpRequest, operation: Operation): Reply {
    const { status } = documentAnswer(operation);
    if (status < 200) return cannotSwitch(request, operation, status);
    return declared.answer(responder, request, operation, status, { dynamic: false });
  }

  // A 1xx is never a final answer (RFC 9110 §15.2): a declared 101 is a switch to another protocol
  // (a WebSocket), which the mock does not speak; a 101 written as an HTTP answer breaks clients.
  function cannotSwitch(request: HttpRequest, operation: Operation, status: number): Reply {
    return responder.fail(
      request,
      operation,
      501,
      `${operation.id} answers ${status} (a switch to another protocol, such as a WebSocket); ` +
        'the mock answers HTTP only',
    );
  }

  function forced(
    request: HttpRequest,
    operation: Operation,
    preferences: Preferences,
    choice: ForcedChoice | undefined,
  ): Reply {
    if (preferences.badCode !== undefined)
      return responder.fail(
        request,
        operation,
        preferDeclared(operation, INVALID),
        `cannot force that response: ${preferences.forcedBy} is not an HTTP status ` +
          '(three digits from 100 to 599, e.g. code=404)',
      );
    if (choice === undefined) throw new Error(`plantstore bug: a forced answer of ${operation.id} written unprepared`);
    if (!choice.ok)
      return responder.fail(
        request,
        operation,
        preferDeclared(operation, INVALID),
        `cannot force that response: ${choice.message}`,
      );
    if (choice.status < 200) return cannotSwitch(request, operation, choice.status);
    return declared.answer(responder, request, operation, choice.status, preferences);
  }

  // A stored record or an example that does not fit the answer's schema (a create whose request
  // and answer have different shapes, as Asana's envelopes do): the answer is generated from the
  // schema instead, with every field of the record that still fits laid over it (keep-fitting.ts),
  // so the mock never answers what the contract forbids, and warns once.
  const misfitsWarned = new Set<string>();
  let refits = 0;
  async function refit(request: HttpRequest, reply: StateReply): Promise<StateReply> {
    const { misfit, operation } = reply;
    if (!misfit || !operation) return reply;
    const key = `${operation.id} ${misfit.status}`;
    if (!misfitsWarned.has(key) && misfitsWarned.size < 1000) {
      misfitsWarned.add(key);
      logger.warn(`${misfit.problem}; answering a generated body instead (state is kept as sent)`);
    }
    const value = await keepFitting(misfit.value, misfit.schemaPointer, document, validators, (pointer) =>
      generateBody(spec, validators, pointer, options.seed, refits++),
    );
    const again = responder.json(request, operation, misfit.status, value, false, misfit.mediaType);
    if (again.misfit)
      logger.error(`plantstore bug: ${again.misfit.problem}. Please report it with the document and the request.`);
    return { ...again, misfit: undefined, problems: reply.problems?.slice(1), changed: reply.changed };
  }

  return {
    ready,
    decision: decideAs,
    durable,
    prepare,
    write,
    refit,
    decide,
    reply: replyTo,
    // Every refusal is a decision too, written by the same step as the others.
    error: (request, operation, status, message, headers) =>
      write({ kind: 'refuse', request, operation, status, message, headers }),
    errorBody: (status, message) =>
      stringifyJson(errorBodies(undefined, status, message).body ?? { error: status, message }),
    errorType(status) {
      const answer = errorBodies(undefined, status, '');
      return answer.body !== undefined && isJsonType(answer.mediaType) ? answer.mediaType : 'application/json';
    },
    raw: responder.raw,
    hooks,
  };
}

function acceptsAnything(accept: string | undefined): boolean {
  return accept === undefined || accept === '*/*' || accept.trim() === '';
}

/** In --declared-only mode: the status itself when declared, else the operation's declared 4xx. */
function declaredErrorStatus(operation: Operation | undefined, status: number, fallback: number): number {
  if (!operation) return fallback;
  const declared = declaredStatuses(operation);
  if (declared.includes(status)) return status;
  return declared.find((s) => s === 400) ?? declared.find((s) => s >= 400 && s < 500) ?? fallback;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** errorBody writes JSON text: only a JSON media type can name it. */
const isJsonType = (mediaType: string) => /^application\/(?:[\w.+-]+\+)?json$/i.test(mediaType.split(';')[0].trim());
