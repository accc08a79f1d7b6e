// The /__mock/ page for the person at the keyboard (a browser's GET /__mock/ with Accept: text/html)
// and the switches it sets (GET and PUT /__mock/switches). Both sit behind the admin API's own
// access check; everything else under /__mock/ is the engine's admin API, unchanged.
import type { MockRequest, MockResponse } from '../http/types.ts';
import { parseJson } from '../json/exact-json.ts';
import { textOf } from '../http/bytes.ts';
import { createAdminAccess } from './admin-access.ts';
import type { Loaded } from './edge.ts';
import type { MockOptions } from './options.ts';
import { LATENCY_PROFILES } from './latency.ts';
import { FAULT_MEANINGS } from './faults.ts';
import { MOCK_PAGE_HTML } from './mock-page-html.ts';

const json = (status: number, value: unknown): MockResponse => ({
  status,
  headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  body: JSON.stringify(value),
});

/** The page's handler: an answer for its routes, undefined for the rest of the admin API. */
export function createMockPage(setup: { options: MockOptions; violations?: () => unknown }) {
  const access = createAdminAccess(setup.options.host, setup.options.adminToken);
  const switches = (loaded: Loaded) => ({
    latency: loaded.unhappy.options.latency?.label ?? null,
    faultRate: loaded.unhappy.options.faultRate,
    seed: loaded.unhappy.options.seed,
    profiles: LATENCY_PROFILES,
    faults: FAULT_MEANINGS,
    operations: loaded.unhappy.describe().map((entry) => ({ ...entry, switch: { latency: entry.switch.latency?.label ?? null, fault: entry.switch.fault } })),
    ...(setup.violations ? { violations: setup.violations() } : {}),
  });
  return (request: MockRequest, loaded: Loaded): MockResponse | undefined => {
    const route = `${request.method} ${request.path}`;
    const isPage = route === 'GET /__mock/' && /\btext\/html\b/i.test(request.headers.accept ?? '');
    if (!isPage && request.path !== '/__mock/switches') return undefined;
    // Refused in the admin API's own words (the engine says them).
    if (!access(request).ok) return undefined;
    if (isPage) {
      return {
        status: 200,
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          // Nothing from elsewhere: the page is one file, scripts and styles inline.
          'content-security-policy': "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'",
        },
        body: MOCK_PAGE_HTML,
      };
    }
    if (route === 'GET /__mock/switches') return json(200, switches(loaded));
    if (route === 'PUT /__mock/switches') {
      const parsed = parseJson(textOf(request.body));
      const body = parsed.ok ? parsed.value : undefined;
      if (body === null || typeof body !== 'object' || Array.isArray(body))
        return json(400, { error: 400, message: 'send {"GET /plants": {"latency": "800", "fault": "reset"}}; null or "" clears a switch' });
      for (const [operation, value] of Object.entries(body)) {
        const entry = (value ?? {}) as { latency?: unknown; fault?: unknown };
        if (typeof entry !== 'object') return json(400, { error: 400, message: `${operation}: expected {"latency": ..., "fault": ...}` });
        const problem = loaded.unhappy.setSwitch(operation, entry.latency, entry.fault);
        if (problem) return json(400, { error: 400, message: problem });
      }
      return json(200, switches(loaded));
    }
    return json(405, { error: 405, message: `${request.method} is not allowed on /__mock/switches; use GET or PUT` });
  };
}
