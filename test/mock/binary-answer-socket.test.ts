import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a binary answer on a real socket', () => {
  it('arrives byte for byte with its Content-Length, and HEAD gets the head only', async () => {
    server = await startMockServer({ port: 0, spec: 'test/documents/media-types.yaml' });
    const answer = await request(`${server.url}/encoded`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/octet-stream');
    expect(answer.headers['content-length']).toBe('4');
    expect([...Buffer.from(await answer.body.arrayBuffer())]).toEqual([0, 1, 2, 255]);
    const head = await request(`${server.url}/photo`, { method: 'HEAD' });
    expect([head.statusCode, head.headers['content-type'], await head.body.text()]).toEqual([200, 'image/png', '']);
  });
});
