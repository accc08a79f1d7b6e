// createHandlers as an MSW user meets it, beyond the shared battery: one prepared module behind
// many createHandlers calls, state per token, onUnhandledRequest, and a mocked 3xx in msw/node.
import { resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createHandlers } from '../../src/msw/handlers.ts';
import { prepareDocument } from '../../src/msw/prepare.ts';

const CORNERS = resolve('test/documents/transport-corners.yaml');
const GROWN = resolve('test/documents/plant-store-grown.yaml');
const BASE = 'https://api.handlers.test/v1';
const COUNT = `${BASE}/%23X-Amz-Target=Things.Count`;

let server: ReturnType<typeof setupServer> | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});
const serve = (...handlers: Parameters<typeof setupServer>) => {
  server = setupServer(...handlers);
  return server;
};

async function withoutCache<T>(body: () => Promise<T>): Promise<T> {
  const before = process.env.PLANTSTORE_NO_CACHE;
  process.env.PLANTSTORE_NO_CACHE = '1';
  try {
    return await body();
  } finally {
    if (before === undefined) delete process.env.PLANTSTORE_NO_CACHE;
    else process.env.PLANTSTORE_NO_CACHE = before;
  }
}

describe('the prepared document', () => {
  it('is the document as read, examples and extensions kept, whether or not the load came from the cache', async () => {
    const cold = await withoutCache(async () => prepareDocument(await loadSpec(CORNERS)));
    await loadSpec(CORNERS); // fills the cache
    const cached = await prepareDocument(await loadSpec(CORNERS));
    expect(cold.bundled).toEqual(cached.bundled);
    const count = (
      cold.bundled.paths as Record<
        string,
        Record<string, { responses: Record<string, { content: Record<string, unknown> }> }>
      >
    )['/#X-Amz-Target=Things.Count'];
    expect(count.post.responses['200'].content['application/json']).toMatchObject({ example: { count: 3 } });
  });

  it('serves its declared examples to every createHandlers made from it, and stays unchanged', async () => {
    const prepared = await withoutCache(async () => prepareDocument(await loadSpec(CORNERS)));
    const before = JSON.stringify(prepared);
    for (let round = 0; round < 3; round++) {
      const handlers = await createHandlers({ spec: prepared, baseUrl: BASE });
      serve(...handlers).listen({ onUnhandledRequest: 'error' });
      const answer = await fetch(COUNT, { method: 'POST' });
      expect(await answer.text()).toBe('{"count":3}');
      server!.close();
    }
    expect(JSON.stringify(prepared)).toBe(before);
  });
});

describe("handlers.state with isolateBy: 'token'", () => {
  const tenant = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 16);

  it("seeds, lists and resets one token's state, which only that token's requests see", async () => {
    const handlers = await createHandlers({ spec: GROWN, baseUrl: BASE, isolateBy: 'token' });
    serve(...handlers).listen({ onUnhandledRequest: 'error' });
    await handlers.state.seed(
      { '/plants': [{ id: 9007199254740993n, name: 'Alice plant' }] },
      { token: 'alice-token' },
    );
    const list = (token: string) =>
      fetch(`${BASE}/plants`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.text());
    expect(await list('alice-token')).toBe('[{"name":"Alice plant"}]');
    expect(await list('bob-token')).toBe('[]');
    expect(handlers.state.list({ token: 'alice-token' })).toEqual({
      '/plants': [{ id: 9007199254740993n, name: 'Alice plant' }],
    });
    expect(handlers.state.list({ token: 'bob-token' })).toEqual({});
    // The whole state names tenants by hash, never by token.
    expect(Object.keys(handlers.state.list())).toEqual([`${tenant('alice-token')}\u0000/plants`]);
    await handlers.state.reset({ token: 'bob-token' });
    expect(await list('alice-token')).toBe('[{"name":"Alice plant"}]');
    await handlers.state.reset({ token: 'alice-token' });
    expect(await list('alice-token')).toBe('[]');
  });

  it('refuses a token scope without isolateBy: token, saying why', async () => {
    const handlers = await createHandlers({ spec: GROWN, baseUrl: BASE });
    expect(() => handlers.state.list({ token: 'alice-token' })).toThrow(/isolateBy: 'token'/);
    await expect(
      handlers.state.seed({ '/plants': [{ id: 1, name: 'Fern' }] }, { token: 'alice-token' }),
    ).rejects.toThrow(/isolateBy: 'token'/);
    expect(handlers.state.list()).toEqual({});
  });
});

describe('a full state', () => {
  it('is refused in the handlers’ own words: their option and handlers.state.reset(), no flag and no admin API', async () => {
    const handlers = await createHandlers({ spec: GROWN, baseUrl: BASE, maxStateBytes: 100 });
    serve(...handlers).listen({ onUnhandledRequest: 'error' });
    const create = (body: string) =>
      fetch(`${BASE}/plants`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body,
      }).then((r) => r.json());
    await create('{"id":1,"name":"Fern"}');
    expect(await create('{"id":2,"name":"Moss"}')).toEqual({
      error: 400,
      message:
        "the mock's state is full: its records would take more than 100 bytes (maxStateBytes); handlers.state.reset() clears it, or create the handlers with a larger maxStateBytes",
    });
  });
});

describe('baseUrl', () => {
  it.each([
    ['./v1', 'http://localhost:5173/v1/plants'],
    ['v1/', 'http://localhost:5173/v1/plants'],
    ['/corner api/v1', 'http://localhost:5173/corner%20api/v1/plants'],
    ['https://API.Handlers.test:443/v1/', 'https://api.handlers.test/v1/plants'],
  ])('%s matches %s as a URL carries it', async (baseUrl, url) => {
    serve(...(await createHandlers({ spec: GROWN, baseUrl }))).listen({ onUnhandledRequest: 'error' });
    const answer = await fetch(url, { headers: { authorization: 'Bearer t' } });
    expect([answer.status, answer.statusText, await answer.text()]).toEqual([200, 'OK', '[]']);
  });

  it('gives every answer its reason phrase, as MSW’s own HttpResponse does', async () => {
    serve(...(await createHandlers({ spec: GROWN, baseUrl: BASE }))).listen({ onUnhandledRequest: 'error' });
    const unauthorized = await fetch(`${BASE}/plants`);
    expect([unauthorized.status, unauthorized.statusText]).toEqual([401, 'Unauthorized']);
    const tooLarge = await fetch(`${BASE}/plants`, {
      method: 'POST',
      headers: { authorization: 'Bearer t' },
      body: 'x'.repeat(1048577),
    });
    expect([tooLarge.status, tooLarge.statusText]).toEqual([413, 'Payload Too Large']);
  });
});

describe('onUnhandledRequest', () => {
  it('sees a path the document does not declare under baseUrl and a request outside it, never a declared path', async () => {
    const handlers = await createHandlers({ spec: GROWN, baseUrl: BASE });
    const seen: string[] = [];
    // A callback that throws stops the request before the network (MSW answers it 500 Unhandled Exception).
    serve(...handlers).listen({
      onUnhandledRequest(request) {
        seen.push(`${request.method} ${request.url}`);
        throw new Error('unhandled');
      },
    });
    expect((await fetch(`${BASE}/plants`, { headers: { authorization: 'Bearer t' } })).status).toBe(200);
    expect((await fetch(`${BASE}/plants/1`, { method: 'PUT', headers: { authorization: 'Bearer t' } })).status).toBe(
      405,
    );
    expect((await fetch(`${BASE}/plants/1/leaves`)).status).toBe(500);
    expect((await fetch(`${BASE}/plants/`)).status).toBe(500);
    expect((await fetch('https://api.handlers.test/v2/plants')).status).toBe(500);
    expect(seen).toEqual([
      `GET ${BASE}/plants/1/leaves`,
      `GET ${BASE}/plants/`,
      'GET https://api.handlers.test/v2/plants',
    ]);
  });
});

describe('request bodies as a page sends them', () => {
  it('reads a FormData body (multipart, its boundary chosen by fetch) and URLSearchParams (a form)', async () => {
    serve(...(await createHandlers({ spec: CORNERS, baseUrl: BASE }))).listen({ onUnhandledRequest: 'error' });
    const parts = new FormData();
    parts.set('id', '9007199254740993');
    parts.set('name', 'from FormData');
    parts.set('size', '2');
    const multipart = await fetch(`${BASE}/things`, { method: 'POST', body: parts });
    expect([multipart.status, await multipart.text()]).toEqual([
      201,
      '{"id":9007199254740993,"name":"from FormData","size":2}',
    ]);
    const form = await fetch(`${BASE}/things`, {
      method: 'POST',
      body: new URLSearchParams({ id: '6', name: 'from a form' }),
    });
    expect([form.status, await form.text()]).toEqual([201, '{"id":6,"name":"from a form"}']);
    const read = await fetch(`${BASE}/things/9007199254740993`);
    expect(await read.text()).toBe('{"id":9007199254740993,"name":"from FormData","size":2}');
  });
});

describe('a forced 3xx in msw/node', () => {
  it("is answered as it is to redirect: 'manual' (msw/node's fetch follows a mocked 3xx even without a Location)", async () => {
    const handlers = await createHandlers({ spec: CORNERS, baseUrl: BASE });
    serve(...handlers).listen({ onUnhandledRequest: 'error' });
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: 'code=302' },
      body: '{"id":1,"name":"a"}',
    };
    const moved = await fetch(`${BASE}/things`, { ...init, redirect: 'manual' });
    expect(moved.status).toBe(302);
    expect(await moved.text()).toBe('');
    await expect(fetch(`${BASE}/things`, init)).rejects.toThrow(/Failed to fetch/);
  });
});
