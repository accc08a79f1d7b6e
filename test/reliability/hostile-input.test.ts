import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { post, rawRequest } from '../helpers/raw-http.ts';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({
    port: 0,
    maxBodyBytes: 4096,
    maxDepth: 16,
    headersTimeoutMs: 600,
    requestTimeoutMs: 800,
  });
});
afterAll(() => server.close());

const errorShaped = (body: string, status: number) =>
  expect(JSON.parse(body)).toMatchObject({ error: status, message: expect.any(String) });
const count = () => server.engine.store.size();

describe('hostile input gets a clear 4xx with an Error body, and changes no state', () => {
  it.each([
    ['a body over --max-body', post(`{"id":1,"name":"${'x'.repeat(5000)}"}`), 413],
    ['JSON nested deeper than the limit', post(`{"id":1,"name":"x","tag":${'['.repeat(20)}${']'.repeat(20)}}`), 400],
    ['a body of 3,000 opening brackets', post('['.repeat(3000)), 400],
    ['duplicate keys', post('{"id":1,"name":"a","id":2}'), 400],
    ['duplicate keys written with escapes', post('{"id":1,"name":"a","\\u0069d":2}'), 400],
    [
      'invalid UTF-8',
      post(
        Buffer.from([
          0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x31, 0x2c, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe,
          0x22, 0x7d,
        ]),
      ),
      400,
    ],
    ['null as the body', post('null'), 400],
    ['a number as the body', post('7'), 400],
    ['an array as the body', post('[]'), 400],
    [
      'two Authorization headers',
      post('{"id":1,"name":"a"}', [
        'Authorization: Bearer a',
        'Authorization: Bearer b',
        'Content-Type: application/json',
      ]),
      401,
    ],
    [
      'a token with spaces inside',
      post('{"id":1,"name":"a"}', ['Authorization: Bearer a b c', 'Content-Type: application/json']),
      401,
    ],
    ['a method the document does not use', 'PROPFIND /plants HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 405],
    ['a method llhttp does not know', 'BREW /plants HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 400],
    [
      'a traversal path',
      'POST /plants/../plants HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}',
      404,
    ],
    [
      'a percent-encoded path',
      'POST /%70lants HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}',
      404,
    ],
    [
      'headers too large',
      `GET /plants HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 3000 }, (_, i) => `X-H${i}: ${'v'.repeat(10)}\r\n`).join('')}\r\n`,
      431,
    ],
    ['a malformed request line', 'HELLO\r\n\r\n', 400],
  ])('%s', async (_, bytes, status) => {
    const before = count();
    const answer = await rawRequest(server.port, bytes);
    expect(answer.status).toBe(status);
    errorShaped(answer.body, status);
    expect(count()).toBe(before);
  });

  it('__proto__ and constructor keys pollute nothing', async () => {
    const answer = await rawRequest(
      server.port,
      post('{"id":424242,"name":"p","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ name: 'p' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(server.engine.store.get('/plants', '424242'))).toBe(Object.prototype);
  });

  it('accepts a UTF-8 BOM before the JSON (RFC 8259 lets a parser ignore it)', async () => {
    const answer = await rawRequest(
      server.port,
      post(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"id":515151,"name":"bom"}')])),
    );
    expect(answer.status).toBe(200);
  });

  it('routes an absolute-form request target on its path', async () => {
    const answer = await rawRequest(
      server.port,
      post('{"id":616161,"name":"abs"}').toString().replace('POST /plants', 'POST http://elsewhere.test/plants'),
    );
    expect(answer.status).toBe(200);
  });

  it('reads a chunked body', async () => {
    const body = '{"id":717171,"name":"chunked"}';
    const bytes = `POST /plants HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n${body.slice(0, 5)}\r\n${(body.length - 5).toString(16)}\r\n${body.slice(5)}\r\n0\r\n\r\n`;
    expect((await rawRequest(server.port, bytes)).status).toBe(200);
  });

  it('answers HEAD without a body', async () => {
    const answer = await rawRequest(server.port, 'HEAD /plants HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer.status).toBe(405);
    expect(answer.body).toBe('');
  });

  it('answers a Content-Length longer than the body with 408 once the request timeout passes', async () => {
    const before = count();
    const answer = await rawRequest(
      server.port,
      'POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"id":1',
    );
    expect(answer.status).toBe(408);
    errorShaped(answer.body, 408);
    expect(count()).toBe(before);
  });

  it('cuts off slow headers with 408', async () => {
    const answer = await rawRequest(server.port, 'POST /plants HTTP/1.1\r\nHost: x\r\n');
    expect(answer.status).toBe(408);
  });

  it('keeps serving others while a client stalls', async () => {
    const stalled = rawRequest(server.port, 'POST /plants HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{');
    const answer = await rawRequest(server.port, post('{"id":818181,"name":"other"}'));
    expect(answer.status).toBe(200);
    await stalled;
  });
});
