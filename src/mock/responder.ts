// Turns answers into MockResponses, the one place that does: cuts bodies down to what the
// response schema declares, checks them against it (a failure is a mock bug, logged loudly),
// maps statuses in --declared-only mode, and adds the CORS headers.
import { stringifyJson, type JsonValue } from '../json/exact-json.ts';
import type { Logger } from '../log/logger.ts';
import { declaredStatuses, findResponse, jsonContent, perOperationStatus, type MediaContent, type Operation } from '../spec/operations.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';
import { formatIssues, type SchemaCheck, type Validators } from '../validation/validator.ts';
import { corsHeaders } from './cors.ts';
import type { ErrorBodies } from './error-bodies.ts';
import type { MockRequest, MockResponse } from './http-types.ts';
import { declaredPicker, type Picker } from '../spec/schema-shape.ts';

export interface Outcome {
  response: MockResponse;
  operation?: Operation;
  /** Why the request was refused, for logs and the journal. */
  problems?: string[];
}

export interface Responder {
  /** A declared success or forced answer: the body is cut to the schema and checked. `plain`: the value is known to hold no bigint. */
  json(request: MockRequest, operation: Operation, status: number, value: JsonValue | undefined, plain?: boolean): Outcome;
  /** An error answer with the document's Error shape. */
  fail(request: MockRequest, operation: Operation | undefined, status: number, message: string, headers?: Record<string, string>): Outcome;
  /** A plain JSON answer outside the contract (the admin API). */
  raw(request: MockRequest, status: number, value: unknown): Outcome;
}

interface AnswerPlan {
  /** The declared JSON content of the answer, if any. */
  content: MediaContent | undefined;
  pick: Picker | undefined;
  check: SchemaCheck | undefined;
  contentType: string | undefined;
}

interface ResponderOptions {
  cors: boolean;
  declaredOnly: boolean;
}

/** Builds the responder of one engine. */
export function createResponder(spec: LoadedSpec, validators: Validators, errorBodies: ErrorBodies, logger: Logger, options: ResponderOptions, fallbackErrorStatus: number): Responder {
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

  // What answering an operation with a status takes, worked out on its first answer and kept.
  const planFor = perOperationStatus((operation, status): AnswerPlan => {
    const declared = findResponse(operation, status);
    const content = declared && jsonContent(declared.contents);
    const hasSchema = content?.schema !== undefined;
    return {
      content,
      pick: hasSchema ? declaredPicker(content.schema, document) : undefined,
      check: hasSchema ? validators.at(content.schemaPointer) : undefined,
      contentType: content && contentTypeOf(content.mediaType),
    };
  });

  const json: Responder['json'] = (request, operation, status, value, plain) => {
    const plan = planFor(operation, status);
    if (value === undefined || !plan.content) {
      return { response: { status, headers: headersFor(request, undefined) }, operation };
    }
    const body = plan.pick === undefined ? value : (plan.pick(value) as JsonValue);
    const check = plan.check?.(body, plain);
    if (check && !check.ok) return bug(request, operation, `${operation.id} ${status} body fails ${plan.content.schemaPointer}: ${formatIssues(check.issues)}`);
    return { response: { status, headers: headersFor(request, plan.contentType), body: plain ? JSON.stringify(body) : stringifyJson(body) }, operation };
  };

  const fail: Responder['fail'] = (request, operation, status, message, headers) => {
    const answerStatus = options.declaredOnly ? declaredErrorStatus(operation, status, fallbackErrorStatus) : status;
    const answer = errorBodies(operation, answerStatus, message);
    if (!answer.valid) logger.warn(`the error schema of ${operation?.id ?? 'the document'} cannot be filled with a status and a message; answering {error, message}`);
    // An error body holds a status, a message and fillers: never a bigint, so plain JSON.stringify.
    return { response: { status: answerStatus, headers: headersFor(request, answer.mediaType, headers), body: JSON.stringify(answer.body) }, operation, problems: [message] };
  };

  const raw: Responder['raw'] = (request, status, value) => ({
    response: { status, headers: headersFor(request, value === undefined ? undefined : 'application/json'), body: value === undefined ? undefined : stringifyJson(value, 2) },
  });

  return { json, fail, raw };
}

function contentTypeOf(mediaType: string): string {
  return mediaType.includes('*') ? 'application/json' : mediaType;
}

/** In --declared-only mode: the status itself when declared, else the operation's declared 4xx. */
function declaredErrorStatus(operation: Operation | undefined, status: number, fallback: number): number {
  if (!operation) return fallback;
  const declared = declaredStatuses(operation);
  if (declared.includes(status)) return status;
  return declared.find((s) => s === 400) ?? declared.find((s) => s >= 400 && s < 500) ?? fallback;
}
