// Latency in every form: --latency (fixed, range, profile), Prefer: delay= and __delay=, and an
// operation's x-plantstore-latency. The socket tests check lower bounds only (a delay is never
// shorter than asked; a busy machine only makes it longer) and order of events, never durations.
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { parseLatency, LATENCY_PROFILES, delayOf } from '../../src/mock/answer/latency.ts';
import { createUnhappyPath } from '../../src/mock/answer/unhappy-path.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import type { HttpRequest } from '../../src/http/types.ts';

const DOC = 'test/documents/unhappy-path.yaml';
let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const get = (path: string, headers: Record<string, string> = {}): HttpRequest => ({
  method: 'GET',
  path,
  query: '',
  headers,
  body: '',
});

describe('latency words', () => {
  it.each([
    ['200', 200, 200],
    ['100-800', 100, 800],
    ['100 - 800', 100, 800],
    ['0', 0, 0],
    ['3g', ...LATENCY_PROFILES['3g']],
    ['Slow-3G', ...LATENCY_PROFILES['slow-3g']],
  ])('reads %s as %i to %i ms', (text, min, max) => {
    const read = parseLatency(text, '--latency');
    expect(read).toMatchObject({ ok: true, latency: { min, max } });
  });

  it.each(['fast', '-5', '800-100', '1.5', '', '999999999'])('refuses %j, naming the forms it takes', (text) => {
    const read = parseLatency(text, '--latency');
    expect(read.ok).toBe(false);
    if (!read.ok)
      expect(read.message).toMatch(
        /^--latency: .* is not a delay in ms \(200\), a range \(100-800\) or a profile \(wifi, 4g, 3g, slow-3g\)/,
      );
  });

  it('draws a range uniformly at both ends', () => {
    const latency = { min: 100, max: 800, label: '100-800' };
    expect(delayOf(latency, 0)).toBe(100);
    expect(delayOf(latency, 0.999_999)).toBe(800);
  });
});

describe('the delay a request gets', () => {
  it('is the same under one seed and differs under another, within the range', async () => {
    const spec = await loadSpec(DOC);
    const plans = (seed: number) => {
      const path = createUnhappyPath(spec, listOperations(spec), {
        latency: { min: 100, max: 800, label: '100-800' },
        faultRate: 0,
        seed,
      });
      return Array.from({ length: 30 }, () => {
        const plan = path.plan(get('/plants'));
        return plan?.ok ? plan.delayMs : -1;
      });
    };
    const first = plans(7);
    expect(first).toEqual(plans(7));
    expect(first).not.toEqual(plans(8));
    for (const ms of first) (expect(ms).toBeGreaterThanOrEqual(100), expect(ms).toBeLessThanOrEqual(800));
    expect(new Set(first).size).toBeGreaterThan(20);
  });

  it('follows the request first, then the operation, then --latency', async () => {
    const spec = await loadSpec(DOC);
    const path = createUnhappyPath(spec, listOperations(spec), {
      latency: { min: 50, max: 50, label: '50' },
      faultRate: 0,
      seed: 1,
    });
    expect(path.plan(get('/plants'))).toMatchObject({ delayMs: 50 });
    const own = path.plan(get('/plants/1'));
    expect(own?.ok && own.delayMs >= 150 && own.delayMs <= 250).toBe(true);
    expect(path.plan(get('/plants/1', { prefer: 'delay=5' }))).toMatchObject({ delayMs: 5 });
    expect(path.plan({ ...get('/plants/1'), query: '__delay=7' })).toMatchObject({ delayMs: 7 });
    // The header wins over the query form, as it does for code=.
    expect(path.plan({ ...get('/plants'), query: '__delay=7', headers: { prefer: 'delay=9' } })).toMatchObject({
      delayMs: 9,
    });
    expect(path.plan(get('/plants', { prefer: 'delay=0' }))).toBeUndefined();
  });

  it('is nothing to plan for a mock without latency, faults or switches, even with other preferences', async () => {
    const spec = await loadSpec(DOC);
    const path = createUnhappyPath(spec, listOperations(spec).slice(0, 2), { latency: null, faultRate: 0, seed: 1 });
    expect(path.plan(get('/plants', { prefer: 'code=503' }))).toBeUndefined();
    expect(path.plan({ ...get('/plants'), query: '__code=503' })).toBeUndefined();
  });
});

describe("an operation's x-plantstore-latency", () => {
  it('that cannot be read is ignored with a warning naming the operation', async () => {
    const spec = await loadSpec(DOC);
    const broken = structuredClone(spec.document);
    (broken.paths!['/plants'] as Record<string, Record<string, unknown>>).get['x-plantstore-latency'] = 'soon';
    const path = createUnhappyPath({ ...spec, document: broken }, listOperations({ ...spec, document: broken }), {
      latency: null,
      faultRate: 0,
      seed: 1,
    });
    expect(path.warnings).toEqual([
      expect.stringMatching(/^GET \/plants x-plantstore-latency: "soon" is not a delay in ms .*; ignored$/),
    ]);
    expect(path.plan(get('/plants'))).toBeUndefined();
  });
});

describe('delays on a real socket', () => {
  const timed = async (url: string, headers: Record<string, string> = {}) => {
    const started = performance.now();
    const answer = await request(url, { headers });
    await answer.body.dump();
    return { status: answer.statusCode, ms: performance.now() - started };
  };

  it('delays every answer by --latency 200', async () => {
    server = await startMockServer({ spec: DOC, port: 0, latency: 200 });
    const answer = await timed(`${server.url}/plants`);
    expect(answer.status).toBe(200);
    expect(answer.ms).toBeGreaterThanOrEqual(199);
  });

  it('delays by a --latency range and by a profile, at least their lower end', async () => {
    server = await startMockServer({ spec: DOC, port: 0, latency: '120-160' });
    expect((await timed(`${server.url}/plants`)).ms).toBeGreaterThanOrEqual(119);
    await server.close();
    server = await startMockServer({ spec: DOC, port: 0, latency: '4g' });
    expect((await timed(`${server.url}/plants`)).ms).toBeGreaterThanOrEqual(LATENCY_PROFILES['4g'][0] - 1);
  });

  it('delays one request by Prefer: delay=, by __delay= and one operation by x-plantstore-latency', async () => {
    server = await startMockServer({ spec: DOC, port: 0 });
    expect((await timed(`${server.url}/plants`, { prefer: 'delay=250' })).ms).toBeGreaterThanOrEqual(249);
    expect((await timed(`${server.url}/plants?__delay=250`)).ms).toBeGreaterThanOrEqual(249);
    const own = await timed(`${server.url}/plants/1`);
    expect(own.status).toBe(404);
    expect(own.ms).toBeGreaterThanOrEqual(149);
  });

  it('answers other requests while one waits out its delay', async () => {
    server = await startMockServer({ spec: DOC, port: 0 });
    let slowDone = false;
    const slow = timed(`${server.url}/plants`, { prefer: 'delay=60000' }).then((answer) => {
      slowDone = true;
      return answer;
    });
    const quick = await timed(`${server.url}/plants`);
    expect(quick.status).toBe(200);
    expect(slowDone).toBe(false);
    // Stopping ends the wait: the delayed answer goes out at once.
    await server.close();
    server = undefined;
    expect((await slow).status).toBe(200);
  });

  it('refuses a delay it cannot read with 400 in the document error shape', async () => {
    server = await startMockServer({ spec: DOC, port: 0 });
    const answer = await request(`${server.url}/plants`, { headers: { prefer: 'delay=soon' } });
    expect(answer.statusCode).toBe(400);
    expect(await answer.body.json()).toEqual({
      error: 400,
      message: expect.stringContaining('Prefer: delay=soon: "soon" is not a delay in ms'),
    });
  });

  it('refuses a --latency it cannot read at start', async () => {
    await expect(startMockServer({ spec: DOC, port: 0, latency: 'fast' })).rejects.toThrow(
      /--latency: "fast" is not a delay/,
    );
  });
});
