// The /__mock/ page for the person at the keyboard (a browser's GET /__mock/ with Accept: text/html)
// and the switches it sets (GET and PUT /__mock/switches). Both sit behind the admin API's own
// access check; everything else under /__mock/ is the engine's admin API, unchanged.
import type { HttpRequest, HttpAnswer } from '../../http/types.ts';
import { parseJson } from '../../json/exact-json.ts';
import { textOf } from '../../http/bytes.ts';
import { createAdminAccess } from './admin-access.ts';
import type { Loaded } from '../edge.ts';
import type { MockOptions } from '../options.ts';
import { LATENCY_PROFILES } from '../answer/latency.ts';
import { FAULT_MEANINGS } from '../answer/faults.ts';
import { MOCK_PAGE_HTML, TOKEN_PAGE_HTML } from './mock-page-html.ts';

const json = (status: number, value: unknown): HttpAnswer => ({
  status,
  headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  body: JSON.stringify(value),
});

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // Nothing from elsewhere: the page is one file, its script and styles inline.
  'content-security-policy': "default-src 'self'; img-src data:; script-src 'unsafe-inline'; style-src 'unsafe-inline'",
};

/** Whether a request to /__mock/ is a browser's asking for the page rather than a script's for the endpoint list. */
export const wantsPage = (request: HttpRequest): boolean =>
  (request.method === 'GET' || request.method === 'HEAD') &&
  request.path === '/__mock/' &&
  /\btext\/html\b/i.test(request.headers.accept ?? '');

/** The page, for a request the admin access check let through; a form asking for the token for one it did not. */
export function pageResponse(allowed: boolean): HttpAnswer {
  if (!allowed)
    return {
      status: 401,
      headers: { ...HTML_HEADERS, 'www-authenticate': 'Bearer realm="plantstore-admin"' },
      body: TOKEN_PAGE_HTML,
    };
  return { status: 200, headers: HTML_HEADERS, body: MOCK_PAGE_HTML };
}

/** The page's handler: an answer for its routes, undefined for the rest of the admin API. */
export function createMockPage(setup: { options: MockOptions }) {
  const access = createAdminAccess(setup.options.host, setup.options.adminToken);
  const switches = (loaded: Loaded) => ({
    latency: loaded.unhappy.options.latency?.label ?? null,
    faultRate: loaded.unhappy.options.faultRate,
    seed: loaded.unhappy.options.seed,
    profiles: LATENCY_PROFILES,
    faults: FAULT_MEANINGS,
    // The collections a seed can fill (the page lists them before anything is stored).
    collections: [
      ...new Set(
        [...loaded.engine.bindings.values()]
          .filter((binding) => binding.role === 'create')
          .map((binding) => binding.collection),
      ),
    ],
    operations: loaded.unhappy.describe().map((entry) => ({
      ...entry,
      switch: { latency: entry.switch.latency?.label ?? null, fault: entry.switch.fault },
    })),
  });
  return (request: HttpRequest, loaded: Loaded): HttpAnswer | undefined => {
    const route = `${request.method} ${request.path}`;
    if (wantsPage(request)) return pageResponse(access(request).ok);
    if (request.path !== '/__mock/switches') return undefined;
    // Refused in the admin API's own words (the engine says them).
    if (!access(request).ok) return undefined;
    if (route === 'GET /__mock/switches') return json(200, switches(loaded));
    if (route === 'PUT /__mock/switches') {
      const parsed = parseJson(textOf(request.body));
      const body = parsed.ok ? parsed.value : undefined;
      if (body === null || typeof body !== 'object' || Array.isArray(body))
        return json(400, {
          error: 400,
          message: 'send {"GET /plants": {"latency": "800", "fault": "reset", "times": 1}}; null or "" clears a switch',
        });
      for (const [operation, value] of Object.entries(body)) {
        const entry = (value ?? {}) as { latency?: unknown; fault?: unknown; times?: unknown };
        if (typeof entry !== 'object')
          return json(400, { error: 400, message: `${operation}: expected {"latency": ..., "fault": ...}` });
        const problem = loaded.unhappy.setSwitch(operation, entry.latency, entry.fault, entry.times);
        if (problem) return json(400, { error: 400, message: problem });
      }
      return json(200, switches(loaded));
    }
    if (route === 'DELETE /__mock/switches') {
      loaded.unhappy.clearSwitches();
      return { status: 204, headers: {} };
    }
    return json(405, {
      error: 405,
      message: `${request.method} is not allowed on /__mock/switches; use GET, PUT or DELETE`,
    });
  };
}
