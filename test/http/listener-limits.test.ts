// The node:http adapter's own limits: what Node leaves open and the mock closes. Each test waits on
// the socket's events; the deadlines are made short so that the waits are.
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createListener } from '../../src/http/listener.ts';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';

const servers: (Server | MockServer)[] = [];
afterEach(async () => {
  for (const server of servers.splice(0))
    await new Promise<void>((resolve) => ('engine' in server ? server.close().then(resolve) : server.close(() => resolve())));
});

function listen(options: Partial<Parameters<typeof createListener>[1]> = {}): Promise<number> {
  const server = createListener(() => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' }), {
    maxBodyBytes: 1024,
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 10_000,
    errorBody: (status, message) => JSON.stringify({ error: status, message }),
    onError: () => {},
    ...options,
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** Opens a connection; resolves with it and a promise of its close and of everything it received. */
function open(port: number): Promise<{ socket: Socket; closed: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => {});
    const closed = new Promise<string>((done) => socket.on('close', () => done(received)));
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

describe('the node:http adapter', () => {
  it('closes a connection that trickles blank lines once the header deadline passes, with a 408', async () => {
    const port = await listen({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const { socket, closed } = await open(port);
    // A blank line before a request is allowed (RFC 9112 §2.2), so each one is read and dropped;
    // the deadline counts from the first, and more of them must not restart it.
    const trickle = setInterval(() => socket.writable && socket.write('\r\n'), 20);
    const received = await closed;
    clearInterval(trickle);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(received).toContain('"error":408');
  });

  it('closes a connection that never sends a byte after the keep-alive timeout, without an answer', async () => {
    const port = await listen({ keepAliveTimeoutMs: 150 });
    const { closed } = await open(port);
    expect(await closed).toBe('');
  });

  it('closes connections past maxConnections at once, and serves the ones it keeps', async () => {
    const port = await listen({ maxConnections: 2 });
    const kept = [await open(port), await open(port)];
    const refused = await open(port);
    expect(await refused.closed).toBe('');
    kept[0].socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(await kept[0].closed).toMatch(/^HTTP\/1\.1 200 OK/);
    kept[1].socket.destroy();
  });
});

describe('the mock on node:http', () => {
  it('keeps the query of an absolute-form request target', async () => {
    const mock = await startMockServer({ port: 0 });
    servers.push(mock);
    const { socket, closed } = await open(mock.port);
    const body = '{"id":5,"name":"Absolute"}';
    socket.end(
      `POST http://example.test/plants?trace=1 HTTP/1.1\r\nHost: example.test\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(await closed).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*\{"name":"Absolute"\}$/);
    const journal = (await (await fetch(`${mock.url}/__mock/requests`)).json()) as { requests: { path: string; query: string }[] };
    expect(journal.requests.map((r) => [r.path, r.query])).toEqual([['/plants', 'trace=1']]);
  });

  it.each(['/__mock/health', '/__mock/state', '/__mock/'])('answers HEAD %s as GET, without a body', async (path) => {
    const mock = await startMockServer({ port: 0 });
    servers.push(mock);
    const [head, get] = [await fetch(`${mock.url}${path}`, { method: 'HEAD' }), await fetch(`${mock.url}${path}`)];
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
  });
});
