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
    await new Promise<void>((resolve) =>
      'engine' in server ? server.close().then(resolve) : server.close(() => resolve()),
    );
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

  it('closes a connection that never sends a byte after the first-byte deadline, without an answer', async () => {
    const port = await listen({ firstByteTimeoutMs: 150 });
    const { closed } = await open(port);
    expect(await closed).toBe('');
  });

  it('destroys a refused connection after the grace even though its client keeps sending and never reads', async () => {
    const port = await listen({ headersTimeoutMs: 10_000, refusalGraceMs: 100 });
    const { socket, closed } = await open(port);
    socket.pause(); // never reads
    socket.write('GET / HTTP/1.1\r\nX(bad): 1\r\n');
    const trickle = setInterval(() => socket.writable && socket.write('X-More: 1\r\n'), 20);
    await closed;
    clearInterval(trickle);
  });

  /** Asks on a kept-alive connection and waits for the whole answer. */
  const ask = (socket: Socket) =>
    new Promise((resolve) => {
      socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
      socket.once('data', resolve); // "ok" is small: head and body come in one chunk
    });

  it('past maxConnections closes a connection that never sent a byte before an older one between requests', async () => {
    const port = await listen({ maxConnections: 2 });
    const older = await open(port);
    await ask(older.socket);
    const silent = await open(port);
    const client = await open(port);
    expect(await silent.closed).toBe('');
    client.socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(await client.closed).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(older.socket.destroyed).toBe(false);
    older.socket.destroy();
  });

  it('past maxConnections closes the oldest connection between requests to make room for a new one', async () => {
    const port = await listen({ maxConnections: 2 });
    const first = await open(port);
    const second = await open(port);
    await ask(second.socket);
    await ask(first.socket);
    const client = await open(port);
    await first.closed;
    client.socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(await client.closed).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(second.socket.destroyed).toBe(false);
    second.socket.destroy();
  });

  it('closes a new connection past maxConnections at once when every one it holds is busy, and serves those', async () => {
    const port = await listen({ maxConnections: 2 });
    const kept = [await open(port), await open(port)];
    // Each has sent its head and waits for 100 Continue before its body: the server has read the request.
    for (const { socket } of kept) {
      socket.write(
        'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n',
      );
      await new Promise((resolve) => socket.once('data', resolve));
    }
    const refused = await open(port);
    expect(await refused.closed).toBe('');
    for (const { socket } of kept) socket.write('{}');
    for (const { closed } of kept) expect(await closed).toMatch(/HTTP\/1\.1 200 OK/);
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
    const journal = (await (await fetch(`${mock.url}/__mock/requests`)).json()) as {
      requests: { path: string; query: string }[];
    };
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
