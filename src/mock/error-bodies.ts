// Builds the Error-shaped body of every error answer from the document's own error schema, so
// a 401 or 404 looks exactly like the declared 400 ({"error": 401, "message": "..."} here).
import { http } from '../http/node-http.ts';
import type { JsonValue } from '../json/exact-json.ts';
import { findResponse, jsonContent, perOperationStatus, type MediaContent, type Operation } from '../spec/operations.ts';
import type { Validators, SchemaCheck } from '../validation/validator.ts';
import { objectShape, resolveSchema } from '../spec/schema-shape.ts';

const STATUS_NAMES = ['error', 'code', 'status', 'statusCode', 'status_code'];
const MESSAGE_NAMES = ['message', 'detail', 'title', 'error_description', 'description', 'msg'];

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
}

export interface ErrorAnswer {
  status: number;
  body: JsonValue;
  /** False when the body could not be made valid against a declared schema (a document issue). */
  valid: boolean;
  /** The declared media type of the error schema (application/json when none is declared). */
  mediaType: string;
}

export type ErrorBodies = (operation: Operation | undefined, status: number, message: string) => ErrorAnswer;

/** Prepares one template per error schema of the document, at start-up. */
export function createErrorBodies(document: unknown, operations: Operation[], validators: Validators): ErrorBodies {
  const templates = new Map<string, ErrorTemplate>();
  const templateFor = (content: MediaContent): ErrorTemplate => {
    let template = templates.get(content.schemaPointer);
    if (!template) {
      template = buildTemplate(content, document, validators);
      templates.set(content.schemaPointer, template);
    }
    return template;
  };
  // For answers no operation owns (unknown paths), the document's most used error schema.
  const fallback = operations.map(errorContent).find((c) => c !== undefined);

  // Which content answers (operation, status) is fixed by the document: looked up once per pair.
  const contentFor = perOperationStatus(errorContent);

  return (operation, status, message) => {
    const content = (operation && contentFor(operation, status)) ?? fallback;
    const template = content ? templateFor(content) : undefined;
    if (!template || (!template.statusProperty && !template.messageProperty)) {
      return { status, body: { error: status, message }, valid: !content, mediaType: 'application/json' };
    }
    const body: Record<string, JsonValue> = { ...template.extras };
    if (template.statusProperty) body[template.statusProperty] = template.statusAsText ? String(status) : status;
    if (template.messageProperty) body[template.messageProperty] = message;
    // RFC 9457 problem details: the title is the short summary, the detail the message.
    if (template.titleProperty) body[template.titleProperty] = http.STATUS_CODES[status] ?? 'Error';
    // Status, message, title and the fillers above: never a bigint, so the check needs no projection.
    const valid = template.check ? template.check(body, true).ok : true;
    return { status, body, valid, mediaType: content!.mediaType.includes('*') ? 'application/json' : content!.mediaType };
  };
}

/** The JSON content of the response declared for this status, else of the operation's error response. */
function errorContent(operation: Operation, status?: number): MediaContent | undefined {
  const declared = status === undefined ? undefined : findResponse(operation, status);
  if (declared && declared.status !== 'default' && jsonContent(declared.contents)?.schema) return jsonContent(declared.contents);
  const errors = operation.responses.filter((r) => /^[45]/.test(r.status) || r.status === 'default');
  const preferred = errors.find((r) => r.status === '400') ?? errors.find((r) => r.status.startsWith('4')) ?? errors[0];
  const content = preferred && jsonContent(preferred.contents);
  return content?.schema ? content : undefined;
}

function buildTemplate(content: MediaContent, document: unknown, validators: Validators): ErrorTemplate {
  const shape = objectShape(content.schema, document);
  const typeOf = (name: string) => {
    const s = resolveSchema(shape.properties.get(name), document);
    return Array.isArray(s?.type) ? s.type : [s?.type];
  };
  const statusProperty = STATUS_NAMES.find((n) => shape.properties.has(n) && typeOf(n).some((t) => t === 'integer' || t === 'number' || t === 'string'));
  const messageProperty = MESSAGE_NAMES.find((n) => n !== statusProperty && shape.properties.has(n) && typeOf(n).includes('string'));
  const statusAsText = statusProperty !== undefined && !typeOf(statusProperty).some((t) => t === 'integer' || t === 'number');
  const titleProperty = messageProperty !== 'title' && shape.properties.has('title') && typeOf('title').includes('string') ? 'title' : undefined;
  const extras: Record<string, JsonValue> = {};
  for (const name of shape.required) {
    if (name === statusProperty || name === messageProperty || name === titleProperty) continue;
    const type = typeOf(name)[0];
    extras[name] = type === 'integer' || type === 'number' ? 0 : type === 'boolean' ? false : type === 'array' ? [] : type === 'object' ? {} : 'error';
  }
  return { statusProperty, statusAsText, messageProperty, titleProperty, extras, check: validators.at(content.schemaPointer) };
}
