// The two ways `example --as` wraps a payload for a tester: a curl command line and a fixture in
// the conformance runner's format ({ name, request, expect }).
import { PlantstoreError } from '../errors.ts';
import { stringifyJson, type JsonValue } from '../json/exact-json.ts';
import type { Operation } from '../document/operations.ts';
import type { ExampleTarget } from '../document/resolve-target.ts';

/** A payload as the generator gives it: JSON, or text that is deliberately not JSON. */
export type Payload = { body: JsonValue } | { rawBody: string };

export interface Fixture {
  name: string;
  request: { method: string; path: string; headers: Record<string, string>; body?: JsonValue; rawBody?: string };
  expect: { status: number | string };
  [key: string]: JsonValue | undefined;
}

/** The operation a curl command or fixture needs; fails clearly when a schema has none. */
export function requireOperation(target: ExampleTarget): Operation {
  if (target.operation) return target.operation;
  throw new PlantstoreError(
    'USAGE',
    `schema ${target.name} is not the JSON request body of any operation, so there is no request to build`,
    ['Pass an operationId instead, or use --as body.'],
  );
}

/** A ready curl command; $PLANTSTORE_TOKEN (the variable verify reads too) stays for the shell to expand. */
export function toCurl(payload: Payload, target: ExampleTarget, baseUrl: string): string {
  const operation = requireOperation(target);
  const parts = [
    `curl -sS -i -X ${operation.method} ${quote(`${baseUrl.replace(/\/+$/, '')}${operation.path}`)}`,
    `-H ${quote(`Content-Type: ${target.mediaType ?? 'application/json'}`)}`,
  ];
  if (requiresAuth(operation)) parts.push('-H "Authorization: Bearer $PLANTSTORE_TOKEN"');
  parts.push(`--data-raw ${quote('body' in payload ? stringifyJson(payload.body) : payload.rawBody)}`);
  return parts.join(' ');
}

/** A conformance-runner fixture: a valid payload expects the operation's first 2xx, an invalid one "4xx". */
export function toFixture(payload: Payload, target: ExampleTarget, name: string, invalid: boolean): Fixture {
  const operation = requireOperation(target);
  const headers: Record<string, string> = {};
  if (requiresAuth(operation)) headers.authorization = 'Bearer {{token}}';
  headers['content-type'] = target.mediaType ?? 'application/json';
  const request: Fixture['request'] = { method: operation.method, path: operation.path, headers };
  if ('body' in payload) request.body = payload.body;
  else request.rawBody = payload.rawBody;
  return { name, request, expect: { status: invalid ? '4xx' : successStatus(operation) } };
}

/** True when every alternative of the operation's security names a scheme (none is open). */
export function requiresAuth(operation: Operation): boolean {
  return operation.security.length > 0 && operation.security.every((alternative) => alternative.length > 0);
}

function successStatus(operation: Operation): number | string {
  const declared = operation.responses.map((r) => r.status).find((status) => /^2(\d\d|XX)$/.test(status));
  if (!declared) return '2xx';
  return /^\d{3}$/.test(declared) ? Number(declared) : declared.toLowerCase();
}

// POSIX single quotes: nothing inside is expanded; a quote itself is closed, escaped, reopened.
function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
