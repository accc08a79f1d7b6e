// Runs one case, step by step: substitute variables -> send -> contract checks -> expectations
// -> remember the step for later ones. A step that fails ends its case (later steps would build
// on an answer that is already wrong). What goes into the result is redacted first.
import { parseJson, stringifyJson, type JsonValue } from '../json/exact-json.ts';
import type { Router } from '../spec/router.ts';
import type { Validators } from '../validation/validator.ts';
import { checkContract, type ReceivedResponse } from './contract-checks.ts';
import { toCurl } from './curl.ts';
import { checkExpectations } from './expectations.ts';
import type { Case, FixtureExpectation, FixtureRequest } from './fixture.ts';
import type { HttpClient, OutgoingRequest } from './http-client.ts';
import { redactHeaders, type Redactor } from './redact.ts';
import type { CaseResult, Finding, PlainRequest, PlainResponse, StepResult } from './report.ts';
import { substitute, substituteText, type Substituted, type VariableScope } from './variables.ts';

export interface CaseContext {
  target: URL;
  client: HttpClient;
  route: Router;
  validators: Validators;
  strict: boolean;
  token?: string;
  /** --header values, names in lower case; a fixture's own headers win. */
  headers: Record<string, string>;
  redact: Redactor;
}

/** Longest text body kept in a report (the whole body is still judged). */
const REPORT_TEXT_LIMIT = 4096;

/** Runs a case and returns its redacted result; never throws for anything a server does. */
export async function runCase(testCase: Case, context: CaseContext, uniqueId: bigint): Promise<CaseResult> {
  const started = performance.now();
  const scope: VariableScope = { token: context.token, uniqueId, steps: new Map() };
  const steps: StepResult[] = [];
  for (const step of testCase.steps) {
    const result = await runStep(step.name, step.request, step.expect, context, scope);
    steps.push(context.redact(result));
    if (result.findings.some((f) => f.severity === 'failure')) break;
  }
  const all = steps.flatMap((s) => s.findings);
  const failures = all.filter((f) => f.severity === 'failure').length;
  return {
    id: context.redact(testCase.id),
    name: context.redact(testCase.name),
    source: testCase.source,
    status: failures > 0 ? 'failed' : 'passed',
    durationMs: Math.round(performance.now() - started),
    steps,
    failures,
    warnings: all.length - failures,
  };
}

async function runStep(name: string, rawRequest: FixtureRequest, rawExpect: FixtureExpectation, context: CaseContext, scope: VariableScope): Promise<StepResult> {
  const prepared = prepare(rawRequest, rawExpect, scope);
  if (!prepared.ok) return { name, durationMs: 0, findings: [{ code: 'unresolved-variable', severity: 'failure', message: prepared.message }] };
  const { request, expect } = prepared.value;
  const outgoing = toOutgoing(request, context);
  const plainRequest: PlainRequest = { method: request.method, path: request.path, query: outgoing.url.search.slice(1), headers: redactHeaders(outgoing.headers), body: request.body ?? request.rawBody };
  const curl = toCurl({ url: outgoing.url.href, method: outgoing.method, headers: outgoing.headers, body: outgoing.body }, context.token);
  // Routed by the path as it goes on the wire (a literal "#" or space in a template is sent encoded), as the server routes it.
  const routed = context.route(request.method, outgoing.url.pathname.slice(context.target.pathname.replace(/\/+$/, '').length));
  const operationId = routed.kind === 'operation' ? routed.operation.id : undefined;
  const outcome = await context.client.send(outgoing);
  const remembered = { request: { method: request.method, path: request.path, query: plainRequest.query, headers: outgoing.headers, body: request.body ?? request.rawBody } };
  if (!outcome.ok) {
    scope.steps.set(name, remembered);
    const response = outcome.status === undefined ? undefined : { status: outcome.status, headers: outcome.headers ?? {} };
    return { name, request: plainRequest, response, operationId, durationMs: outcome.durationMs, findings: [{ code: outcome.code, severity: 'failure', message: outcome.message }], curl };
  }
  const text = outcome.body.toString('utf8');
  const received: ReceivedResponse = { status: outcome.status, headers: outcome.headers, text, json: text === '' ? undefined : parseJson(text) };
  const findings: Finding[] = [...checkContract({ route: routed, response: received, validators: context.validators, strict: context.strict, rejection: expect.status === '4xx' }), ...checkExpectations(expect, received)];
  const body: JsonValue | undefined = received.json === undefined ? undefined : received.json.ok ? received.json.value : cut(text);
  const plainResponse: PlainResponse = { status: outcome.status, headers: redactHeaders(outcome.headers), body };
  scope.steps.set(name, { ...remembered, response: { status: outcome.status, headers: outcome.headers, body } });
  return { name, request: plainRequest, response: plainResponse, operationId, durationMs: outcome.durationMs, findings, curl };
}

function prepare(request: FixtureRequest, expect: FixtureExpectation, scope: VariableScope): Substituted<{ request: FixtureRequest; expect: FixtureExpectation }> {
  // The same walk for every string of the step: one failure is enough to stop it.
  const whole = substitute({ request, expect } as unknown as JsonValue, scope);
  if (!whole.ok) return whole;
  const value = whole.value as unknown as { request: FixtureRequest; expect: FixtureExpectation };
  // A path, a query value or a header is text even when it is exactly one variable.
  const text = (raw: unknown, done: unknown): Substituted<string> => (typeof raw === 'string' ? substituteText(raw, scope) : { ok: true, value: String(done) });
  const path = text(request.path, value.request.path);
  if (!path.ok) return path;
  value.request.path = path.value;
  for (const section of ['headers', 'query'] as const) {
    for (const [key, raw] of Object.entries(request[section] ?? {})) {
      if (Array.isArray(raw)) continue;
      const result = text(raw, (value.request[section] as Record<string, unknown>)[key]);
      if (!result.ok) return result;
      (value.request[section] as Record<string, unknown>)[key] = result.value;
    }
  }
  return { ok: true, value };
}

function toOutgoing(request: FixtureRequest, context: CaseContext): OutgoingRequest {
  const url = new URL(context.target.href);
  // The target may carry a base path (https://host/v1): fixture paths are relative to it.
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${request.path}`;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {})) for (const item of [value].flat()) search.append(key, String(item));
  // Styled parameters keep their own delimiters (",", "|", "[...]"): appended, not re-encoded.
  url.search = [search.toString(), ...(request.rawQuery ?? [])].filter((piece) => piece !== '').join('&');
  const headers: Record<string, string> = { ...context.headers };
  for (const [key, value] of Object.entries(request.headers ?? {})) headers[key.toLowerCase()] = value;
  let body: string | undefined;
  if (request.body !== undefined) {
    body = stringifyJson(request.body);
    headers['content-type'] ??= 'application/json';
  } else if (request.rawBody !== undefined) body = request.rawBody;
  return { url, method: request.method, headers, body };
}

function cut(text: string): string {
  return text.length > REPORT_TEXT_LIMIT ? `${text.slice(0, REPORT_TEXT_LIMIT)}… (${text.length} characters in all)` : text;
}
