// Runs one case, step by step: substitute variables -> send -> contract checks -> expectations
// -> remember the step for later ones. A step that fails ends its case (later steps would build
// on an answer that is already wrong). What goes into the result is redacted first.
import { parseJson, stringifyJson, type JsonValue } from '../../json/exact-json.ts';
import type { RouteResult, Router } from '../../document/router.ts';
import type { Operation } from '../../document/operations.ts';
import type { Validators } from '../../validation/validator.ts';
import { checkContract } from './contract-checks.ts';
import { toCurl } from './curl.ts';
import { checkExpectations } from './expectations.ts';
import { checkResponseHeaders } from './response-headers.ts';
import { findOnPages } from './find-on-pages.ts';
import type { Case, FixtureExpectation, FixtureRequest } from '../fixture.ts';
import type { HttpRequest, HttpAnswer } from '../../http/types.ts';
import { requestUrl, type HttpClient } from './http-client.ts';
import { REDACTED, redactHeaders, redactQuery, redactUrl, type CredentialNames, type Redactor } from './redact.ts';
import type { CaseResult, Finding, PlainRequest, PlainResponse, StepResult } from '../report.ts';
import { follow } from './follow.ts';
import type { Exchange } from './runtime-values.ts';
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
  /** Replaces long secrets a server echoed back; credentials are redacted by place before it runs. */
  redact: Redactor;
  /** The document's credential header and query names (apiKey schemes). */
  credentialNames: CredentialNames;
  /**
   * The operations by id: a generated step is judged as the operation it was built for (look-alike paths route to one
   * of them).
   */
  operations?: Map<string, Operation>;
  /** The document, for what a response declares beyond its body (its headers). */
  document?: unknown;
  /** --max-response-time: a slower answer fails its case. */
  maxResponseTimeMs?: number;
}

/** A step that takes its address or values from an earlier exchange that does not have them. */
const NOT_FOLLOWED = 'not-followed';

/** Stands for the token in the curl command: URL-, JSON- and shell-safe, and never the token itself. */
const TOKEN_MARK = 'PLANTSTORE_TOKEN_MARK_6c1f';

/** Longest text body kept in a report (the whole body is still judged). */
const REPORT_TEXT_LIMIT = 4096;

/** Runs a case and returns its redacted result; never throws for anything a server does. */
export async function runCase(testCase: Case, context: CaseContext, uniqueId: bigint): Promise<CaseResult> {
  const started = performance.now();
  const scope: VariableScope = { token: context.token, uniqueId, steps: new Map() };
  const steps: StepResult[] = [];
  for (const step of testCase.steps) {
    const result = await runStep(step.name, step.request, step.expect, context, scope, step.operationId);
    steps.push(context.redact(result));
    // A failed step ends its case; so does a step with nothing to follow (not-followed, a warning).
    if (result.findings.some((f) => f.severity === 'failure' || f.code === NOT_FOLLOWED)) break;
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
    ...(testCase.probe !== undefined && { probe: testCase.probe }),
  };
}

async function runStep(
  name: string,
  rawRequest: FixtureRequest,
  rawExpect: FixtureExpectation,
  context: CaseContext,
  scope: VariableScope,
  builtFor?: string,
): Promise<StepResult> {
  if (rawRequest.follow) {
    const base = context.target.pathname.replace(/\/+$/, '');
    const followed = follow(rawRequest, scope.steps.get(rawRequest.follow.step)?.exchange, base);
    if (!followed.ok)
      return {
        name,
        durationMs: 0,
        operationId: builtFor,
        findings: [{ code: NOT_FOLLOWED, severity: 'warning', message: followed.message, actual: followed.why }],
      };
    rawRequest = followed.request;
  }
  const prepared = prepare(rawRequest, rawExpect, scope);
  if (!prepared.ok)
    return {
      name,
      durationMs: 0,
      findings: [{ code: 'unresolved-variable', severity: 'failure', message: prepared.message }],
    };
  const { request, expect } = prepared.value;
  const outgoing = toOutgoing(request, context);
  const { plainRequest, curl } = shown(rawRequest, rawExpect, scope, context);
  // Routed by the path as it goes on the wire (a literal "#" or space in a template is sent encoded), as the server
  // routes it.
  const routedByPath = context.route(
    request.method,
    outgoing.path.slice(context.target.pathname.replace(/\/+$/, '').length),
  );
  const own = builtFor === undefined ? undefined : context.operations?.get(builtFor);
  const routed: RouteResult =
    own && routedByPath.kind === 'operation' && routedByPath.operation !== own
      ? { kind: 'operation', operation: own, params: routedByPath.params }
      : routedByPath;
  const operationId = routed.kind === 'operation' ? routed.operation.id : undefined;
  let outcome = await context.client.send(context.target, outgoing);
  let pages = 1;
  const wanted = expect.listContains;
  if (wanted?.offsetParam !== undefined && wanted.limit !== undefined) {
    // A sequence looks for its item on later pages of a full list (sequence-lists.ts).
    const found = await findOnPages(
      outgoing,
      outcome,
      { item: wanted.item, limit: wanted.limit, offsetParam: wanted.offsetParam },
      (request) => context.client.send(context.target, request),
    );
    ({ outcome, pages } = found);
    if (pages > 1) plainRequest.query = redactQuery(found.query, context.credentialNames);
  }
  const remembered = {
    request: {
      method: request.method,
      path: request.path,
      query: outgoing.query,
      headers: outgoing.headers,
      body: request.body ?? request.rawBody,
    },
  };
  const exchange: Exchange = {
    url: requestUrl(context.target, outgoing).href,
    method: request.method,
    request: {
      params: routed.kind === 'operation' ? routed.params : {},
      query: outgoing.query,
      headers: outgoing.headers,
      ...(request.body !== undefined && { body: request.body }),
    },
  };
  if (!outcome.ok) {
    scope.steps.set(name, { ...remembered, exchange });
    const response =
      outcome.status === undefined ? undefined : { status: outcome.status, headers: outcome.headers ?? {} };
    return {
      name,
      request: plainRequest,
      response,
      operationId,
      durationMs: outcome.durationMs,
      findings: [{ code: outcome.code, severity: 'failure', message: outcome.message }],
      curl,
    };
  }
  const text = outcome.body.toString('utf8');
  const received: HttpAnswer = {
    status: outcome.status,
    headers: outcome.headers,
    body: outcome.body,
    text,
    json: text === '' ? undefined : parseJson(text),
  };
  const judge = (route: RouteResult) =>
    checkContract({
      route,
      response: received,
      validators: context.validators,
      strict: context.strict,
      rejection: expect.status === '4xx' || expect.hostile === true,
    });
  let contract = judge(routed);
  // Look-alike paths (/countries/{country} and /countries/{countries}) are one path to a server:
  // an answer that keeps the contract of the operation the path routes to is the document's
  // ambiguity, not the server's fault, and warns.
  if (
    routed !== routedByPath &&
    routedByPath.kind === 'operation' &&
    contract.some((f) => f.severity === 'failure') &&
    !judge(routedByPath).some((f) => f.severity === 'failure')
  ) {
    const other = routedByPath.operation;
    contract = contract.map((finding) =>
      finding.severity === 'failure'
        ? {
            ...finding,
            severity: 'warning' as const,
            message:
              `${finding.message} (it keeps the contract of ${other.id}, ${other.method} ${other.path}, ` +
              `whose path looks the same)`,
          }
        : finding,
    );
  }
  if (routed.kind === 'operation' && context.document !== undefined && outcome.status < 500)
    contract.push(
      ...checkResponseHeaders(
        routed.operation,
        outcome.status,
        outcome.headers,
        context.document,
        context.validators,
        context.strict,
      ),
    );
  const findings: Finding[] = [
    ...contract,
    ...checkExpectations(expect, received, pages).map((finding) =>
      expect.advisory && !context.strict
        ? {
            ...finding,
            severity: 'warning' as const,
            message: `${finding.message} (a warning; --strict makes it a failure)`,
          }
        : finding,
    ),
  ];
  if (context.maxResponseTimeMs !== undefined && outcome.durationMs > context.maxResponseTimeMs)
    findings.push({
      code: 'slow-response',
      severity: 'failure',
      message:
        `the answer took ${Math.round(outcome.durationMs)} ms, over --max-response-time ` +
        `${context.maxResponseTimeMs} ms`,
      expected: context.maxResponseTimeMs,
      actual: Math.round(outcome.durationMs),
    });
  const body: JsonValue | undefined =
    received.json === undefined ? undefined : received.json.ok ? received.json.value : cut(text);
  const plainResponse: PlainResponse = {
    status: outcome.status,
    headers: redactHeaders(outcome.headers, context.credentialNames),
    body,
  };
  scope.steps.set(name, {
    ...remembered,
    response: { status: outcome.status, headers: outcome.headers, body },
    exchange: {
      ...exchange,
      response: {
        status: outcome.status,
        headers: outcome.headers,
        body: received.json?.ok ? received.json.value : text,
      },
    },
  });
  return {
    name,
    request: plainRequest,
    response: plainResponse,
    operationId,
    durationMs: outcome.durationMs,
    findings,
    curl,
  };
}

/**
 * The request as the report shows it and as a curl command, from the same step substituted again
 * with [redacted] (for the report) and a mark (for curl) where {{token}} stands, then with
 * credentials redacted by the header or query parameter they are in.
 */
function shown(
  rawRequest: FixtureRequest,
  rawExpect: FixtureExpectation,
  scope: VariableScope,
  context: CaseContext,
): { plainRequest: PlainRequest; curl: string } {
  const forReport = prepare(rawRequest, rawExpect, { ...scope, token: REDACTED });
  const forCurl = prepare(rawRequest, rawExpect, { ...scope, token: TOKEN_MARK });
  // Both succeed: they differ from the step's own substitution only in the token's text.
  const request = (forReport as { value: { request: FixtureRequest } }).value.request;
  const marked = (forCurl as { value: { request: FixtureRequest } }).value.request;
  const reportOutgoing = toOutgoing(request, context);
  const plainRequest: PlainRequest = {
    method: request.method,
    path: request.path,
    query: redactQuery(reportOutgoing.query, context.credentialNames),
    headers: redactHeaders(reportOutgoing.headers, context.credentialNames),
    body: request.body ?? request.rawBody,
  };
  const curlOutgoing = toOutgoing(marked, context);
  const hasMark = (value: string) => value.includes(TOKEN_MARK);
  const url = redactUrl(requestUrl(context.target, curlOutgoing));
  url.search = redactQuery(url.search.slice(1), context.credentialNames, hasMark);
  const curl = toCurl(
    {
      url: url.href,
      method: curlOutgoing.method,
      headers: redactHeaders(curlOutgoing.headers, context.credentialNames, hasMark),
      body: bodyText(marked),
    },
    TOKEN_MARK,
  );
  return { plainRequest, curl };
}

function prepare(
  request: FixtureRequest,
  expect: FixtureExpectation,
  scope: VariableScope,
): Substituted<{ request: FixtureRequest; expect: FixtureExpectation }> {
  // The same walk for every string of the step: one failure is enough to stop it.
  const whole = substitute({ request, expect } as unknown as JsonValue, scope);
  if (!whole.ok) return whole;
  const value = whole.value as unknown as { request: FixtureRequest; expect: FixtureExpectation };
  // A path, a query value or a header is text even when it is exactly one variable.
  const text = (raw: unknown, done: unknown): Substituted<string> =>
    typeof raw === 'string' ? substituteText(raw, scope) : { ok: true, value: String(done) };
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

/** The request as it goes on the wire, in the toolkit's shared request shape; its path holds the target's base path. */
function toOutgoing(request: FixtureRequest, context: CaseContext): HttpRequest & { headers: Record<string, string> } {
  const url = new URL(context.target.href);
  // The target may carry a base path (https://host/v1): fixture paths are relative to it.
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${request.path}`;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {}))
    for (const item of [value].flat()) search.append(key, String(item));
  // Styled parameters keep their own delimiters (",", "|", "[...]"): appended, not re-encoded.
  url.search = [search.toString(), ...(request.rawQuery ?? [])].filter((piece) => piece !== '').join('&');
  const headers: Record<string, string> = { ...context.headers };
  for (const [key, value] of Object.entries(request.headers ?? {})) headers[key.toLowerCase()] = value;
  if (request.body !== undefined) headers['content-type'] ??= 'application/json';
  return {
    method: request.method,
    path: url.pathname,
    query: url.search.slice(1),
    headers,
    body: bodyText(request) ?? '',
  };
}

/** The body a fixture sends, as text: its JSON written exactly, or its raw text; undefined when it sends none. */
function bodyText(request: FixtureRequest): string | undefined {
  return request.body !== undefined ? stringifyJson(request.body) : request.rawBody;
}

function cut(text: string): string {
  return text.length > REPORT_TEXT_LIMIT
    ? `${text.slice(0, REPORT_TEXT_LIMIT)}… (${text.length} characters in all)`
    : text;
}
