// The proxy's pipeline, plain data in and out like the mock engine's: admit the request with the
// mock's own checks -> (refuse it, with --errors) -> forward it -> (let the mock answer what the
// upstream lacks, with --mock-missing) -> judge the answer with the runner's checks -> (turn a
// broken answer into a 502, with --errors) -> mark, journal, count, record.
import { NO_CONTENT_STATUSES } from '../document/operation-facts.ts';
import { createAdminAccess } from '../mock/admin/admin-access.ts';
import { parseJson, type JsonValue } from '../json/exact-json.ts';
import type { Logger } from '../log/logger.ts';
import { ADMIN_PREFIX } from '../mock/admin/admin.ts';
import { pageResponse, wantsPage } from '../mock/admin/mock-page.ts';
import { isPreflight } from '../mock/request/cors.ts';
import type { Admission, MockEngine } from '../mock/engine.ts';
import type { HttpRequest, HttpAnswer } from '../http/types.ts';
import { createJournal, type Journal } from '../mock/admin/journal.ts';
import type { LoadedSpec } from '../document/loaded-spec.ts';
import { apiKeyNames, type Operation } from '../document/operations.ts';
import type { RouteResult } from '../document/router.ts';
import type { ProxyOptions } from './options.ts';
import { createRecorder, type Recorder } from './recorder.ts';
import { createResponseChecker } from './response-checks.ts';
import type { Upstream, UpstreamAnswer } from './upstream.ts';
import {
  createViolationSummary,
  requestViolations,
  VIOLATIONS_HEADER,
  violationsHeader,
  type Violation,
  type ViolationSummary,
} from './violations.ts';
import { textOf } from '../http/bytes.ts';

/** The header that says who answered. */
export const SOURCE_HEADER = 'plantstore-source';

/** Upstream statuses that mean "this operation is not implemented here" to --mock-missing. */
const MISSING_STATUSES = new Set([404, 405, 501]);

export interface ProxyHandler {
  handle(request: HttpRequest): Promise<HttpAnswer>;
  readonly journal: Journal;
  readonly violations: ViolationSummary;
  readonly recorder?: Recorder;
}

export interface ProxyHandlerSetup {
  spec: LoadedSpec;
  engine: MockEngine;
  upstream: Upstream;
  options: ProxyOptions;
  logger: Logger;
}

interface Exchange {
  request: HttpRequest;
  started: number;
  operation?: Operation;
  violations: Violation[];
  notes: string[];
  /** The upstream did not answer (refused, reset, timed out): the proxy answered 502 or 504 itself. */
  upstreamSilent?: boolean;
}

/** Builds the pipeline once: checkers, journal, summary and recorder. */
export function createProxyHandler({ spec, engine, upstream, options, logger }: ProxyHandlerSetup): ProxyHandler {
  const adminAccess = createAdminAccess(options.host, options.adminToken);
  const checkResponse = createResponseChecker(spec, engine.validators);
  const secretNames = apiKeyNames(engine.operations);
  const journal = createJournal(options.journalSize, secretNames);
  const summary = createViolationSummary();
  const { bindings } = engine;
  const recorder =
    options.record === null
      ? undefined
      : createRecorder({
          dir: options.record,
          upstream: options.upstream,
          bindings,
          secretNames,
          validators: engine.validators,
          skipViolations: options.recordSkipViolations,
        });
  const json = (status: number, value: unknown): HttpAnswer => ({
    status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(value),
  });

  async function handle(request: HttpRequest): Promise<HttpAnswer> {
    if (request.path.startsWith(ADMIN_PREFIX)) return admin(request);
    const exchange: Exchange = { request, started: performance.now(), violations: [], notes: [] };
    // A preflight is the browser's question to the upstream, not an API call: passed on unjudged.
    const admission: Admission | undefined = isPreflight(request) ? undefined : await engine.admit(request);
    const streamed = request.bodyStream !== undefined;
    if (streamed)
      exchange.notes.push(
        `the request's body is larger than ${options.maxBodyBytes} bytes (--max-body): passed through unvalidated ` +
          `and not recorded`,
      );
    // A body too large to hold is not judged: only what comes before it (route, security, parameters).
    if (admission && !admission.ok && !(streamed && admission.code === 'invalid-body')) {
      exchange.violations.push(...requestViolations(admission));
      exchange.operation = admission.reply.operation;
      // --errors: the mock's own refusal, and the upstream never sees the request.
      if (options.errors) return finish(exchange, admission.reply.response, 'mock');
    } else if (admission) exchange.operation = admission.ok ? admission.operation : admission.reply.operation;
    const { operation } = exchange;
    const answer = await upstream.forward(request);
    if (!answer.ok) {
      if (options.mockMissing && operation && !streamed && answer.code === 'connection-refused')
        return fromMock(exchange, `the upstream refused the connection`);
      const status = answer.code === 'timeout' ? 504 : 502;
      exchange.notes.push(`upstream ${options.upstream}: ${answer.message}`);
      exchange.upstreamSilent = true;
      return finish(
        exchange,
        {
          status,
          headers: { 'content-type': engine.errorType(status) },
          body: engine.errorBody(status, `the upstream did not answer: ${answer.message}`),
        },
        'proxy',
      );
    }
    if (options.mockMissing && operation && !streamed && MISSING_STATUSES.has(answer.status))
      return fromMock(exchange, `the upstream answered ${answer.status}`);
    if (answer.body === undefined) {
      exchange.notes.push(
        `the answer's body is larger than ${options.maxBodyBytes} bytes (--max-body): passed through unvalidated`,
      );
      return finish(
        exchange,
        { status: answer.status, headers: answer.headers, stream: answer.oversized.stream },
        'upstream',
      );
    }
    // A write the upstream made is made in the mock too, so the operations it answers see it.
    if (
      options.mockMissing &&
      operation &&
      !streamed &&
      answer.status < 300 &&
      request.method !== 'GET' &&
      request.method !== 'HEAD' &&
      bindings.has(operation)
    )
      await engine.handle(request);
    const route: RouteResult = operation ? { kind: 'operation', operation, params: {} } : { kind: 'not-found' };
    const responseViolations = bodiless(request, answer.status)
      ? checkResponse(route, answer.status, answer.headers, Buffer.alloc(0), false)
      : checkResponse(route, answer.status, answer.headers, answer.body, true);
    exchange.violations.push(...responseViolations);
    if (options.errors && responseViolations.length > 0) {
      const listed = responseViolations
        .map((v) => `${v.code}${v.pointer ? ` at ${v.pointer}` : ''}: ${v.message}`)
        .join('; ');
      const body = engine.errorBody(502, `the upstream's answer (${answer.status}) breaks the contract: ${listed}`);
      return finish(
        exchange,
        { status: 502, headers: { 'content-type': engine.errorType(502) }, body },
        'proxy',
        answer,
      );
    }
    return finish(
      exchange,
      { status: answer.status, headers: answer.headers, body: request.method === 'HEAD' ? undefined : answer.body },
      'upstream',
      answer,
    );
  }

  async function fromMock(exchange: Exchange, why: string): Promise<HttpAnswer> {
    exchange.notes.push(`${why}; answered by the mock (--mock-missing)`);
    return finish(exchange, await engine.handle(exchange.request), 'mock');
  }

  function finish(
    exchange: Exchange,
    response: HttpAnswer,
    source: 'upstream' | 'mock' | 'proxy',
    answer?: UpstreamAnswer,
  ): HttpAnswer {
    const { request, operation, violations, notes } = exchange;
    const headers: Record<string, string> = {
      ...response.headers,
      [SOURCE_HEADER]: source === 'mock' ? 'mock' : 'upstream',
    };
    if (source === 'proxy') delete headers[SOURCE_HEADER];
    if (violations.length > 0) headers[VIOLATIONS_HEADER] = violationsHeader(violations);
    const durationMs = performance.now() - exchange.started;
    const problems = [
      ...violations.map((v) => `${v.where} ${v.code}${v.pointer ? ` ${v.pointer}` : ''}: ${v.message}`),
      ...notes,
    ];
    // An upstream that did not answer is a warning, so that --quiet shows it too; one line either way.
    if (exchange.upstreamSilent)
      logger.warn(`${request.method} ${request.path} ${response.status}  ${problems.join('; ')}`);
    else
      logger.request({
        method: request.method,
        path: request.path,
        status: response.status,
        durationMs,
        operationId: operation?.id,
        problems,
      });
    if (options.journalSize > 0) {
      journal.add({
        time: Date.now(),
        method: request.method,
        path: request.path,
        query: request.query,
        status: response.status,
        durationMs,
        operationId: operation?.id,
        headers: request.headers,
        problems: notes.length ? notes : undefined,
        violations,
        source: source === 'mock' ? 'mock' : 'upstream',
      });
    }
    summary.add(operation?.id, violations);
    // What the upstream (or the mock standing in for it) said is recorded; the proxy's own 502/504 for a silent
    // upstream is no observation.
    if (recorder && request.bodyStream === undefined && (source !== 'proxy' || answer?.ok)) {
      const said = answer?.ok ? answer : undefined;
      recorder.record({
        request,
        operation,
        status: said?.status ?? response.status,
        responseJson: jsonOf(said ? said.body : response.body),
        violations,
      });
    }
    return { ...response, headers };
  }

  function admin(request: HttpRequest): HttpAnswer | Promise<HttpAnswer> {
    // The journal holds real traffic: locked beyond loopback without an admin token, as the mock's.
    const access = adminAccess(request);
    // A browser's GET /__mock/ gets the page (its violations section reads GET /__mock/violations).
    if (wantsPage(request)) return pageResponse(access.ok);
    if (!access.ok)
      return {
        ...json(401, { error: 401, message: access.message }),
        headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="plantstore-admin"' },
      };
    const route = `${request.method === 'HEAD' ? 'GET' : request.method} ${request.path}`;
    switch (route) {
      case 'GET /__mock/violations':
        return json(200, summary.read());
      case 'DELETE /__mock/violations':
        summary.clear();
        return { status: 204, headers: {} };
      case 'GET /__mock/requests': {
        const limit = Number(new URLSearchParams(request.query).get('limit') ?? Number.POSITIVE_INFINITY);
        return json(200, { requests: journal.entries(Number.isFinite(limit) && limit >= 0 ? limit : undefined) });
      }
      case 'DELETE /__mock/requests':
        journal.clear();
        return { status: 204, headers: {} };
      default:
        // Health, state (what --mock-missing serves from) and the rest: the mock's own admin API.
        return engine.handle(request);
    }
  }

  return { handle, journal, violations: summary, recorder };
}

/** HEAD, 204, 205 and 304 answers have no body to judge (RFC 9110 §9.3.2, §15.3.5, §15.3.6, §15.4.5). */
function bodiless(request: HttpRequest, status: number): boolean {
  return request.method === 'HEAD' || NO_CONTENT_STATUSES.has(status);
}

function jsonOf(body: HttpAnswer['body']): JsonValue | undefined {
  if (body === undefined || body.length === 0) return undefined;
  const parsed = parseJson(textOf(body));
  return parsed.ok ? parsed.value : undefined;
}
