// The mock's warm-up compiles every schema in the background, then writes the compiled validators
// to the cache; the next start of the same document reads them and judges requests alike.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The cache folder is read when the loader's module loads: set before importing it.
const cacheDir = mkdtempSync(join(tmpdir(), 'plantstore-warm-up-'));
process.env.PLANTSTORE_CACHE_DIR = cacheDir;
delete process.env.PLANTSTORE_NO_CACHE;
const { loadSpec } = await import('../../src/document/load-spec.ts');
const { createMockEngine } = await import('../../src/mock/engine.ts');
const { createValidators } = await import('../../src/validation/validator.ts');
const { request } = await import('../helpers/engine.ts');

const badPlant = request({ json: { name: 7, tag: 'x' } });

describe('the warm-up', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the compiled validators, which the next start reads and judges by alike', async () => {
    vi.useFakeTimers({ toFake: ['setImmediate', 'clearImmediate'] });
    const first = createMockEngine({ spec: await loadSpec() });
    const refused = await first.handle(badPlant);
    expect(readdirSync(cacheDir).filter((name) => name.endsWith('.validators.js'))).toEqual([]);
    first.warmUp();
    vi.runAllTimers();
    expect(readdirSync(cacheDir).filter((name) => name.endsWith('.validators.js'))).toHaveLength(1);
    vi.useRealTimers();

    const spec = await loadSpec();
    expect(createValidators(spec).cached).toBe(true);
    const second = createMockEngine({ spec });
    const again = await second.handle(badPlant);
    expect(again.status).toBe(refused.status);
    expect(again.body).toEqual(refused.body);
    expect(refused.status).toBe(400);
  });

  it('stops when asked, and then writes nothing', async () => {
    const written = () => readdirSync(cacheDir).filter((name) => name.endsWith('.validators.js')).length;
    vi.useFakeTimers({ toFake: ['setImmediate', 'clearImmediate'] });
    const before = written();
    const engine = createMockEngine({ spec: await loadSpec('test/documents/plant-store-crud.yaml') });
    const stop = engine.warmUp();
    vi.advanceTimersToNextTimer();
    stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.runAllTimers();
    expect(written()).toBe(before);
  });
});
