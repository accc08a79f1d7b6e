// The README's unhappy-path recipes, as written there: a frontend's loading state under a delay,
// and its retry after a fault, in vitest with the MSW handlers and against the HTTP mock.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupServer } from 'msw/node';
import { createHandlers } from '../../src/msw/handlers.ts';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';

const DOC = 'test/documents/unhappy-path.yaml';

// --- README: src/plants.js, the app's code under test ---
async function loadPlants(baseUrl: string, view: { loading?: boolean; plants?: unknown; error?: string }, retries = 1) {
  view.loading = true;
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await fetch(`${baseUrl}/plants`);
        if (answer.status >= 500 && attempt < retries) continue;
        view.plants = await answer.json();
        return;
      } catch {
        if (attempt >= retries) {
          view.error = 'offline';
          return;
        }
      }
    }
  } finally {
    view.loading = false;
  }
}

describe('vitest with the MSW handlers', () => {
  // --- README: src/mocks/server.js and vitest.setup.js ---
  let handlers: Awaited<ReturnType<typeof createHandlers>>;
  let server: ReturnType<typeof setupServer>;
  beforeAll(async () => {
    handlers = await createHandlers({ spec: DOC, baseUrl: 'https://api.example.test' });
    server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'error' });
  });
  afterEach(() => {
    vi.useRealTimers();
    handlers.switches.clear();
    handlers.journal.clear();
  });
  afterAll(() => server.close());

  // --- README: the two tests ---
  it('shows the spinner while the plants load', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] }); // msw's delay() waits on setTimeout
    handlers.switches.set('GET /plants', { latency: 300 });
    const view: { loading?: boolean; plants?: unknown } = {};
    const loading = loadPlants('https://api.example.test', view);
    await vi.advanceTimersByTimeAsync(299);
    expect(view.loading).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    await loading;
    expect(view).toEqual({ loading: false, plants: [] });
  });

  it('retries once after a network error', async () => {
    handlers.switches.set('GET /plants', { fault: 'reset', times: 1 });
    const view: { plants?: unknown; error?: string } = {};
    await loadPlants('https://api.example.test', view);
    expect(view.plants).toEqual([]);
    expect(handlers.journal.list().map((entry) => entry.fault?.kind ?? entry.status)).toEqual(['reset', 200]);
  });
});

describe('against the HTTP mock', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ spec: DOC, port: 0 });
  });
  afterAll(() => mock.close());
  // --- README: the same tests, switched through the admin API ---
  const switches = (body: unknown) =>
    fetch(`${mock.url}/__mock/switches`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  afterEach(async () => {
    await fetch(`${mock.url}/__mock/switches`, { method: 'DELETE' });
    await fetch(`${mock.url}/__mock/requests`, { method: 'DELETE' });
  });

  it('shows the spinner while the plants load', async () => {
    await switches({ 'GET /plants': { latency: 300 } });
    const view: { loading?: boolean; plants?: unknown } = {};
    const loading = loadPlants(mock.url, view);
    expect(view.loading).toBe(true);
    await loading;
    expect(view).toEqual({ loading: false, plants: [] });
  });

  it('retries once after a 503', async () => {
    await switches({ 'GET /plants': { fault: 503, times: 1 } });
    const view: { plants?: unknown; error?: string } = {};
    await loadPlants(mock.url, view);
    expect(view.plants).toEqual([]);
    const { requests } = (await (await fetch(`${mock.url}/__mock/requests`)).json()) as {
      requests: Array<{ status: number }>;
    };
    expect(requests.map((entry) => entry.status)).toEqual([503, 200]);
  });

  it('retries once after a reset connection', async () => {
    await switches({ 'GET /plants': { fault: 'reset', times: 1 } });
    const view: { plants?: unknown; error?: string } = {};
    await loadPlants(mock.url, view);
    expect(view).toMatchObject({ plants: [] });
  });
});
