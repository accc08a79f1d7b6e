// Judges an upstream's answer against the document: the runner's own contract checks (status,
// content type, body against its schema, exact int64), plus what only a proxy sees often enough to
// need: declared response headers. Built once per proxy; each answer costs a route lookup that the
// caller already made, a JSON parse and one compiled schema.
import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';
import { parseJson } from '../json/exact-json.ts';
import { coerce, typesOf } from '../mock/request/coerce-text.ts';
import type { HttpAnswer } from '../http/types.ts';
import { CONTRACT_CHECKS } from '../runner/run/contract-checks.ts';
import { escapePointerToken, getAtPointer } from '../document/json-pointer.ts';
import { type LoadedSpec } from '../document/loaded-spec.ts';
import { findResponse, type Operation } from '../document/operations.ts';
import type { RouteResult } from '../document/router.ts';
import type { Validators } from '../validation/validator.ts';
import type { Violation } from './violations.ts';

/** `withBody` false: an answer that has no body by definition (HEAD, 204, 304): only its status is judged. */
export type ResponseChecker = (
  route: RouteResult,
  status: number,
  headers: Record<string, string>,
  body: Buffer,
  withBody: boolean,
) => Violation[];

interface DeclaredHeader {
  name: string;
  required: boolean;
  check?: (text: string) => string | undefined;
}

/** The checker for one document. */
export function createResponseChecker(spec: LoadedSpec, validators: Validators): ResponseChecker {
  const headerCache = new Map<string, DeclaredHeader[]>();
  const declaredHeaders = (operation: Operation, status: string): DeclaredHeader[] => {
    const key = `${operation.pointer} ${status}`;
    let headers = headerCache.get(key);
    if (!headers) {
      headers = readDeclaredHeaders(spec, validators, operation, status);
      headerCache.set(key, headers);
    }
    return headers;
  };
  return (route, status, headers, body, withBody) => {
    const operation = route.kind === 'operation' ? route.operation : undefined;
    const declared = operation && findResponse(operation, status);
    // No operation: the request side already said so; there is no contract to judge the answer by.
    if (!operation) return [];
    const violations: Violation[] = [];
    // The runner fails every 3xx and 5xx; a proxy passes on what the document declares.
    if (status >= 500 || (status >= 300 && status < 400)) {
      if (!declared)
        violations.push({
          where: 'response',
          code: 'undeclared-status',
          pointer: '',
          message:
            `${status} is not a status ${operation.id} declares ` +
            `(${operation.responses.map((r) => r.status).join(', ')})`,
        });
      return violations;
    }
    if (!withBody) {
      for (const finding of CONTRACT_CHECKS.status({
        route,
        response: { status, headers, text: '' },
        validators,
        strict: false,
      })) {
        if (finding.severity === 'failure')
          violations.push({ where: 'response', code: finding.code, pointer: '', message: finding.message });
      }
      return violations;
    }
    const text = decoded(body, headers['content-encoding']);
    const response: HttpAnswer = {
      status,
      headers,
      text: text ?? '',
      json: text === undefined || text === '' ? undefined : parseJson(text),
    };
    const context = { route, response, validators, strict: false };
    for (const name of ['status', 'content-type', 'body'] as const) {
      // An encoding the proxy cannot read leaves the body and its type unjudged, not wrongly judged.
      if (name !== 'status' && text === undefined) continue;
      for (const finding of CONTRACT_CHECKS[name](context)) {
        // The off-contract class (401, 404, 405, 415 undeclared) is a warning in the runner, and so here: not a
        // violation.
        if (finding.severity !== 'failure') continue;
        violations.push({
          where: 'response',
          code: finding.code,
          pointer: finding.pointer ?? '',
          message: finding.message,
        });
      }
    }
    if (declared) {
      for (const header of declaredHeaders(operation, declared.status)) {
        const value = headers[header.name];
        if (value === undefined) {
          if (header.required)
            violations.push({
              where: 'response',
              code: 'missing-header',
              pointer: '',
              message: `the ${header.name} header is required for ${status}, and there is none`,
            });
          continue;
        }
        const problem = header.check?.(value);
        if (problem)
          violations.push({
            where: 'response',
            code: 'invalid-header',
            pointer: '',
            message: `${header.name}: ${problem}`,
          });
      }
    }
    return violations;
  };
}

function readDeclaredHeaders(
  spec: LoadedSpec,
  validators: Validators,
  operation: Operation,
  status: string,
): DeclaredHeader[] {
  const base = `${operation.pointer}/responses/${escapePointerToken(status)}/headers`;
  const declared = getAtPointer(spec.document, base);
  if (declared === null || typeof declared !== 'object') return [];
  const out: DeclaredHeader[] = [];
  for (const [name, header] of Object.entries(
    declared as Record<string, { required?: boolean; schema?: Record<string, unknown> }>,
  )) {
    // RFC 9110 and OpenAPI: Content-Type is described by the content, not as a header.
    if (name.toLowerCase() === 'content-type' || header === null || typeof header !== 'object') continue;
    const schema = header.schema;
    const pointer = `${base}/${escapePointerToken(name)}/schema`;
    const check =
      schema === undefined
        ? undefined
        : (text: string) => {
            const result = validators.at(pointer)(coerce(text, typesOf(schema)));
            return result.ok ? undefined : result.issues.map((issue) => issue.message).join('; ');
          };
    out.push({ name: name.toLowerCase(), required: header.required === true, check });
  }
  return out;
}

/** The body as text, decoded from its Content-Encoding; undefined for an encoding the proxy does not read. */
function decoded(body: Buffer, encoding: string | undefined): string | undefined {
  try {
    switch ((encoding ?? 'identity').trim().toLowerCase()) {
      case 'identity':
      case '':
        return body.toString('utf8');
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(body).toString('utf8');
      case 'deflate':
        return inflateSync(body).toString('utf8');
      case 'br':
        return brotliDecompressSync(body).toString('utf8');
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}
