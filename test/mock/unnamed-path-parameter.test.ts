// A document that declares a path parameter its path does not name (The Noun Project's `id` on
// `/icon/{term}`): no request can carry it, so it is not asked for.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import { send } from '../helpers/engine.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('a path parameter the path does not name', () => {
  it('is not required of a request, which is answered as declared', async () => {
    const file = join(tempDir('unnamed-'), 'openapi.json');
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.0.0',
        info: { title: 'Icons', version: '1' },
        paths: {
          '/icon/{term}': {
            get: {
              parameters: [
                { name: 'term', in: 'path', required: true, schema: { type: 'string' } },
                { name: 'id', in: 'path', required: true, schema: { type: 'integer' } },
              ],
              responses: {
                '200': {
                  description: 'ok',
                  content: { 'application/json': { schema: { type: 'object' }, example: { icon: 'leaf' } } },
                },
              },
            },
          },
        },
      }),
    );
    const engine = createMockEngine({ spec: await loadSpec(file) });
    const answer = await send(engine, { method: 'GET', path: '/icon/leaf', headers: {} });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ icon: 'leaf' });
  });
});
