// The answer's declared headers and its body, judged exactly: a required header missing, a header
// that breaks its schema, an integer one past int64 (which a double would round into range), and
// a gzip body judged as decoded and passed on as sent.
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startProxyServer, type ProxyServer } from '../../src/proxy/proxy-server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const DOCUMENT = `openapi: 3.1.0
info: { title: Headers and int64, version: '1' }
paths:
  /items:
    get:
      operationId: listItems
      responses:
        '200':
          description: the items
          headers:
            X-Total-Count: { required: true, schema: { type: integer, minimum: 0 } }
            X-Request-Id: { schema: { type: string, format: uuid } }
          content:
            application/json:
              schema: { type: array, items: { type: integer, format: int64 } }
`;

interface Answer {
  headers: Record<string, string>;
  body: string | Buffer;
}
let answer: Answer;
let close: () => Promise<void>;
let proxy: ProxyServer;

beforeAll(async () => {
  const spec = join(tempDir('plantstore-proxy-doc-'), 'items.yaml');
  writeFileSync(spec, DOCUMENT);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => new Promise((resolve) => server.close(() => resolve()));
  proxy = await startProxyServer({
    upstream: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spec,
    port: 0,
  });
});
afterAll(async () => {
  await proxy.close();
  await close();
});

const CASES: Array<[string, Answer, string[]]> = [
  [
    'a correct answer, int64 at its maximum',
    {
      headers: { 'x-total-count': '2', 'x-request-id': '0b8f8f1e-0c3e-4a57-9a0f-2f4f1b0c9d11' },
      body: '[1, 9223372036854775807]',
    },
    [],
  ],
  ['no X-Total-Count', { headers: {}, body: '[1]' }, ['missing-header']],
  ['X-Total-Count that is no integer', { headers: { 'x-total-count': 'many' }, body: '[1]' }, ['invalid-header']],
  [
    'X-Request-Id that is no UUID',
    { headers: { 'x-total-count': '1', 'x-request-id': 'nope' }, body: '[1]' },
    ['invalid-header'],
  ],
  [
    'an item one past int64',
    { headers: { 'x-total-count': '1' }, body: '[9223372036854775808]' },
    ['schema-violation'],
  ],
  ['a correct gzip body', { headers: { 'x-total-count': '1', 'content-encoding': 'gzip' }, body: gzipSync('[7]') }, []],
  [
    'a gzip body of strings',
    { headers: { 'x-total-count': '1', 'content-encoding': 'gzip' }, body: gzipSync('["7"]') },
    ['wrong-field-type'],
  ],
];

it.each(CASES)('%s', async (_name, given, codes) => {
  answer = given;
  const response = await fetch(`${proxy.url}/items`, { headers: { 'accept-encoding': 'identity' } });
  const violations = JSON.parse(response.headers.get('plantstore-violations') ?? '[]') as Array<{
    code: string;
    where: string;
  }>;
  expect(violations.map((v) => v.code)).toEqual(codes);
  expect(violations.every((v) => v.where === 'response')).toBe(true);
  // Passed on as the upstream sent it: fetch decodes the gzip body itself.
  expect(response.status).toBe(200);
  if (given.headers['content-encoding'] === 'gzip') expect(response.headers.get('content-encoding')).toBe('gzip');
});
