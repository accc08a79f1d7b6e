// A response that declares a text media type with neither a schema nor an example (Mercure's
// `text/event-stream`): the answer still says its type, with an empty body.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import { send } from '../helpers/engine.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('a text answer declared without a schema or an example', () => {
  it('is answered with its media type and an empty body', async () => {
    const file = join(tempDir('text-'), 'openapi.json');
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.0.0',
        info: { title: 'Hub', version: '1' },
        paths: {
          '/.well-known/mercure': {
            get: { responses: { '200': { description: 'stream', content: { 'text/event-stream': {} } } } },
          },
        },
      }),
    );
    const engine = createMockEngine({ spec: await loadSpec(file) });
    const answer = await send(engine, { method: 'GET', path: '/.well-known/mercure', headers: {} });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(answer.text ?? '').toBe('');
  });
});
