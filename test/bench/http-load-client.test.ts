// The load drivers (the lean client, and undici's) against a real node:http server on port 0:
// whatever the framing, every answer the server gave within the run is counted once, with its
// status, and nothing is lost.
// The drivers' clock is faked: a run's 300 ms pass only once the server has seen enough of its
// requests (an event), so a busy machine makes a run slower, never shorter. Counts are compared
// with what the server saw, never with a rate (benchmarks are not tests).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runClosedLoop, type ClientLimits } from '../../bench/http-load-client.ts';
import { runUndici } from '../../bench/undici-load.ts';

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

const ANSWERS: Record<string, Answer> = {
  '/content-length': (_, res) => res.writeHead(200, { 'content-length': 11 }).end('hello world'),
  // No Content-Length and two writes: node:http chunks it.
  '/chunked': (_, res) => {
    res.writeHead(201, { 'content-type': 'text/plain' });
    res.write('first chunk, ');
    res.end('second chunk');
  },
  // Head and body halves in separate writes on later turns of the loop: separate TCP segments.
  '/split': (_, res) => {
    res.writeHead(202, { 'content-length': 10 }).flushHeaders();
    setImmediate(() => {
      res.write('01234');
      setImmediate(() => res.end('56789'));
    });
  },
  '/close': (_, res) => res.writeHead(409, { 'content-length': 2, connection: 'close' }).end('no'),
  '/early-hints': (_, res) => {
    res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
    res.writeHead(200, { 'content-length': 2 }).end('ok');
  },
  // Neither Content-Length nor chunking: the body ends with the connection (written raw, as
  // node:http always frames its answers).
  '/until-close': (req) => req.socket.end('HTTP/1.1 203 Non-Authoritative Information\r\ncontent-type: text/plain\r\n\r\nuntil the close'),
  '/hang': () => undefined,
  '/reset': (req) => req.socket.destroy(),
};

let server: Server;
let url: string;
// Request bodies and connections by request URL; each test has its own URL (a query tells apart
// two tests of one answer), so tests do not see each other's requests.
const seen = new Map<string, string[]>();
const sockets = new Map<string, number>();
/** Emits 'request' each time a request has been read whole. */
const arrivals = new EventEmitter();

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      if (!seen.has(path)) seen.set(path, []);
      seen.get(path)?.push(Buffer.concat(chunks).toString());
      arrivals.emit('request');
      ANSWERS[path.split('?')[0]](req, res);
    });
  });
  const counted = new WeakSet<object>();
  server.on('request', (req: IncomingMessage) => {
    if (counted.has(req.socket)) return;
    counted.add(req.socket);
    sockets.set(req.url ?? '', (sockets.get(req.url ?? '') ?? 0) + 1);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const total = (statuses: Record<string, number>) => Object.values(statuses).reduce((a, b) => a + b, 0);

/** Resolves once the server has read `count` requests to `path`. */
function requestsSeen(path: string, count: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if ((seen.get(path)?.length ?? 0) < count) return;
      arrivals.off('request', check);
      resolve();
    };
    arrivals.on('request', check);
    check();
  });
}

/**
 * One 300 ms run of 4 connections on a faked clock. By default the 300 ms pass at once when the
 * server has read 16 requests; `ticks` say otherwise (after `requests` in all, `ms` more pass).
 * Answers still in flight then are awaited for as long as they take.
 */
async function load(path: string, options: { limits?: ClientLimits; driver?: 'lean' | 'undici'; ticks?: { requests: number; ms: number }[] } = {}) {
  const { limits = { timeoutMs: 10_000, graceMs: 1_000, retryMs: 100 }, driver = 'lean', ticks = [{ requests: 16, ms: 300 }] } = options;
  let n = 0n;
  const body = () => `{"id":${n++}}`;
  const plan = { url, connections: 4, seconds: 0.3, method: 'POST', path, headers: { 'content-type': 'application/json' }, body };
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
  // The faked performance.now() starts at 0, which the lean client takes for "no request in flight".
  vi.advanceTimersByTime(1_000);
  try {
    const run = driver === 'undici' ? runUndici(plan) : runClosedLoop(plan, limits);
    for (const tick of ticks) {
      await requestsSeen(path, tick.requests);
      await vi.advanceTimersByTimeAsync(tick.ms);
    }
    return await run;
  } finally {
    vi.useRealTimers();
  }
}

describe.each(['lean', 'undici'] as const)('the %s driver', (driver) => {
  it.each([
    ['/content-length', '200'],
    ['/chunked', '201'],
    ['/split', '202'],
    ['/close', '409'],
    ['/early-hints', '200'],
    ['/until-close', '203'],
  ])('counts every answer of %s once, with status %s', async (path, status) => {
    const run = `${path}?${driver}`;
    const result = await load(run, { driver });
    const bodies = seen.get(run) ?? [];
    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(Object.keys(result.statuses)).toEqual([status]);
    // In-flight answers at the deadline are awaited (late), so the server saw exactly these requests.
    expect(total(result.statuses) + total(result.lateStatuses)).toBe(bodies.length);
    expect(result.latencies.length).toBe(total(result.statuses));
    expect(total(result.statuses)).toBeGreaterThan(4); // more than one request per connection: 16 were read, 4 at most in flight
    // The body function ran once per request: no id was sent twice.
    expect(new Set(bodies).size).toBe(bodies.length);
  });

  it('counts connections reset by the server as errors', async () => {
    const result = await load(`/reset?${driver}`, { driver });
    expect(result.statuses).toEqual({});
    expect(result.errors).toBeGreaterThan(4);
    expect(result.errors).toBeLessThanOrEqual(seen.get(`/reset?${driver}`)?.length ?? 0);
  });
});

describe('runClosedLoop', () => {
  it('reconnects after Connection: close, once per answer', async () => {
    const result = await load('/close?sockets');
    expect(sockets.get('/close?sockets')).toBe(total(result.statuses) + total(result.lateStatuses));
  });

  it('counts unanswered requests as timeouts and replaces their connections', async () => {
    // The 4 requests hang until the faked clock passes their 50 ms timeout; once their 4
    // replacements hang too, the rest of the run and its 50 ms grace pass.
    const result = await load('/hang', { limits: { timeoutMs: 50, graceMs: 50, retryMs: 100 }, ticks: [{ requests: 4, ms: 50 }, { requests: 8, ms: 300 }] });
    expect(result.statuses).toEqual({});
    expect(result.timeouts).toBeGreaterThanOrEqual(4);
    expect(seen.get('/hang')?.length).toBeGreaterThan(4);
  });
});
