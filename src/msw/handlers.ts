// The mock without a server: the engine behind MSW request handlers, in a test runner (setupServer)
// or a page (setupWorker). A request MSW hands over becomes the engine's HttpRequest and its
// answer a Response; nothing else differs from `plantstore mock`, so the two answer alike.
import { delay, http, type HttpHandler } from 'msw';
import { createMockEngine, type MockEngine } from '../mock/engine.ts';
import { DEFAULT_MOCK_OPTIONS, type MockOptions } from '../mock/options.ts';
import type { HttpRequest, HttpAnswer } from '../http/types.ts';
import type { JournalEntry } from '../mock/admin/journal.ts';
import type { JsonValue } from '../json/exact-json.ts';
import { silentLogger, type Logger } from '../log/logger.ts';
import { createMemoryStore, type StateStore, type StoredRecord } from '../state/store.ts';
import { createWebStorageStore, type WebStorage } from '../state/web-storage-store.ts';
import { tenantOf } from '../state/scoped-store.ts';
import { PlantstoreError } from '../errors.ts';
import type { LoadedSpec } from '../document/loaded-spec.ts';
import { loadDocument, type DocumentSource } from './load-document.ts';
import { escapeRegExp, templateSource } from '../document/router.ts';
import { reasonPhrase } from '../platform/host.ts';
import type { Operation } from '../document/operations.ts';
import { parseLatency, type Latency } from '../mock/answer/latency.ts';
import { createUnhappyPath, type Plan } from '../mock/answer/unhappy-path.ts';
import { noteUnanswered } from '../mock/edge.ts';
import { SLOW_BODY_PAUSE_MS, SLOW_BODY_PIECES } from '../http/fault-pace.ts';

/** The mock's options that mean something without a socket (no port, host, deadlines or connection cap). */
export type HandlerMockOptions = Pick<
  MockOptions,
  | 'tokens'
  | 'declaredOnly'
  | 'absentItems'
  | 'seed'
  | 'journalSize'
  | 'maxBodyBytes'
  | 'maxDepth'
  | 'maxStateBytes'
  | 'isolateBy'
>;

export interface CreateHandlersOptions extends Partial<HandlerMockOptions> {
  /** A document path (Node only), a document loaded with loadSpec, or the module `plantstore msw` writes. */
  spec: DocumentSource;
  /**
   * Where the API is: requests under it are answered, others are left to other handlers and to
   * onUnhandledRequest. Absolute (`https://api.example.com/v1`) or a path (`/api`, any origin).
   * Default: the document's first server URL, its variables at their defaults; `/` when it has none.
   */
  baseUrl?: string;
  /**
   * Keep state in Web Storage across page reloads: true for localStorage under
   * `plantstore:<title>`, or where to keep it. Off by default: each run starts empty.
   */
  persist?: boolean | { key?: string; storage?: WebStorage };
  /** Warnings (a document's misfits, a full storage) go here; silent by default. */
  logger?: Logger;
  /** Every answer's delay, through msw's delay(): 200, '100-800' or '3g' (as `mock --latency`). */
  latency?: number | string;
  /** The share of requests, 0 to 1, answered with a declared 5xx or 429, or a network error; drawn by seed. */
  faultRate?: number;
}

/** Whose state, with `isolateBy: 'token'`: the state the requests carrying this bearer token see. */
export interface StateScope {
  token?: string;
}

export interface HandlerState {
  /** Every collection with its records, as `GET /__mock/state` answers (one token's with `{ token }`). */
  list(scope?: StateScope): Record<string, StoredRecord[]>;
  /** Seeds all or nothing, as `POST /__mock/state`: each item must be a valid create body with a new key. */
  seed(collections: Record<string, JsonValue[]>, scope?: StateScope): Promise<void>;
  /** Removes every stored resource (one token's with `{ token }`), as `DELETE /__mock/state`. */
  reset(scope?: StateScope): Promise<void>;
}

export interface HandlerJournal {
  /** The requests answered, oldest first, credentials redacted (`GET /__mock/requests`). */
  list(limit?: number): JournalEntry[];
  clear(): void;
}

/** Latency and faults per operation, as the HTTP mock's PUT /__mock/switches sets them. */
export interface HandlerSwitches {
  /**
   * Delays or faults every request to one operation ("GET /plants"), or the next `times` of them:
   * latency as `mock --latency` takes it, fault one of reset, close, timeout, malformed, slow-body
   * or a status the operation declares; null clears one. Throws on a value it cannot read.
   */
  set(
    operation: string,
    settings: { latency?: number | string | null; fault?: string | number | null; times?: number | null },
  ): void;
  /** Turns every switch off. */
  clear(): void;
}

/** MSW request handlers with the mock's state and journal beside them. */
export type PlantstoreHandlers = HttpHandler[] & {
  readonly state: HandlerState;
  readonly journal: HandlerJournal;
  readonly switches: HandlerSwitches;
  readonly engine: MockEngine;
};

/**
 * MSW request handlers that answer for a document as `plantstore mock` does.
 * @example const handlers = await createHandlers({ spec: prepared, baseUrl: '/api' });
 * setupWorker(...handlers).start();
 */
export async function createHandlers(options: CreateHandlersOptions): Promise<PlantstoreHandlers> {
  const { spec: source, baseUrl, persist, logger = silentLogger, latency, faultRate = 0, ...mockOptions } = options;
  const spec = await loadDocument(source);
  // The mock's default limit too (64 MB in a page): without one, a long test run grows the heap until the tab or Node
  // gives up.
  const store = storeFor(spec, persist, logger, mockOptions.maxStateBytes ?? DEFAULT_MOCK_OPTIONS.maxStateBytes);
  const engineOptions = { ...mockOptions, admin: true, host: '127.0.0.1', cors: false };
  const engine = createMockEngine({ spec, logger, store, options: engineOptions });
  const base = parseBase(baseUrl ?? firstServerUrl(spec));
  const maxBodyBytes = mockOptions.maxBodyBytes ?? DEFAULT_MOCK_OPTIONS.maxBodyBytes;
  const unhappy = createUnhappyPath(spec, engine.operations, {
    latency: readLatency(latency),
    faultRate,
    seed: mockOptions.seed ?? DEFAULT_MOCK_OPTIONS.seed,
  });
  for (const warning of unhappy.warnings) logger.warn(warning);
  const journalSize = mockOptions.journalSize ?? DEFAULT_MOCK_OPTIONS.journalSize;

  // msw/node's fetch interceptor follows a 3xx even without a Location, to `<dir>/null` (new URL(null,
  // url)), and counts hops per request: where the document routes that URL too, it follows for ever.
  // A browser returns such an answer as it is (Fetch: no Location, no redirect). The follow-up is
  // ended as a network error, as fetch ends a redirect loop.
  const followUps = new Set<string>();
  const handler = http.all(routesPattern(engine.operations, base), async ({ request }) => {
    if (followUps.delete(request.url)) {
      logger.warn(
        `msw/node followed a redirect without Location to ${request.url}; ` +
          `fetch with redirect: 'manual' to see the answer itself`,
      );
      return Response.error();
    }
    const url = new URL(request.url);
    const declared = Number(request.headers.get('content-length') ?? 0);
    if (declared > maxBodyBytes) return tooLarge(engine, maxBodyBytes);
    const bytes = request.body === null ? new Uint8Array(0) : new Uint8Array(await request.arrayBuffer());
    if (bytes.length > maxBodyBytes) return tooLarge(engine, maxBodyBytes);
    const headers: Record<string, string | undefined> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const mockRequest: HttpRequest = {
      method: request.method,
      path: url.pathname.slice(base.path.length) || '/',
      query: url.search.slice(1),
      headers,
      body: bytes,
    };
    const plan = unhappy.plan(mockRequest);
    if (plan !== undefined) return unhappily(mockRequest, plan);
    const answer = await engine.handle(mockRequest);
    if (followedByMswNode(request, answer) && followUps.size < 100) followUps.add(new URL('null', request.url).href);
    return toResponse(answer);
  });

  // What a page's fetch can be made to see: a delay, a declared error, a network error, a body that
  // fails or trickles. A TCP reset and a close are both the one network error fetch knows.
  async function unhappily(request: HttpRequest, plan: Plan): Promise<Response> {
    if (!plan.ok) {
      noteUnanswered(engine, logger, journalSize, request, plan, 400, [plan.message]);
      return new Response(engine.errorBody(400, plan.message), {
        status: 400,
        headers: { 'content-type': engine.errorType(400) },
      });
    }
    if (plan.delayMs > 0) await delay(plan.delayMs);
    const { fault } = plan;
    if (fault === undefined) return toResponse(await engine.handle(request));
    if (fault.kind === 'reset' || fault.kind === 'close' || fault.kind === 'timeout') {
      noteUnanswered(
        engine,
        logger,
        journalSize,
        request,
        plan,
        0,
        [`fault: ${fault.kind}, asked by ${fault.by}`],
        fault,
      );
      if (fault.kind === 'timeout') await delay('infinite');
      return Response.error();
    }
    const answer = await engine.handle({ ...request, fault });
    if (fault.kind === 'status') {
      if (answer.status === 429 && answer.headers['retry-after'] === undefined)
        answer.headers = { ...answer.headers, 'retry-after': '1' };
      return toResponse(answer);
    }
    return brokenBody(answer, fault.kind);
  }

  // The admin API's own code, so that a seed here is checked and numbered as POST /__mock/state's.
  const tenantFor = (scope: StateScope | undefined) => {
    if (scope?.token === undefined) return undefined;
    if (engineOptions.isolateBy !== 'token')
      throw new PlantstoreError(
        'USAGE',
        "state scoped by token needs createHandlers({ isolateBy: 'token' }): without it every token shares one state",
      );
    return tenantOf(scope.token);
  };
  // The engine's state API, as the admin API uses it: a seed here is checked and numbered as POST /__mock/state's.
  const state: HandlerState = {
    list(scope) {
      const listed = engine.state.list(tenantFor(scope));
      // (Only a store across a socket answers later, and the handlers keep theirs in the page.)
      if (listed instanceof Promise) throw new Error('plantstore bug: the handlers were given a shared store');
      return listed;
    },
    async seed(collections, scope) {
      const result = await engine.state.seed(collections, tenantFor(scope));
      if (!result.ok) throw new PlantstoreError('USAGE', `cannot seed the state: ${result.message}`);
    },
    reset: (scope) => engine.state.reset(tenantFor(scope)),
  };
  const journal: HandlerJournal = {
    list: (limit) => engine.journal.entries(limit),
    clear: () => engine.journal.clear(),
  };
  const switches: HandlerSwitches = {
    set(operation, settings) {
      const problem = unhappy.setSwitch(operation, settings.latency, settings.fault, settings.times);
      if (problem) throw new PlantstoreError('USAGE', problem);
    },
    clear: () => unhappy.clearSwitches(),
  };
  return Object.assign([handler], { state, journal, switches, engine });
}

/** A full state is refused in the handlers' own words: there is no flag and no admin API here. */
const HANDLER_WORDS = {
  limit: 'maxStateBytes',
  clear: 'handlers.state.reset()',
  raise: 'create the handlers with a larger maxStateBytes',
};

function storeFor(
  spec: LoadedSpec,
  persist: CreateHandlersOptions['persist'],
  logger: Logger,
  maxBytes: number,
): StateStore {
  const limits = { maxBytes, words: HANDLER_WORDS };
  if (!persist) return createMemoryStore(limits);
  const chosen = persist === true ? {} : persist;
  const storage = chosen.storage ?? (globalThis as { localStorage?: WebStorage }).localStorage;
  if (!storage)
    throw new PlantstoreError(
      'USAGE',
      'persist needs Web Storage: this host has no localStorage; pass persist: { storage }',
    );
  return createWebStorageStore(storage, chosen.key ?? `plantstore:${spec.document.info.title}`, logger, limits);
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Whether msw/node's interceptor (its FetchRequest) will follow this answer to `<dir>/null`. */
function followedByMswNode(request: Request, answer: HttpAnswer): boolean {
  if (!REDIRECTS.has(answer.status) || Object.keys(answer.headers).some((name) => name.toLowerCase() === 'location'))
    return false;
  // It refuses to follow a request with a body (but for a 303) before it requests anything.
  return (
    request.redirect === 'follow' &&
    request.constructor.name === 'FetchRequest' &&
    (answer.status === 303 || request.body === null)
  );
}

function tooLarge(engine: MockEngine, maxBodyBytes: number): Response {
  return new Response(engine.errorBody(413, `the request body is larger than ${maxBodyBytes} bytes (maxBodyBytes)`), {
    status: 413,
    statusText: reasonPhrase(413),
    headers: { 'content-type': engine.errorType(413) },
  });
}

function readLatency(latency: number | string | undefined): Latency | null {
  if (latency === undefined) return null;
  const read = parseLatency(latency, 'latency');
  if (!read.ok) throw new PlantstoreError('USAGE', read.message);
  return read.latency;
}

/**
 * malformed: half the body, then the stream fails (fetch's body read rejects); slow-body: the body in pieces, msw's
 * delay() apart.
 */
function brokenBody(answer: HttpAnswer, kind: 'malformed' | 'slow-body'): Response {
  const bytes =
    answer.body === undefined
      ? new Uint8Array(0)
      : typeof answer.body === 'string'
        ? new TextEncoder().encode(answer.body)
        : answer.body;
  const size = Math.max(1, Math.ceil(bytes.length / SLOW_BODY_PIECES));
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      if (kind === 'malformed') {
        controller.enqueue(bytes.slice(0, Math.floor(bytes.length / 2)));
        controller.error(new TypeError('plantstore fault: malformed (the body is cut short)'));
        return;
      }
      for (let sent = 0; sent < bytes.length; sent += size) {
        if (sent > 0) await delay(SLOW_BODY_PAUSE_MS);
        controller.enqueue(bytes.slice(sent, sent + size));
      }
      controller.close();
    },
  });
  return new Response(stream, {
    status: answer.status,
    statusText: reasonPhrase(answer.status) ?? '',
    headers: answer.headers,
  });
}

function toResponse(answer: HttpAnswer): Response {
  // The engine gives no body for HEAD, 204, 205 and 304 (a Response cannot hold one for the last three).
  const body = answer.body === undefined ? null : answer.body;
  // With its reason phrase, as the HTTP mock's answers and MSW's own HttpResponse have it.
  return new Response(body as ConstructorParameters<typeof Response>[0], {
    status: answer.status,
    statusText: reasonPhrase(answer.status) ?? '',
    headers: answer.headers,
  });
}

interface Base {
  /** `https://api.example.com`, or undefined for any origin. */
  origin?: string;
  /** The path every operation's path follows, without a trailing slash ('' for none). */
  path: string;
}

function firstServerUrl(spec: LoadedSpec): string {
  const [server] =
    (spec.document.servers as Array<{ url?: string; variables?: Record<string, { default?: string }> }> | undefined) ??
    [];
  if (typeof server?.url !== 'string') return '/';
  return server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => server.variables?.[name]?.default ?? whole);
}

function parseBase(baseUrl: string): Base {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(baseUrl)) {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new PlantstoreError(
        'USAGE',
        `baseUrl ${baseUrl} is not a URL; give an absolute URL (https://api.example.com/v1) or a path (/api)`,
      );
    }
    return { origin: url.origin, path: url.pathname.replace(/\/+$/, '') };
  }
  // As a URL carries it: dot segments resolved, text a path cannot hold percent-encoded ('/corner api', './v1').
  const path = new URL(`/${baseUrl}`.replace(/\/{2,}/g, '/'), 'http://base.invalid').pathname;
  return { path: path.replace(/\/+$/, '') };
}

/**
 * One pattern for every path the engine routes, under the base: MSW matches it against the URL
 * without its query. A path the document does not declare is not matched, so MSW passes it on
 * (and onUnhandledRequest sees it) as it would for any handler. Literal text is matched as a URL
 * carries it (the router's wire form: `/#X-Amz-Target` arrives as `/%23X-Amz-Target`).
 */
function routesPattern(operations: readonly Operation[], base: Base): RegExp {
  const paths = [...new Set(operations.map((operation) => operation.path))].map((path) => templateSource(path));
  const origin = base.origin === undefined ? '[a-z][a-z0-9+.-]*://[^/]+' : escapeRegExp(base.origin);
  return new RegExp(`^${origin}${escapeRegExp(base.path)}(?:${paths.join('|') || '(?!)'})$`);
}
