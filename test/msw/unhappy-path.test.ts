// What the MSW handlers can do of the unhappy path, as fetch in a test sees it: a delay through
// msw's delay(), declared errors drawn by faultRate, a network error for reset, close and
// timeout, a body that fails half-way (malformed) or arrives in pieces (slow-body).
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/msw/handlers.ts';
import { prepareDocument } from '../../src/msw/prepare.ts';
import { loadSpec } from '../../src/document/load-spec.ts';

const DOC = 'test/documents/unhappy-path.yaml';
const BASE = 'https://api.unhappy.test';
let server: ReturnType<typeof setupServer> | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});
const serve = async (options: { latency?: number | string; faultRate?: number; seed?: number } = {}) => {
  const handlers = await createHandlers({ spec: DOC, baseUrl: BASE, ...options });
  server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  return handlers;
};

describe('the MSW handlers, unhappily', () => {
  it('delay: a request answered after at least the asked delay (Prefer: delay= and the latency option)', async () => {
    await serve({ latency: 120 });
    let started = performance.now();
    expect((await fetch(`${BASE}/plants`)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(119);
    started = performance.now();
    await fetch(`${BASE}/plants`, { headers: { prefer: 'delay=250' } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(249);
  });

  it('delays an operation by its x-plantstore-latency, also from the module `plantstore msw` writes', async () => {
    const prepared = await prepareDocument(await loadSpec(DOC));
    const handlers = await createHandlers({ spec: prepared, baseUrl: BASE });
    server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'error' });
    const started = performance.now();
    expect((await fetch(`${BASE}/plants/1`)).status).toBe(404);
    expect(performance.now() - started).toBeGreaterThanOrEqual(149);
  });

  it.each(['reset', 'close'])('fault=%s: a network error, the TypeError fetch throws for one', async (fault) => {
    const handlers = await serve();
    await expect(
      fetch(`${BASE}/plants`, {
        method: 'POST',
        headers: { prefer: `fault=${fault}`, 'content-type': 'application/json' },
        body: '{"id":1,"name":"a"}',
      }),
    ).rejects.toThrow(TypeError);
    expect(handlers.state.list()).toEqual({});
    expect(handlers.journal.list().at(-1)).toMatchObject({ fault: { kind: fault } });
  });

  it('fault=timeout: no answer until the client gives up', async () => {
    await serve();
    await expect(fetch(`${BASE}/plants?__fault=timeout`, { signal: AbortSignal.timeout(200) })).rejects.toThrow(
      /aborted|timeout/i,
    );
  });

  it('fault=malformed: the status arrives, then reading the body fails', async () => {
    await serve();
    const answer = await fetch(`${BASE}/plants`, { headers: { prefer: 'fault=malformed' } });
    expect(answer.status).toBe(200);
    await expect(answer.text()).rejects.toThrow();
  });

  it('fault=slow-body: the whole body, in pieces', async () => {
    await serve();
    const answer = await fetch(`${BASE}/plants`, { headers: { prefer: 'fault=slow-body' } });
    let pieces = 0;
    const reader = answer.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) pieces++;
    expect(pieces).toBeGreaterThan(1);
  });

  it('faultRate: the same declared errors and network errors again under one seed, and nothing stored by them', async () => {
    const run = async (seed: number) => {
      const handlers = await serve({ faultRate: 0.5, seed });
      const seen: string[] = [];
      for (let id = 1; id <= 30; id++) {
        try {
          const answer = await fetch(`${BASE}/plants`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ id, name: 'a' }),
          });
          seen.push(String(answer.status));
          await answer.text().catch(() => seen.push('cut'));
        } catch {
          seen.push('network error');
        }
      }
      const stored = handlers.state.list()['/plants'] ?? [];
      server!.close();
      return { seen, stored };
    };
    const first = await run(3);
    expect((await run(3)).seen).toEqual(first.seen);
    expect(first.seen).toContain('500');
    expect(first.seen).toContain('network error');
    expect(first.stored).toHaveLength(
      first.seen.filter((s) => s === '201').length - first.seen.filter((s) => s === 'cut').length,
    );
  });
});
