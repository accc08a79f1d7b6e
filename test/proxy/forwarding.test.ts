// What reaches the upstream and what comes back: method, base path + path, query, headers
// (credentials included, hop-by-hop ones not) and body byte for byte; status, headers and body of
// the answer kept. HTTPS upstreams with a self-signed certificate work with --ca.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { startProxyServer } from '../../src/proxy/proxy-server.ts';
import { MAX_VIOLATIONS_HEADER_BYTES, violationsHeader } from '../../src/proxy/violations.ts';
import { startPlantServer } from '../fixtures-servers/plant-server.ts';
import { rawRequest } from '../helpers/raw-http.ts';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

interface Seen {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Buffer;
}

/** An upstream that notes each request and answers with odd headers and a fixed body. */
async function startEchoUpstream(): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks) });
      res.writeHead(418, {
        'content-type': 'application/octet-stream',
        'set-cookie': ['a=1', 'b=2'],
        'x-upstream': 'yes',
        'keep-alive': 'timeout=1',
        connection: 'keep-alive',
      });
      res.end(Buffer.from([0, 1, 2, 255]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

it('forwards method, base path, query, headers and body byte for byte, and keeps the answer', async () => {
  const upstream = await startEchoUpstream();
  const proxy = await startProxyServer({ upstream: `${upstream.url}/api/v2/`, port: 0 });
  running.push(proxy, upstream);
  const body = Buffer.from([0x7b, 0xff, 0x00, 0x7d]); // not UTF-8, not JSON
  const response = await fetch(`${proxy.url}/things/%C3%A9?b=2&a=1&a=%20`, {
    method: 'PATCH',
    body,
    headers: {
      authorization: 'Bearer secret-xyz',
      cookie: 'session=abc',
      'x-custom': 'One',
      'content-type': 'application/x-odd',
    },
  });
  expect(upstream.seen).toHaveLength(1);
  const [request] = upstream.seen;
  expect(request.method).toBe('PATCH');
  expect(request.url).toBe('/api/v2/things/%C3%A9?b=2&a=1&a=%20');
  expect(request.body.equals(body)).toBe(true);
  const headers = Object.fromEntries(
    Array.from({ length: request.rawHeaders.length / 2 }, (_, i) => [
      request.rawHeaders[2 * i].toLowerCase(),
      request.rawHeaders[2 * i + 1],
    ]),
  );
  expect(headers).toMatchObject({
    authorization: 'Bearer secret-xyz',
    cookie: 'session=abc',
    'x-custom': 'One',
    'content-type': 'application/x-odd',
    host: new URL(upstream.url).host,
  });
  expect(response.status).toBe(418);
  expect(response.headers.get('x-upstream')).toBe('yes');
  expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  expect(response.headers.get('keep-alive')).not.toBe('timeout=1'); // the proxy's own connection, not the upstream's
  expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from([0, 1, 2, 255]))).toBe(true);
  // Headers the Connection header names are this hop's only (RFC 9110 §7.6.1).
  await rawRequest(
    proxy.port,
    'GET /x HTTP/1.1\r\nhost: x\r\nconnection: x-drop-me, close\r\nx-drop-me: hop\r\nx-kept: end\r\n\r\n',
  );
  const second = upstream.seen[1].rawHeaders.map((h) => h.toLowerCase());
  expect(second).toContain('x-kept');
  expect(second).not.toContain('x-drop-me');
  // Off the document: said once, on the request side.
  expect(JSON.parse(response.headers.get('plantstore-violations')!)).toEqual([
    {
      where: 'request',
      code: 'no-operation',
      pointer: '',
      message: expect.stringContaining('no operation at /things/'),
    },
  ]);
});

it('sends no body for a HEAD answer, and judges only its status', async () => {
  const upstream = await startPlantServer();
  const proxy = await startProxyServer({ upstream: upstream.url, port: 0 });
  running.push(proxy, upstream);
  const response = await rawRequest(
    proxy.port,
    'HEAD /plants HTTP/1.1\r\nhost: x\r\nauthorization: Bearer t\r\nconnection: close\r\n\r\n',
  );
  // The one-operation Plant Store answers 405 to anything but POST; HEAD /plants is not declared either.
  expect(response.status).toBe(405);
  expect(response.body).toBe('');
  expect(response.head).toMatch(/plantstore-violations: \[\{"where":"request","code":"method-not-allowed"/);
});

it('reaches an HTTPS upstream with a self-signed certificate given with --ca', async () => {
  const tls = {
    key: readFileSync('test/fixtures-servers/tls/localhost-key.pem', 'utf8'),
    cert: readFileSync('test/fixtures-servers/tls/localhost-cert.pem', 'utf8'),
  };
  const upstream = await startPlantServer(undefined, { tls });
  const trusting = await startProxyServer({
    upstream: upstream.url,
    port: 0,
    ca: 'test/fixtures-servers/tls/localhost-cert.pem',
  });
  const doubting = await startProxyServer({ upstream: upstream.url, port: 0 });
  running.push(trusting, doubting, upstream);
  const send = (url: string) =>
    fetch(`${url}/plants`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{"id": 1, "name": "Fern"}',
    });
  const trusted = await send(trusting.url);
  expect([trusted.status, trusted.headers.get('plantstore-violations')]).toEqual([200, null]);
  const refused = await send(doubting.url);
  expect(refused.status).toBe(502);
  expect(((await refused.json()) as { message: string }).message).toContain('--ca FILE');
});

it('refuses an upstream that is no http(s) URL, saying what it wants', async () => {
  await expect(startProxyServer({ upstream: 'ftp://example.com', port: 0 })).rejects.toThrow(
    '--upstream must be an http(s) URL',
  );
  await expect(startProxyServer({ upstream: 'localhost:8080', port: 0 })).rejects.toThrow(
    '--upstream must be an http(s) URL',
  );
});

it('cuts the violations header to whole violations, and says how many were left out', () => {
  const many = Array.from({ length: 200 }, (_, i) => ({
    where: 'response' as const,
    code: 'schema-violation',
    pointer: `/items/${i}/name`,
    message: `response body /items/${i}/name: must be string — «${'x'.repeat(20)}»`,
  }));
  const header = violationsHeader(many);
  expect(header.length).toBeLessThanOrEqual(MAX_VIOLATIONS_HEADER_BYTES);
  expect(header).toMatch(/^[\x20-\x7e]+$/);
  const parsed = JSON.parse(header) as Array<{ code: string; message: string }>;
  expect(parsed.at(-1)).toEqual({
    where: 'response',
    code: 'truncated',
    pointer: '',
    message: `${200 - (parsed.length - 1)} more violations; see GET /__mock/requests`,
  });
  expect(parsed[0].message).toContain('must be string — «');
});

it('passes a request body over the size limit through unvalidated, byte for byte, with a warning in the journal', async () => {
  const upstream = await startEchoUpstream();
  const proxy = await startProxyServer({ upstream: upstream.url, port: 0, maxBodyBytes: 1024 });
  running.push(proxy, upstream);
  const body = Buffer.alloc(256 * 1024, 'ab');
  const response = await fetch(`${proxy.url}/plants`, {
    method: 'POST',
    headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
    body,
  });
  expect(response.status).toBe(418);
  expect(upstream.seen[0].body.equals(body)).toBe(true);
  const { requests } = (await (await fetch(`${proxy.url}/__mock/requests`)).json()) as {
    requests: Array<{ problems: string[]; operationId: string }>;
  };
  expect(requests[0].operationId).toBe('createPlant');
  expect(requests[0].problems[0]).toContain(
    "the request's body is larger than 1024 bytes (--max-body): passed through unvalidated",
  );
});

it('passes a chunked request body that grows past the size limit through whole, in order', async () => {
  const upstream = await startEchoUpstream();
  const proxy = await startProxyServer({ upstream: upstream.url, port: 0, maxBodyBytes: 1024 });
  running.push(proxy, upstream);
  const parts = Array.from({ length: 40 }, (_, i) => Buffer.alloc(100, String.fromCharCode(65 + (i % 26))));
  const { request } = await import('node:http');
  const status = await new Promise<number | undefined>((resolve, reject) => {
    const req = request(
      `${proxy.url}/plants`,
      { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', reject);
    for (const part of parts) req.write(part);
    req.end();
  });
  expect(status).toBe(418);
  expect(upstream.seen[0].body.equals(Buffer.concat(parts))).toBe(true);
});
