import { afterEach, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { request } from 'undici';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { CANARY } from '../helpers/engine.ts';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const create = (url: string, body: string, headers: Record<string, string> = {}) =>
  request(`${url}/plants`, {
    method: 'POST',
    body,
    headers: { authorization: `Bearer ${CANARY}`, 'content-type': 'application/json', ...headers },
  });

describe('the mock on a real socket', () => {
  it('starts on port 0 and answers a valid create with 200 and a Plant', async () => {
    server = await startMockServer({ port: 0 });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const answer = await create(server.url, '{"id":9007199254740993,"name":"Fern","tag":"green"}');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(await answer.body.text()).toBe('{"name":"Fern","tag":"green"}');
  });

  it('lets exactly one of many concurrent creates of one id win', async () => {
    server = await startMockServer({ port: 0 });
    const url = server.url;
    const statuses = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const answer = await create(url, '{"id":5,"name":"Fern"}');
        await answer.body.dump();
        return answer.statusCode;
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(39);
  });

  it('answers a CORS preflight from a browser origin', async () => {
    server = await startMockServer({ port: 0 });
    const answer = await request(`${server.url}/plants`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    await answer.body.dump();
    expect(answer.statusCode).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(answer.headers['access-control-allow-credentials']).toBe('true');
  });

  it('answers a body over --max-body with an Error-shaped 413', async () => {
    server = await startMockServer({ port: 0, maxBodyBytes: 64 });
    const answer = await create(server.url, JSON.stringify({ id: 1, name: 'x'.repeat(200) }));
    expect(answer.statusCode).toBe(413);
    expect(await answer.body.json()).toMatchObject({ error: 413, message: expect.stringContaining('64 bytes') });
  });

  it('fails to start on a port in use with a clear LISTEN_FAILED error', async () => {
    server = await startMockServer({ port: 0 });
    await expect(startMockServer({ port: server.port })).rejects.toMatchObject({
      code: 'LISTEN_FAILED',
      message: expect.stringContaining('in use'),
    });
  });

  it('closes gracefully, letting a request in flight finish', async () => {
    server = await startMockServer({ port: 0 });
    // Expect: 100-continue makes the server say when it has the head: the request is then in flight.
    const socket = connect(server.port, '127.0.0.1');
    let received = '';
    const interim = new Promise<void>((resolve) =>
      socket.on('data', (chunk) => {
        received += chunk;
        if (received.includes('100 Continue')) resolve();
      }),
    );
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const body = '{"id":1,"name":"A"}';
    socket.write(
      `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${CANARY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await interim;
    const closed = server.close();
    socket.write(body);
    await ended;
    expect(received).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n\{"name":"A"\}$/);
    await closed;
  });
});
