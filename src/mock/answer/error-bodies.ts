// Builds the Error-shaped body of every error answer from the document's own error schema, so
// a 401 or 404 looks exactly like the declared 400 ({"error": 401, "message": "..."} here). A
// status declared without content gets no body; a schema that a status and a message cannot
// fill gets a valid body of its own shape (error-filler.ts), never an invalid one.
import { reasonPhrase } from '../../platform/host.ts';
import type { JsonValue } from '../../json/exact-json.ts';
import {
  findResponse,
  jsonContent,
  perOperationStatus,
  type MediaContent,
  type Operation,
} from '../../document/operations.ts';
import type { Validators, SchemaCheck } from '../../validation/validator.ts';
import { objectShape, resolveSchema } from '../../document/schema-shape.ts';
import { fillBase, MESSAGE_NAMES, STATUS_NAMES } from './error-filler.ts';
import { negotiateContent } from './media-negotiation.ts';

interface ErrorTemplate {
  statusProperty?: string;
  /** When the status property is a string in the schema, the status is written as text. */
  statusAsText: boolean;
  messageProperty?: string;
  /** A `title` besides the message property gets the HTTP reason phrase. */
  titleProperty?: string;
  /** Fixed fillers for other required properties. */
  extras: Record<string, JsonValue>;
  check?: SchemaCheck;
  /**
   * A valid body to write the status and message into, when the fields above cannot make one (null: none could be
   * made).
   */
  base?: JsonValue | null;
}

export interface ErrorAnswer {
  status: number;
  /** Undefined when the document declares the status without content. */
  body: JsonValue | undefined;
  /** False when the body could not be made valid against a declared schema (a document issue). */
  valid: boolean;
  /** The declared media type of the error schema (application/json when none is declared). */
  mediaType: string;
  /** The schema the body was made for, for writing it in a non-JSON media type. */
  schema?: unknown;
  /** False when the body may hold a bigint (a generated base), which plain JSON.stringify cannot write. */
  plain?: boolean;
}

export interface ErrorBodies {
  /**
   * The error answer of an operation (undefined: a routing miss) for a status, in the content the Accept header
   * prefers.
   */
  (operation: Operation | undefined, status: number, message: string, accept?: string): ErrorAnswer;
  /** The error body of one declared content already negotiated (a forced error answer, `default` included). */
  inContent(content: MediaContent, mediaType: string, status: number, message: string): ErrorAnswer;
}

/** A valid value of the schema at a pointer (its example or a generated one), or undefined when none can be made. */
export type BaseValue = (content: MediaContent) => JsonValue | undefined;

/** Prepares one template per error schema of the document, on its first use. */
export function createErrorBodies(
  document: unknown,
  operations: Operation[],
  validators: Validators,
  baseValue?: BaseValue,
): ErrorBodies {
  const templates = new Map<string, ErrorTemplate>();
  const templateFor = (content: MediaContent): ErrorTemplate => {
    let template = templates.get(content.schemaPointer);
    if (!template) {
      template = buildTemplate(content, document, validators);
      templates.set(content.schemaPointer, template);
    }
    return template;
  };
  // For answers no operation owns (unknown paths): a declared error response for that status
  // (a 404's content for a routing miss), else the first operation's main error content.
  const fallbackFor = (status: number): MediaContent[] | undefined => {
    for (const op of operations) {
      const declared = op.responses.find(
        (r) => r.status === String(status) && r.contents.some((c) => c.schema !== undefined),
      );
      if (declared) return withSchema(declared.contents);
    }
    return operations.map((op) => errorContents(op)).find((c) => c !== undefined);
  };
  const fallbacks = new Map<number, MediaContent[] | undefined>();

  // Which contents answer (operation, status) are fixed by the document: looked up once per pair.
  const contentsFor = perOperationStatus(errorContents);

  const inContent: ErrorBodies['inContent'] = (content, mediaType, status, message) => {
    const template = templateFor(content);
    const body = templatedBody(template, status, message);
    // Status, message, title and the fillers above: never a bigint, so the check needs no projection.
    if (!template.check || template.check(body, true).ok)
      return { status, body, valid: true, mediaType, schema: content.schema };
    // Made on the first misfit only: generating a body loads the example generator.
    if (template.base === undefined) template.base = (baseValue && baseValue(content)) ?? null;
    if (template.base !== null)
      return {
        status,
        body: fillBase(template.base, template.check, status, message),
        valid: true,
        mediaType,
        schema: content.schema,
        plain: false,
      };
    return { status, body, valid: false, mediaType, schema: content.schema };
  };

  const errorBodies = (
    operation: Operation | undefined,
    status: number,
    message: string,
    accept?: string,
  ): ErrorAnswer => {
    let contents = operation && contentsFor(operation, status);
    if (contents !== undefined && contents.length === 0)
      return { status, body: undefined, valid: true, mediaType: 'application/json' };
    if (contents === undefined) {
      if (!fallbacks.has(status)) fallbacks.set(status, fallbackFor(status));
      contents = fallbacks.get(status);
    }
    const chosen = contents ? negotiateContent(contents, accept, true) : undefined;
    if (chosen?.kind !== 'content')
      return { status, body: { error: status, message }, valid: true, mediaType: 'application/json' };
    return inContent(chosen.content, chosen.mediaType, status, message);
  };
  return Object.assign(errorBodies, { inContent });
}

/**
 * The contents that answer an error status: those of the response declared for it (exactly or by
 * class; [] when declared without content), else those of the operation's main error response;
 * undefined when the operation declares no error schema.
 */
function errorContents(operation: Operation, status?: number): MediaContent[] | undefined {
  const declared = status === undefined ? undefined : findResponse(operation, status);
  if (declared && declared.status !== 'default') return withSchema(declared.contents);
  // A `default` declared without content is the contract for this status too: no body.
  if (declared && declared.contents.length === 0) return [];
  const errors = operation.responses.filter((r) => /^[45]/.test(r.status) || r.status === 'default');
  const preferred = errors.find((r) => r.status === '400') ?? errors.find((r) => r.status.startsWith('4')) ?? errors[0];
  const contents = preferred && withSchema(preferred.contents);
  return contents && contents.length > 0 ? contents : undefined;
}

/** The declared contents with a schema, JSON ones first; a content without a schema is kept only when none has one. */
function withSchema(contents: MediaContent[]): MediaContent[] {
  const schematic = contents.filter((c) => c.schema !== undefined);
  if (schematic.length === 0) return contents;
  const json = jsonContent(schematic);
  return json ? [json, ...schematic.filter((c) => c !== json)] : schematic;
}

function buildTemplate(content: MediaContent, document: unknown, validators: Validators): ErrorTemplate {
  if (content.schema === undefined) return { statusAsText: false, extras: {} };
  const shape = objectShape(content.schema, document);
  const typeOf = (name: string) => {
    const s = resolveSchema(shape.properties.get(name), document);
    return Array.isArray(s?.type) ? s.type : [s?.type];
  };
  const statusProperty = STATUS_NAMES.find(
    (n) => shape.properties.has(n) && typeOf(n).some((t) => t === 'integer' || t === 'number' || t === 'string'),
  );
  const messageProperty = MESSAGE_NAMES.find(
    (n) => n !== statusProperty && shape.properties.has(n) && typeOf(n).includes('string'),
  );
  const statusAsText =
    statusProperty !== undefined && !typeOf(statusProperty).some((t) => t === 'integer' || t === 'number');
  const titleProperty =
    messageProperty !== 'title' && shape.properties.has('title') && typeOf('title').includes('string')
      ? 'title'
      : undefined;
  const extras: Record<string, JsonValue> = {};
  for (const name of shape.required) {
    if (name === statusProperty || name === messageProperty || name === titleProperty) continue;
    const type = typeOf(name)[0];
    // A problem details `type` (RFC 9457 §4.2.1) is a URI: about:blank says "no more than the status".
    const text = name === 'type' ? 'about:blank' : 'error';
    extras[name] =
      type === 'integer' || type === 'number'
        ? 0
        : type === 'boolean'
          ? false
          : type === 'array'
            ? []
            : type === 'object'
              ? {}
              : text;
  }
  return {
    statusProperty,
    statusAsText,
    messageProperty,
    titleProperty,
    extras,
    check: validators.at(content.schemaPointer),
  };
}

/**
 * The body a template makes: its status, message and title fields over the fillers; {error, message} when it names
 * neither.
 */
function templatedBody(template: ErrorTemplate, status: number, message: string): JsonValue {
  if (!template.statusProperty && !template.messageProperty) return { error: status, message };
  const body: Record<string, JsonValue> = { ...template.extras };
  if (template.statusProperty) body[template.statusProperty] = template.statusAsText ? String(status) : status;
  if (template.messageProperty) body[template.messageProperty] = message;
  // RFC 9457 problem details: the title is the short summary, the detail the message.
  if (template.titleProperty) body[template.titleProperty] = reasonPhrase(status) ?? 'Error';
  return body;
}
