// The example generator is loaded by the first answer that needs a generated body, not at start:
// that answer waits for the load and is then written as a loaded generator writes it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import type { HttpAnswer } from '../../src/http/types.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const readStatus = { method: 'GET', path: '/status', query: '', headers: {}, body: '' };

describe('a body generated before the generator is loaded', () => {
  it('waits for the load, then is the body a loaded generator makes, and numbers the next one alike', async () => {
    const file = join(tempDir('first-generation-'), 'openapi.json');
    const schema = {
      type: 'object',
      required: ['count', 'word'],
      properties: { count: { type: 'integer', minimum: 0, maximum: 1000000 }, word: { type: 'string' } },
    };
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.0.0',
        info: { title: 'Status', version: '1' },
        paths: {
          '/status': {
            get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } },
          },
        },
      }),
    );
    const spec = await loadSpec(file);
    const first = createMockEngine({ spec, options: { seed: 7 } });
    const waiting = first.handle(readStatus);
    expect(waiting).toBeInstanceOf(Promise);
    const firstBodies = [(await waiting).body, (first.handle(readStatus) as HttpAnswer).body];
    const loaded = createMockEngine({ spec, options: { seed: 7 } });
    const now = [loaded.handle(readStatus), loaded.handle(readStatus)];
    for (const answer of now) expect(answer).not.toBeInstanceOf(Promise);
    expect(firstBodies).toEqual(now.map((answer) => (answer as HttpAnswer).body));
    expect(firstBodies[0]).not.toEqual(firstBodies[1]);
  });
});
