// A schema `type` that names no JSON type: named with its pointer and the operations it breaks,
// which answer a 500 that says why; --strict refuses the document.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadError } from '../helpers/load-error.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { send } from '../helpers/engine.ts';

const file = resolve('test/documents/loading/type-typo.yaml');

describe('a schema type that is not a JSON type', () => {
  it('loads with a warning naming the pointer and the operations it breaks', async () => {
    const spec = await loadSpec(file);
    const warning = spec.warnings.find((w) => w.startsWith('#/components/schemas/Plant/type:'));
    expect(warning).toMatch(/"objetc" is not a JSON type/);
    expect(warning).toMatch(/listPlants, createPlant answer 500 until it is corrected/);
    expect(warning).not.toMatch(/health/);
  });

  it('answers the broken operations with a 500 that says why, and the others as usual', async () => {
    const engine = createMockEngine({ spec: await loadSpec(file) });
    const created = await send(engine, { method: 'POST', path: '/plants', headers: {}, json: { name: 'fern' } });
    expect(created.status).toBe(500);
    expect((created.json as { message: string }).message).toMatch(
      /#\/components\/schemas\/Plant has type "objetc", which is not a JSON type/,
    );
    expect((await send(engine, { method: 'GET', path: '/plants', headers: {} })).status).toBe(500);
    expect((await send(engine, { method: 'GET', path: '/health', headers: {} })).status).toBe(200);
  });

  it('is an error under --strict, named with its pointer', async () => {
    const error = await loadError(file, { strict: true });
    expect(error.details.join('\n')).toMatch(/#\/components\/schemas\/Plant\/type: "objetc" is not a JSON type/);
  });
});
