// What every generated request is made of, for single cases and sequences alike: the
// credentials an operation needs, and run-unique values for fields that must not collide with
// what an earlier case or run left on the server.
import type { JsonValue } from '../json/exact-json.ts';
import type { Operation } from '../spec/operations.ts';

const BEARER_LIKE = new Set(['oauth2', 'openIdConnect']);

/** A run-unique int64 of the same size as {{uniqueId}}, to ask the validator whether one fits. */
const SAMPLE_UNIQUE_ID = 1_700_000_000_000_000_000n;

/** The credentials header a secured operation needs ({} when open), or undefined when the runner cannot present them. */
export function authHeaders(operation: Operation): Record<string, string> | undefined {
  if (operation.security.length === 0 || operation.security.some((requirement) => requirement.length === 0)) return {};
  const bearer = operation.security.find((requirement) => requirement.every((s) => (s.type === 'http' && s.scheme === 'bearer') || BEARER_LIKE.has(s.type)));
  return bearer ? { authorization: 'Bearer {{token}}' } : undefined;
}

/**
 * A valid body's integer `id` becomes {{uniqueId}}, so that a server which keeps its data does not
 * answer a re-run with "already exists"; only when a run-unique int64 is still valid there.
 */
export function withUniqueKey(body: JsonValue, check: (value: JsonValue) => { ok: boolean }): JsonValue {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const id = body.id;
  if (typeof id !== 'number' && typeof id !== 'bigint') return body;
  return withUniqueField({ template: body, sample: body }, 'id', 'integer', '', check)?.template ?? body;
}

/** A body to send (`template`, with variables) and the same body with values in their place, to validate. */
export interface UniqueBody {
  template: Record<string, JsonValue>;
  sample: Record<string, JsonValue>;
}

/**
 * The body with `field` set to a run-unique value: {{uniqueId}} for an integer, "PREFIX{{uniqueId}}"
 * for a string (a string is never the bare variable, which would send an integer). Undefined when
 * such a value would make the body invalid (a pattern, a maximum).
 */
export function withUniqueField(body: UniqueBody, field: string, type: 'integer' | 'string', prefix: string, check: (value: JsonValue) => { ok: boolean }): UniqueBody | undefined {
  const text = prefix === '' ? 'id-' : prefix;
  const sample = { ...body.sample, [field]: type === 'integer' ? SAMPLE_UNIQUE_ID : `${text}${SAMPLE_UNIQUE_ID}` };
  if (!check(sample).ok) return undefined;
  return { template: { ...body.template, [field]: type === 'integer' ? '{{uniqueId}}' : `${text}{{uniqueId}}` }, sample };
}
