// createHandlers' own options: where its handlers match, state kept in Web Storage, the body limit,
// and the state and journal beside the handlers. (The answers themselves are the shared battery's.)
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandlers, type CreateHandlersOptions } from '../../src/msw/index.ts';
import type { WebStorage } from '../../src/state/web-storage-store.ts';
import { CANARY } from '../helpers/engine.ts';
import { stringifyJson, type JsonValue } from '../../src/json/exact-json.ts';

const PLANTS = 'http://127.0.0.1:4010/plants'; // the Plant Store's first server
const auth = { authorization: `Bearer ${CANARY}`, 'content-type': 'application/json' };
let close: (() => void) | undefined;
/**
 * The URLs MSW found no handler for (refused, so that nothing reaches the network: MSW answers 500 "Unhandled
 * Exception").
 */
let unhandled: string[] = [];

afterEach(() => {
  close?.();
  close = undefined;
});

async function serve(options: Partial<CreateHandlersOptions> = {}) {
  const handlers = await createHandlers({ spec: 'openapi/plant-store.yaml', ...options });
  const server = setupServer(...handlers);
  unhandled = [];
  server.listen({
    onUnhandledRequest(request) {
      unhandled.push(`${request.method} ${request.url}`);
      throw new Error('unhandled');
    },
  });
  close = () => server.close();
  return handlers;
}

const create = (url: string, body: string) => fetch(url, { method: 'POST', headers: auth, body });

class MemoryStorage implements WebStorage {
  readonly items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

describe('createHandlers', () => {
  it("matches under the document's first server URL by default, and leaves other URLs to onUnhandledRequest", async () => {
    await serve();
    expect((await create(PLANTS, '{"id": 1, "name": "Fern"}')).status).toBe(200);
    expect((await fetch('http://127.0.0.1:4010/nowhere')).statusText).toBe('Unhandled Exception');
    expect((await fetch('http://example.com/plants', { method: 'POST' })).statusText).toBe('Unhandled Exception');
    expect(unhandled).toEqual(['GET http://127.0.0.1:4010/nowhere', 'POST http://example.com/plants']);
  });

  it('matches under a path on any origin, and under an absolute base URL on that origin only', async () => {
    await serve({ baseUrl: '/api/' });
    expect((await create('http://localhost:5173/api/plants', '{"id": 1, "name": "Fern"}')).status).toBe(200);
    expect((await create('https://app.example.com/api/plants', '{"id": 2, "name": "Ivy"}')).status).toBe(200);
    expect((await fetch('http://localhost:5173/plants', { method: 'POST' })).statusText).toBe('Unhandled Exception');
    expect(unhandled).toEqual(['POST http://localhost:5173/plants']);
    close?.();
    await serve({ baseUrl: 'https://api.example.com/v1' });
    expect((await create('https://api.example.com/v1/plants', '{"id": 1, "name": "Fern"}')).status).toBe(200);
    expect((await fetch('https://other.example.com/v1/plants', { method: 'POST' })).statusText).toBe(
      'Unhandled Exception',
    );
    expect(unhandled).toEqual(['POST https://other.example.com/v1/plants']);
  });

  it('refuses a baseUrl that is not a URL, with what it wants', async () => {
    await expect(createHandlers({ spec: 'openapi/plant-store.yaml', baseUrl: 'http://[::1' })).rejects.toThrow(
      /baseUrl .* is not a URL/,
    );
  });

  it('refuses a missing or unreadable spec with one clear error, not a TypeError', async () => {
    for (const spec of [undefined, {}, 42]) {
      const made = createHandlers({ spec } as unknown as CreateHandlersOptions);
      await expect(made).rejects.toMatchObject({ name: 'PlantstoreError', code: 'SPEC_INVALID' });
      await expect(made).rejects.toThrow('createHandlers needs `spec`');
    }
  });

  it('keeps state in Web Storage across handler sets, exact int64 included, and starts empty without persist', async () => {
    const storage = new MemoryStorage();
    await serve({ persist: { storage } });
    expect((await create(PLANTS, '{"id": 9007199254740993, "name": "Fern"}')).status).toBe(200);
    expect([...storage.items.keys()]).toEqual(['plantstore:OpenAPI Plant Store']);
    close?.();
    const again = await serve({ persist: { storage } });
    expect(stringifyJson(again.state.list() as JsonValue)).toBe('{"/plants":[{"id":9007199254740993,"name":"Fern"}]}');
    expect(storage.items.get('plantstore:OpenAPI Plant Store')).toContain('9007199254740993');
    const duplicate = await create(PLANTS, '{"id": 9007199254740993, "name": "Fern"}');
    expect(duplicate.status).toBe(400);
    close?.();
    const fresh = await serve();
    expect(fresh.state.list()).toEqual({});
  });

  it('clears the stored state on reset, and starts empty from a stored text it cannot read', async () => {
    const storage = new MemoryStorage();
    const handlers = await serve({ persist: { storage, key: 'mine' } });
    await create(PLANTS, '{"id": 1, "name": "Fern"}');
    await handlers.state.reset();
    expect(storage.items.has('mine')).toBe(false);
    close?.();
    storage.setItem('mine', '{not json');
    const warnings: string[] = [];
    const logger = {
      request() {},
      info() {},
      warn: (line: string) => void warnings.push(line),
      error() {},
      flush() {},
    };
    const fresh = await serve({ persist: { storage, key: 'mine' }, logger });
    expect(fresh.state.list()).toEqual({});
    expect(warnings).toEqual(['the state saved under "mine" could not be read; starting empty']);
  });

  it('refuses persist where there is no Web Storage, saying how to give one', async () => {
    await expect(createHandlers({ spec: 'openapi/plant-store.yaml', persist: true })).rejects.toThrow(
      /no localStorage; pass persist: \{ storage \}/,
    );
  });

  it('answers 413 in the error shape past maxBodyBytes', async () => {
    await serve({ maxBodyBytes: 64 });
    const answer = await create(PLANTS, JSON.stringify({ id: 1, name: 'x'.repeat(100) }));
    expect(answer.status).toBe(413);
    expect(await answer.json()).toEqual({
      error: 413,
      message: 'the request body is larger than 64 bytes (maxBodyBytes)',
    });
  });

  it('seeds all or nothing, lists and journals, with the token redacted', async () => {
    const handlers = await serve();
    await handlers.state.seed({ '/plants': [{ id: 5, name: 'Moss' }] });
    await expect(handlers.state.seed({ '/plants': [{ id: 6, name: 'Ok' }, { name: 'no id' }] })).rejects.toThrow(
      /^cannot seed the state: .*id/,
    );
    expect(handlers.state.list()).toEqual({ '/plants': [{ id: 5, name: 'Moss' }] });
    await create(PLANTS, '{"id": 7, "name": "Ivy"}');
    const [entry] = handlers.journal.list();
    expect(entry).toMatchObject({ method: 'POST', path: '/plants', status: 200, operationId: 'createPlant' });
    expect(JSON.stringify(handlers.journal.list())).not.toContain(CANARY);
    handlers.journal.clear();
    expect(handlers.journal.list()).toEqual([]);
  });
});

describe('a redirect without Location, through msw/node', () => {
  it("ends the interceptor's follow-up as a network error instead of following it for ever, and answers redirect: manual as it is", async () => {
    const warnings: string[] = [];
    const logger = {
      request() {},
      info() {},
      warn: (line: string) => void warnings.push(line),
      error() {},
      flush() {},
    };
    await serve({ spec: 'test/documents/redirect-without-location.yaml', logger });
    const manual = await fetch('http://files.test/files/report.pdf', { redirect: 'manual' });
    expect(manual.status).toBe(302);
    await expect(fetch('http://files.test/files/report.pdf')).rejects.toThrow('Failed to fetch');
    expect(warnings.filter((line) => line.startsWith('msw/node'))).toEqual([
      "msw/node followed a redirect without Location to http://files.test/files/null; fetch with redirect: 'manual' to see the answer itself",
    ]);
    // The guard is spent: a later request to that URL is answered.
    expect((await fetch('http://files.test/files/null', { redirect: 'manual' })).status).toBe(302);
  });
});
