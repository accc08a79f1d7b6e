// Turns answers into MockResponses, the one place that does: picks the declared media type the
// request accepts, cuts bodies down to what its schema declares, checks them against it (a
// failure is a mock bug, logged loudly), writes them in that media type, and adds the CORS
// headers. It writes the status it is given and never chooses one: answers.ts decides (the 406,
// the --declared-only mapping included).
import { stringifyJson, type JsonValue } from '../../json/exact-json.ts';
import type { Logger } from '../../log/logger.ts';
import {
  findResponse,
  perOperationStatus,
  type MediaContent,
  type Operation,
  type ResponseSpec,
} from '../../document/operations.ts';
import type { LoadedSpec } from '../../document/loaded-spec.ts';
import { formatIssues, type SchemaCheck, type Validators } from '../../validation/validator.ts';
import { corsHeaders } from '../request/cors.ts';
import type { ErrorBodies } from './error-bodies.ts';
import type { HttpRequest, HttpAnswer } from '../../http/types.ts';
import { encodeBody, mediaKind } from './media-bodies.ts';
import { negotiateContent, type Negotiated } from './media-negotiation.ts';
import { declaredPicker, type Picker } from '../../document/schema-shape.ts';

export interface Reply {
  response: HttpAnswer;
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
  json(
    request: HttpRequest,
    operation: Operation,
    status: number,
    value: JsonValue | undefined,
    plain?: boolean,
    mediaType?: string,
  ): Reply;
  /** The declared content that answers a status for this request's Accept header; `lenient` never refuses. */
  negotiate(request: HttpRequest, operation: Operation, status: number, lenient?: boolean): Negotiated;
  /** An error answer with the document's Error shape. */
  fail(
    request: HttpRequest,
    operation: Operation | undefined,
    status: number,
    message: string,
    headers?: Record<string, string>,
  ): Reply;
  /**
   * A declared error status answered on purpose (a forced one): the document's error shape in the content already
   * negotiated, saying why.
   */
  declaredError(
    request: HttpRequest,
    operation: Operation,
    status: number,
    message: string,
    mediaType: string,
    content: MediaContent,
  ): Reply;
  /** A plain JSON answer outside the contract (the admin API). */
  raw(request: HttpRequest, status: number, value: unknown, headers?: Record<string, string>): Reply;
}

interface ContentPlan {
  pick: Picker | undefined;
  check: SchemaCheck | undefined;
}

interface ResponderOptions {
  cors: boolean;
}

const NO_CONTENT: MediaContent[] = [];

/** Builds the responder of one engine. */
export function createResponder(
  spec: LoadedSpec,
  validators: Validators,
  errorBodies: ErrorBodies,
  logger: Logger,
  options: ResponderOptions,
): Responder {
  const document = spec.document;
  const corsCache = new Map<string, Record<string, string>>();
  // Most answers carry only a content type: one frozen headers object per type, shared.
  const plainHeaders = new Map<string | undefined, Record<string, string>>();
  const headersFor = (request: HttpRequest, contentType: string | undefined, extra?: Record<string, string>) => {
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

  const bug = (request: HttpRequest, operation: Operation | undefined, what: string): Reply => {
    logger.error(`plantstore bug: ${what}. Please report it with the document and the request.`);
    const { body } = errorBodies(operation, 500, `the mock produced an answer the document does not allow: ${what}`);
    return {
      response: { status: 500, headers: headersFor(request, 'application/json'), body: stringifyJson(body) },
      operation,
      problems: [what],
    };
  };

  // The declared response of an operation and status, and each content's picker and check: fixed by the document,
  // worked out once.
  const responseFor = perOperationStatus((operation, status): ResponseSpec | undefined =>
    findResponse(operation, status),
  );
  const plans = new WeakMap<MediaContent, ContentPlan>();
  const planOf = (content: MediaContent): ContentPlan => {
    let plan = plans.get(content);
    if (!plan) {
      const hasSchema = content.schema !== undefined;
      plan = {
        pick: hasSchema ? declaredPicker(content.schema, document) : undefined,
        check: hasSchema ? validators.at(content.schemaPointer) : undefined,
      };
      plans.set(content, plan);
    }
    return plan;
  };

  const negotiate: Responder['negotiate'] = (request, operation, status, lenient = false) =>
    negotiateContent(responseFor(operation, status)?.contents ?? NO_CONTENT, request.headers.accept, lenient);

  const json: Responder['json'] = (request, operation, status, value, plain, mediaType) => {
    const chosen =
      mediaType === undefined
        ? negotiate(request, operation, status, true)
        : chosenContent(responseFor(operation, status)?.contents ?? NO_CONTENT, mediaType);
    if (chosen.kind !== 'content' || (value === undefined && mediaKind(chosen.mediaType) !== 'binary')) {
      // Text declared without a schema or an example (Mercure's text/event-stream) is still that text, if empty: the
      // answer says its type. An empty body is no JSON, XML or form, so those go without one.
      const text =
        chosen.kind === 'content' && mediaKind(chosen.mediaType) === 'text' && !chosen.mediaType.includes('*')
          ? chosen.mediaType
          : undefined;
      return { response: { status, headers: headersFor(request, text), ...(text ? { body: '' } : {}) }, operation };
    }
    const { content } = chosen;
    const fitted = fit(content, value, plain);
    if (!fitted.ok) {
      const what = `${operation.id} ${status} body fails ${content.schemaPointer}: ${fitted.problem}`;
      const { body } = errorBodies(operation, 500, `the mock produced an answer the document does not allow: ${what}`);
      const misfit = {
        status,
        schemaPointer: content.schemaPointer,
        mediaType: chosen.mediaType,
        problem: what,
        value: value as JsonValue,
      };
      return {
        response: { status: 500, headers: headersFor(request, 'application/json'), body: stringifyJson(body) },
        operation,
        problems: [what],
        misfit,
      };
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

  const fail: Responder['fail'] = (request, operation, status, message, headers) => {
    const answerStatus = status;
    const answer = errorBodies(operation, answerStatus, message, request.headers.accept);
    if (!answer.valid)
      logger.warn(
        `the error schema of ${operation?.id ?? 'the document'} cannot be filled with a status and a message, and ` +
          `no valid body of it could be made; answering one that does not fit it`,
      );
    if (answer.body === undefined)
      return {
        response: { status: answerStatus, headers: headersFor(request, undefined, headers) },
        operation,
        problems: [message],
      };
    // A templated error body holds a status, a message and fillers: never a bigint, so plain JSON.stringify.
    const encoded = encodeBody(answer.body, answer.mediaType, answer.schema, document, answer.plain ?? true);
    return {
      response: {
        status: answerStatus,
        headers: headersFor(request, encoded.contentType, headers),
        body: encoded.body,
      },
      operation,
      problems: [message],
    };
  };

  // Through json(): the body is cut, checked and written like any declared answer (a misfit is regenerated by the
  // engine).
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

  return { json, negotiate, fail, declaredError, raw };
}

/** The content a caller already negotiated, by its answer media type. */
function chosenContent(contents: MediaContent[], mediaType: string): Negotiated {
  const content = contents.find((c) => c.mediaType === mediaType) ?? contents.find((c) => c.mediaType.includes('*'));
  return content ? { kind: 'content', content, mediaType } : { kind: 'none' };
}
