// Variables in fixtures: {{token}}, {{uniqueId}} (and its string forms {{uniqueUuid}} and
// {{uniqueString}}), {{uniqueAbove N}} / {{uniqueBelow N}} (an integer beside an edge value such
// as the largest int64, different in every run) and {{steps.NAME.request|response.PATH}}.
// A string that is exactly one variable takes the variable's own type (so `id: "{{uniqueId}}"`
// sends an integer); a variable inside a longer string is written as text.
import { stringifyJson, type JsonValue } from '../../json/exact-json.ts';
import type { Exchange } from './runtime-values.ts';
import { uniqueOffset, uniqueString, uniqueUuid } from '../generate/unique-values.ts';

/** What variables resolve against while one case runs. */
export interface VariableScope {
  token?: string;
  /** One per case: the same in every step of a case, different in every case and every run. */
  uniqueId: bigint;
  /** The steps run so far, by name: what was sent and what came back (unredacted). */
  steps: Map<
    string,
    {
      request: Record<string, JsonValue | undefined>;
      response?: Record<string, JsonValue | undefined>;
      /** The exchange as OpenAPI's runtime expressions see it (for steps that follow this one). */
      exchange?: Exchange;
    }
  >;
}

export type Substituted<T> = { ok: true; value: T } | { ok: false; message: string };

/** The case's run-unique value as each variable writes it. */
const UNIQUE_FORMS: Record<string, (uniqueId: bigint) => JsonValue> = {
  uniqueId: (uniqueId) => uniqueId,
  uniqueUuid,
  uniqueString,
};

const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const WHOLE = /^\{\{\s*([^{}]*?)\s*\}\}$/;
/**
 * {{uniqueId 2}}, {{uniqueUuid 3}}, ...: the case's second and third run-unique values, for a case
 * that creates more than one item (a sequence checking a list's limit). They sit 2^61 apart, far
 * above any {{uniqueId}} a clock-based run gives out this century, and stay int64s.
 */
const ORDINAL = /^(uniqueId|uniqueUuid|uniqueString)\s+([1-3])$/;
const ORDINAL_STEP = 1n << 61n;

/** {{uniqueAbove N}} and {{uniqueBelow N}}: N plus or minus the case's run-unique offset. */
const BESIDE = /^unique(Above|Below)\s+(-?\d+)$/;
const STEP_REFERENCE = /^steps\.([A-Za-z_][A-Za-z0-9_-]*)\.(request|response)(?:\.(.+))?$/;

/** The variable names a string uses. */
export function variablesIn(text: string): string[] {
  return [...text.matchAll(VARIABLE)].map((match) => match[1]);
}

/** Why a variable name cannot be used in a step that comes after `earlierSteps`, or undefined. */
export function checkVariable(name: string, earlierSteps: readonly string[]): string | undefined {
  if (name === 'token' || Object.hasOwn(UNIQUE_FORMS, name) || BESIDE.test(name) || ORDINAL.test(name))
    return undefined;
  const reference = STEP_REFERENCE.exec(name);
  if (!reference)
    return (
      `unknown variable {{${name}}}; use {{token}}, {{uniqueId}}, {{uniqueUuid}}, {{uniqueString}} (each also ` +
      `as {{uniqueId 2}} / {{uniqueId 3}}), {{uniqueAbove N}}, {{uniqueBelow N}} or {{steps.NAME.request.PATH}} / ` +
      `{{steps.NAME.response.PATH}}`
    );
  if (!earlierSteps.includes(reference[1])) {
    return (
      `{{${name}}} names step '${reference[1]}', which does not run before this ` +
      `one${earlierSteps.length ? ` (earlier steps: ${earlierSteps.join(', ')})` : ''}`
    );
  }
  return undefined;
}

/** Every string anywhere in a value (keys left alone). */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) stringsIn(item, out);
  return out;
}

/** Replaces the variables in every string of a JSON value. */
export function substitute(value: JsonValue, scope: VariableScope): Substituted<JsonValue> {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return resolve(whole[1], scope);
    return substituteText(value, scope);
  }
  if (value === null || typeof value !== 'object') return { ok: true, value };
  if (Array.isArray(value)) {
    const out: JsonValue[] = [];
    for (const item of value) {
      const result = substitute(item, scope);
      if (!result.ok) return result;
      out.push(result.value);
    }
    return { ok: true, value: out };
  }
  const out: Record<string, JsonValue> = {};
  for (const [key, item] of Object.entries(value)) {
    const result = substitute(item, scope);
    if (!result.ok) return result;
    // defineProperty keeps a "__proto__" key a plain key.
    Object.defineProperty(out, key, { value: result.value, enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, value: out };
}

/** Replaces the variables in a string, writing each value as text. */
export function substituteText(text: string, scope: VariableScope): Substituted<string> {
  let failure: string | undefined;
  const value = text.replace(VARIABLE, (_match, name: string) => {
    const resolved = resolve(name, scope);
    if (!resolved.ok) {
      failure ??= resolved.message;
      return '';
    }
    return typeof resolved.value === 'string' ? resolved.value : stringifyJson(resolved.value);
  });
  return failure === undefined ? { ok: true, value } : { ok: false, message: failure };
}

function resolve(name: string, scope: VariableScope): Substituted<JsonValue> {
  if (name === 'token') {
    return scope.token === undefined
      ? { ok: false, message: '{{token}} is used but no token was given (--token or PLANTSTORE_TOKEN)' }
      : { ok: true, value: scope.token };
  }
  if (Object.hasOwn(UNIQUE_FORMS, name)) return { ok: true, value: UNIQUE_FORMS[name](scope.uniqueId) };
  const ordinal = ORDINAL.exec(name);
  if (ordinal)
    return {
      ok: true,
      value: UNIQUE_FORMS[ordinal[1]](scope.uniqueId + BigInt(Number(ordinal[2]) - 1) * ORDINAL_STEP),
    };
  const beside = BESIDE.exec(name);
  if (beside) {
    const offset = uniqueOffset(scope.uniqueId);
    return { ok: true, value: BigInt(beside[2]) + (beside[1] === 'Above' ? offset : -offset) };
  }
  const reference = STEP_REFERENCE.exec(name);
  if (!reference) return { ok: false, message: `unknown variable {{${name}}}` };
  const [, stepName, side, path] = reference;
  const step = scope.steps.get(stepName);
  const root = side === 'request' ? step?.request : step?.response;
  if (!root) return { ok: false, message: `{{${name}}}: step '${stepName}' has no ${side}` };
  let node: unknown = root;
  for (const token of path === undefined ? [] : path.split('.')) {
    if (node === null || typeof node !== 'object') {
      node = undefined;
      break;
    }
    // Header names are stored in lower case; let a fixture write them as it likes.
    const record = node as Record<string, unknown>;
    node = Object.hasOwn(record, token) ? record[token] : record[token.toLowerCase()];
  }
  if (node === undefined)
    return { ok: false, message: `{{${name}}}: nothing at ${path ?? side} in step '${stepName}'` };
  return { ok: true, value: node as JsonValue };
}
