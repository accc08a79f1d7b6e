// Turns answers into MockResponses, the one place that does: picks the declared media type the
// request accepts, cuts bodies down to what its schema declares, checks them against it (a
// failure is a mock bug, logged loudly), writes them in that media type, maps statuses in
// --declared-only mode, and adds the CORS headers.
import { stringifyJson, type JsonValue } from '../json/exact-json.ts';
import type { Logger } from '../log/logger.ts';
import { declaredStatuses, findResponse, perOperationStatus, type MediaContent, type Operation, type ResponseSpec } from '../document/operations.ts';
import type { LoadedSpec } from '../document/loaded-spec.ts';
import { formatIssues, type SchemaCheck, type Validators } from '../validation/validator.ts';
import { corsHeaders } from './cors.ts';
import type { ErrorBodies } from './error-bodies.ts';
import type { MockRequest, MockResponse } from '../http/types.ts';
import { encodeBody, mediaKind } from './media-bodies.ts';
import { negotiateContent, type Negotiated } from './media-negotiation.ts';
import { declaredPicker, type Picker } from '../document/schema-shape.ts';

export interface Outcome {
  response: MockResponse;
  operation?: Operation;
  /** Why the request was refused, for logs and the journal. */
  problems?: string[];
  /** Which of the engine's checks refused it, and the JSON pointers of what it found (the journal's). */
  refusal?: { check: string; pointers: string[] };
  /**
   * The value meant for the answer (a stored record, an example) does not fit the declared
   * schema; `response` is then a 500 the engine replaces with a generated valid body.
   */
  misfit?: { status: number; schemaPointer: string; mediaType: string; problem: string; value: JsonValue };
}

export interface Responder {
  /**
   * A declared success or forced answer, in the declared media type the request accepts (`mediaType`
   * when the caller already chose one): the body is cut to the schema, checked and written in that
   * type. `plain`: the value is known to hold no bigint.
   */
  json(request: MockRequest, operation: Operation, status: number, value: JsonValue | undefined, plain?: boolean, mediaType?: string): Outcome;
  /** The declared content that answers a status for this request's Accept header; `lenient` never refuses. */
  negotiate(request: MockRequest, operation: Operation, status: number, lenient?: boolean): Negotiated;
  /** The 406 for a request whose Accept header allows none of the media types its success answer declares, else undefined. */
  refuseUnacceptable(request: MockRequest, operation: Operation): Outcome | undefined;
  /** An error answer with the document's Error shape. */
  fail(request: MockRequest, operation: Operation | undefined, status: number, message: string, headers?: Record<string, string>): Outcome;
  /** A declared error status answered on purpose (a forced one): the document's error shape in the content already negotiated, saying why. */
  declaredError(request: MockRequest, operation: Operation, status: number, message: string, mediaType: string, content: MediaContent): Outcome;
  /** A plain JSON answer outside the contract (the admin API). */
  raw(request: MockRequest, status: number, value: unknown, headers?: Record<string, string>): Outcome;
}

interface ContentPlan {
  pick: Picker | undefined;
  check: SchemaCheck | undefined;
}

interface ResponderOptions {
  cors: boolean;
  declaredOnly: boolean;
}

const NO_CONTENT: MediaContent[] = [];

/** Builds the responder of one engine. */
export function createResponder(
  spec: LoadedSpec,
  validators: Validators,
  errorBodies: ErrorBodies,
  logger: Logger,
  options: ResponderOptions,
  fallbackErrorStatus: number,
): Responder {
  const document = spec.document;
  const corsCache = new Map<string, Record<string, string>>();
  // Most answers carry only a content type: one frozen headers object per type, shared.
  const plainHeaders = new Map<string | undefined, Record<string, string>>();
  const headersFor = (request: MockRequest, contentType: string | undefined, extra?: Record<string, string>) => {
    const origin = options.cors ? request.headers.origin : undefined;
    if (origin === undefined && extra === undefined) {
      let plain = plainHeaders.get(contentType);
      if (!plain) {
        plain = Object.freeze<Record<string, string>>(contentType ? { 'content-type': contentType } : {});
        if (plainHeaders.size < 64) plainHeaders.set(contentType, plain);
      }
      return plain;
    }
    let base: Record<string, string> = {};
    if (origin !== undefined) {
      base = corsCache.get(origin) ?? corsHeaders(origin);
      if (corsCache.size < 256) corsCache.set(origin, base);
    }
    return { ...base, ...(contentType ? { 'content-type': contentType } : {}), ...extra };
  };

  const bug = (request: MockRequest, operation: Operation | undefined, what: string): Outcome => {
    logger.error(`plantstore bug: ${what}. Please report it with the document and the request.`);
    const { body } = errorBodies(operation, 500, `the mock produced an answer the document does not allow: ${what}`);
    return { response: { status: 500, headers: headersFor(request, 'application/json'), body: stringifyJson(body) }, operation, problems: [what] };
  };

  // The declared response of an operation and status, and each content's picker and check: fixed by the document, worked out once.
  const responseFor = perOperationStatus((operation, status): ResponseSpec | undefined => findResponse(operation, status));
  const plans = new WeakMap<MediaContent, ContentPlan>();
  const planOf = (content: MediaContent): ContentPlan => {
    let plan = plans.get(content);
    if (!plan) {
      const hasSchema = content.schema !== undefined;
      plan = { pick: hasSchema ? declaredPicker(content.schema, document) : undefined, check: hasSchema ? validators.at(content.schemaPointer) : undefined };
      plans.set(content, plan);
    }
    return plan;
  };

  const negotiate: Responder['negotiate'] = (request, operation, status, lenient = false) =>
    negotiateContent(responseFor(operation, status)?.contents ?? NO_CONTENT, request.headers.accept, lenient);

  const json: Responder['json'] = (request, operation, status, value, plain, mediaType) => {
    const chosen =
      mediaType === undefined ? negotiate(request, operation, status, true) : chosenContent(responseFor(operation, status)?.contents ?? NO_CONTENT, mediaType);
    if (chosen.kind !== 'content' || (value === undefined && mediaKind(chosen.mediaType) !== 'binary')) {
      return { response: { status, headers: headersFor(request, undefined) }, operation };
    }
    const { content } = chosen;
    const fitted = fit(content, value, plain);
    if (!fitted.ok) {
      const what = `${operation.id} ${status} body fails ${content.schemaPointer}: ${fitted.problem}`;
      const { body } = errorBodies(operation, 500, `the mock produced an answer the document does not allow: ${what}`);
      const misfit = { status, schemaPointer: content.schemaPointer, mediaType: chosen.mediaType, problem: what, value: value as JsonValue };
      return { response: { status: 500, headers: headersFor(request, 'application/json'), body: stringifyJson(body) }, operation, problems: [what], misfit };
    }
    const body = fitted.body;
    const encoded = encodeBody(body, chosen.mediaType, content.schema, document, plain);
    return { response: { status, headers: headersFor(request, encoded.contentType), body: encoded.body }, operation };
  };

  /**
   * The value cut to what the content declares, checked. A schema may require a property it does
   * not declare (`required: [key]` without `key` in `properties`): when the cut value fails and
   * the whole one passes, the whole one is the answer.
   */
  const fit = (
    content: MediaContent,
    value: JsonValue | undefined,
    plain?: boolean,
  ): { ok: true; body: JsonValue | undefined } | { ok: false; problem: string } => {
    const plan = planOf(content);
    if (value === undefined || plan.check === undefined) return { ok: true, body: value };
    const body = plan.pick === undefined ? value : (plan.pick(value) as JsonValue);
    const check = plan.check(body, plain);
    if (check.ok) return { ok: true, body };
    if (body !== value && plan.check(value, plain).ok) return { ok: true, body: value };
    return { ok: false, problem: formatIssues(check.issues) };
  };

  const refuseUnacceptable: Responder['refuseUnacceptable'] = (request, operation) => {
    if (acceptsAnything(request.headers.accept)) return undefined;
    // --declared-only never answers an undeclared 406: it answers in a declared type instead (RFC 9110 §12.1 allows ignoring Accept).
    if (options.declaredOnly && !declaredStatuses(operation).includes(406)) return undefined;
    const success = lowestSuccess(operation);
    if (success === undefined) return undefined;
    const chosen = negotiate(request, operation, success);
    if (chosen.kind !== 'not-acceptable') return undefined;
    return fail(
      request,
      operation,
      406,
      `Accept "${request.headers.accept}" allows none of the media types ${operation.id} answers with: ${chosen.declared.join(', ')}`,
    );
  };

  const fail: Responder['fail'] = (request, operation, status, message, headers) => {
    const answerStatus = options.declaredOnly ? declaredErrorStatus(operation, status, fallbackErrorStatus) : status;
    const answer = errorBodies(operation, answerStatus, message, request.headers.accept);
    if (!answer.valid)
      logger.warn(
        `the error schema of ${operation?.id ?? 'the document'} cannot be filled with a status and a message, and no valid body of it could be made; answering one that does not fit it`,
      );
    if (answer.body === undefined)
      return { response: { status: answerStatus, headers: headersFor(request, undefined, headers) }, operation, problems: [message] };
    // A templated error body holds a status, a message and fillers: never a bigint, so plain JSON.stringify.
    const encoded = encodeBody(answer.body, answer.mediaType, answer.schema, document, answer.plain ?? true);
    return {
      response: { status: answerStatus, headers: headersFor(request, encoded.contentType, headers), body: encoded.body },
      operation,
      problems: [message],
    };
  };

  // Through json(): the body is cut, checked and written like any declared answer (a misfit is regenerated by the engine).
  const declaredError: Responder['declaredError'] = (request, operation, status, message, mediaType, content) => {
    const answer = errorBodies.inContent(content, mediaType, status, message);
    return json(request, operation, status, answer.body, answer.plain ?? true, mediaType);
  };

  const raw: Responder['raw'] = (request, status, value, headers) => ({
    response: {
      status,
      headers: headersFor(request, value === undefined ? undefined : 'application/json', headers),
      body: value === undefined ? undefined : stringifyJson(value, 2),
    },
  });

  return { json, negotiate, refuseUnacceptable, fail, declaredError, raw };
}

function acceptsAnything(accept: string | undefined): boolean {
  return accept === undefined || accept === '*/*' || accept.trim() === '';
}

/** The content a caller already negotiated, by its answer media type. */
function chosenContent(contents: MediaContent[], mediaType: string): Negotiated {
  const content = contents.find((c) => c.mediaType === mediaType) ?? contents.find((c) => c.mediaType.includes('*'));
  return content ? { kind: 'content', content, mediaType } : { kind: 'none' };
}

/** The status a request answered without a forced choice gets: the lowest declared 2xx. */
function lowestSuccess(operation: Operation): number | undefined {
  const statuses = declaredStatuses(operation).filter((s) => s >= 200 && s < 300);
  return statuses.length === 0 ? undefined : Math.min(...statuses);
}

/** In --declared-only mode: the status itself when declared, else the operation's declared 4xx. */
function declaredErrorStatus(operation: Operation | undefined, status: number, fallback: number): number {
  if (!operation) return fallback;
  const declared = declaredStatuses(operation);
  if (declared.includes(status)) return status;
  return declared.find((s) => s === 400) ?? declared.find((s) => s >= 400 && s < 500) ?? fallback;
}
