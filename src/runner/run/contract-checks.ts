// The checks every answer gets, whatever its fixture expects: they judge the answer against the
// document alone. A registry, in the order they run; each returns findings (expected failures
// are values). The body is judged by the toolkit's one validator.
import { NO_CONTENT_STATUSES } from '../../document/operation-facts.ts';
import { stringifyJson, type JsonValue } from '../../json/exact-json.ts';
import { getAtPointer } from '../../document/json-pointer.ts';
import {
  findResponse,
  jsonContent,
  type MediaContent,
  type Operation,
  isJsonMediaType,
} from '../../document/operations.ts';
import type { RouteResult } from '../../document/router.ts';
import type { ValidationIssue, Validators } from '../../validation/validator.ts';
import type { HttpAnswer } from '../../http/types.ts';
import type { Finding } from '../report.ts';
import { textOf } from '../../http/bytes.ts';

/**
 * Statuses the project's own mock answers on purpose although no operation declares them
 * (missing token, unknown path, wrong method, wrong media type): a documented warning class,
 * failures only under --strict.
 */
export const OFF_CONTRACT_STATUSES: readonly number[] = [401, 404, 405, 415];

export interface ContractContext {
  route: RouteResult;
  /** The answer, with its body as `text` and, when it is JSON, parsed as `json` (undefined when the body is empty). */
  response: HttpAnswer;
  validators: Validators;
  strict: boolean;
  /** The request was made to be refused (a generated negative case, expecting a 4xx). */
  rejection?: boolean;
}

export type ContractCheck = (context: ContractContext) => Finding[];

const failure = (code: string, message: string, extra: Partial<Finding> = {}): Finding => ({
  code,
  severity: 'failure',
  message,
  ...extra,
});

const operationOf = (route: RouteResult): Operation | undefined =>
  route.kind === 'operation' ? route.operation : undefined;

/**
 * A 3xx the operation declares by its code or its class (not by `default`): the redirect is the
 * answer the document promises (an OAuth authorize endpoint's 302), judged like any other status.
 */
function declaredRedirect(route: RouteResult, status: number): boolean {
  const operation = operationOf(route);
  if (!operation || status < 300 || status >= 400) return false;
  const declared = findResponse(operation, status);
  return declared !== undefined && declared.status !== 'default';
}

/** Statuses the runner never lets pass, and where its other checks say nothing useful. */
const judgedElsewhere = (status: number, route: RouteResult) =>
  status >= 500 || (status >= 300 && status < 400 && !declaredRedirect(route, status));

export const CONTRACT_CHECKS: Record<string, ContractCheck> = {
  // A 5xx is a server bug whatever the document declares.
  'server-error': ({ response }) =>
    response.status >= 500
      ? [
          failure(
            'server-error',
            `the server failed with ${response.status}${snippet(responseText(response))}; a 5xx is always a failure`,
            {
              actual: response.status,
            },
          ),
        ]
      : [],

  // The runner never follows redirects (a POST must not be re-sent somewhere else); one the
  // operation does not declare means --target points at the wrong address.
  redirect: ({ route, response }) =>
    response.status >= 300 && response.status < 400 && !declaredRedirect(route, response.status)
      ? [
          failure(
            'redirect',
            `the server redirected with ` +
              `${response.status}${response.headers.location ? ` to ${response.headers.location}` : ''}; redirects ` +
              `are not followed, point --target at the final address`,
            { actual: response.status },
          ),
        ]
      : [],

  status: ({ route, response, strict, rejection }) => {
    const { status } = response;
    if (judgedElsewhere(status, route)) return [];
    // 405 is the right answer to a method the path does not declare.
    if (route.kind === 'method-not-allowed' && status === 405) return [];
    const operation = operationOf(route);
    if (operation && findResponse(operation, status)) return [];
    const declared = operation ? operation.responses.map((r) => r.status).join(', ') : '';
    const where = operation
      ? `${operation.id} declares ${declared}`
      : 'the document has no operation for this method and path';
    if (OFF_CONTRACT_STATUSES.includes(status)) {
      return [
        {
          code: 'off-contract-status',
          severity: strict ? 'failure' : 'warning',
          message:
            `${status} is not declared (${where}); it is in the documented off-contract class (401, 404, ` +
            `405, 415)${strict ? ' and --strict is on' : ''}`,
          actual: status,
        },
      ];
    }
    if (!operation)
      return [
        {
          code: 'no-operation',
          severity: 'warning',
          message: `${where}; only the always-on checks apply`,
          actual: status,
        },
      ];
    // OpenAPI 3.1 lets an operation declare no response at all: then no status breaks it.
    if (operation.responses.length === 0)
      return [
        {
          code: 'no-declared-responses',
          severity: strict ? 'failure' : 'warning',
          message:
            `${operation.id} declares no response, so ${status} cannot be ` +
            `judged${strict ? ' and --strict is on' : ''}`,
          actual: status,
        },
      ];
    // The server refused a request made to be refused; the gap is the document's (it declares no
    // status for bad input), so it warns like the off-contract class.
    if (rejection && status >= 400 && status < 500) {
      return [
        {
          code: 'undeclared-rejection-status',
          severity: strict ? 'failure' : 'warning',
          message:
            `${status} refuses this invalid request, but ${operation.id} declares no such status ` +
            `(${declared})${strict ? ' and --strict is on' : ''}`,
          actual: status,
        },
      ];
    }
    return [
      failure('undeclared-status', `${status} is not a status ${operation.id} declares (${declared})`, {
        expected: declared,
        actual: status,
      }),
    ];
  },

  'content-type': ({ route, response, validators }) => {
    const declared = declaredContents(route, response.status);
    if (!declared) return [];
    if (responseText(response) === '') {
      // Zero bytes are no JSON value, but they are a text or binary body whose schema takes "" (a PDF as `type: string,
      // format: binary`).
      const emptyAllowed = declared.contents.some(
        (c) => !isJsonMediaType(c.mediaType) && (c.schema === undefined || validators.at(c.schemaPointer)('').ok),
      );
      return emptyAllowed
        ? []
        : [failure('missing-body', `the body is empty; ${response.status} declares ${declared.types.join(', ')}`)];
    }
    const contentType = response.headers['content-type'];
    if (!contentType)
      return [
        failure(
          'missing-content-type',
          `no Content-Type header; ${response.status} declares ${declared.types.join(', ')}`,
          {
            expected: declared.types.join(', '),
          },
        ),
      ];
    const essence = contentType.split(';')[0].trim().toLowerCase();
    if (declared.types.some((type) => mediaTypeMatches(type, essence))) return [];
    return [
      failure(
        'undeclared-content-type',
        `Content-Type ${contentType} is not declared for ${response.status} (declared: ${declared.types.join(', ')})`,
        {
          expected: declared.types.join(', '),
          actual: contentType,
        },
      ),
    ];
  },

  // Only a JSON answer (application/json, any +json) is judged against a schema; any other media
  // type has had its Content-Type checked, and that is all the runner can say about it.
  body: ({ route, response, validators }) => {
    const declared = declaredContents(route, response.status);
    const content = declared && servedContent(declared.contents, response.headers['content-type']);
    if (!content || content.schema === undefined || response.json === undefined) return [];
    if (!response.json.ok)
      return [
        failure(
          'body-not-json',
          `the body is not JSON (${response.json.message})${snippet(responseText(response))}; ${response.status} ` +
            `declares ${content.mediaType}`,
        ),
      ];
    const result = validators.at(content.schemaPointer)(response.json.value);
    if (result.ok) return [];
    const body = response.json.value;
    return result.issues.map((issue) => {
      // The value that broke the rule, cut short; a missing field has none.
      const actual =
        issue.code === 'required' ? undefined : (getAtPointer(body, issue.pointer) as JsonValue | undefined);
      const got = actual === undefined ? '' : `; got ${shortValue(actual)}`;
      return failure(
        issueCode(issue),
        `response body ${issue.pointer || '(root)'}: ${issue.message}${got} (schema ${content.schemaPointer})`,
        {
          pointer: issue.pointer,
          ...(actual !== undefined && { actual: cutValue(actual) }),
        },
      );
    });
  },
};

/** The answer's body as text: `text` when the caller decoded it, else the body itself ('' when none). */
export function responseText(response: HttpAnswer): string {
  return response.text ?? (response.body === undefined ? '' : textOf(response.body));
}

/** Runs every registered check on one answer. */
export function checkContract(context: ContractContext): Finding[] {
  return Object.values(CONTRACT_CHECKS).flatMap((check) => check(context));
}

// RFC 9110 §6.4.1: a 1xx, 204 or 304 answer never has content, and §15.3.6: a 205 sends none;
// content a document declares for them (Asana's, osisoft's 204s) cannot be on the wire.
const NO_CONTENT = (status: number) => status < 200 || NO_CONTENT_STATUSES.has(status);

function declaredContents(route: RouteResult, status: number) {
  const operation = operationOf(route);
  if (!operation || judgedElsewhere(status, route) || NO_CONTENT(status)) return undefined;
  const declared = findResponse(operation, status);
  if (!declared || declared.contents.length === 0) return undefined;
  return { contents: declared.contents, types: declared.contents.map((c) => c.mediaType) };
}

/**
 * The declared content the answer's Content-Type names, when the answer is JSON; without a Content-Type, the declared
 * JSON one.
 */
function servedContent(contents: MediaContent[], contentType: string | undefined): MediaContent | undefined {
  if (contentType === undefined) return jsonContent(contents);
  const essence = contentType.split(';')[0].trim().toLowerCase();
  if (essence !== 'application/json' && !/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(essence))
    return undefined;
  return contents.find((c) => c.mediaType === essence) ?? contents.find((c) => mediaTypeMatches(c.mediaType, essence));
}

function mediaTypeMatches(declaredType: string, essence: string): boolean {
  // A declared type may carry parameters (`text/plain; charset=utf-8`); the served type is matched by its essence.
  const declared = declaredType.split(';')[0].trim().toLowerCase();
  if (declared === essence || declared === '*/*') return true;
  if (declared.endsWith('/*')) return essence.startsWith(declared.slice(0, -1));
  // application/json declared, application/json served with +json suffix is not the same type.
  return false;
}

// The two defects a reader looks for first get their own codes.
function issueCode(issue: ValidationIssue): string {
  if (issue.code === 'required') return 'missing-required-field';
  if (issue.code === 'type') return 'wrong-field-type';
  return 'schema-violation';
}

/** Longest actual value a schema finding carries, as JSON text. */
const ACTUAL_LIMIT = 120;

function shortValue(value: JsonValue): string {
  const text = stringifyJson(value);
  return text.length > ACTUAL_LIMIT ? `${text.slice(0, ACTUAL_LIMIT)}… (${text.length} characters)` : text;
}

/** The value itself when its JSON is short, else its JSON text cut short. */
function cutValue(value: JsonValue): JsonValue {
  const text = stringifyJson(value);
  return text.length > ACTUAL_LIMIT ? `${text.slice(0, ACTUAL_LIMIT)}…` : value;
}

function snippet(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  if (trimmed === '') return '';
  return ` (body starts: ${JSON.stringify(trimmed.length > 60 ? `${trimmed.slice(0, 60)}…` : trimmed)})`;
}
