// No 5xx from the mock's own limits: an overlapping oneOf told apart by a discriminator still
// yields a valid body, and a schema no body can be generated for is reported at load.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAuditedSpec } from '../../src/example/load-audited-spec.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import { createValidators } from '../../src/validation/validator.ts';
import { send } from '../helpers/engine.ts';

const file = resolve('test/documents/loading/generation-limits.yaml');
const POINTER = '#/paths/~1resources/get/responses/200/content/application~1json/schema';

describe('the limits of generated bodies', () => {
  it('answers an overlapping oneOf with a discriminator with a body its schema accepts, under Prefer: dynamic=true', async () => {
    const spec = await loadAuditedSpec(file);
    const engine = createMockEngine({ spec });
    const check = createValidators(spec).at(POINTER);
    for (let i = 0; i < 5; i++) {
      const answer = await send(engine, { method: 'GET', path: '/resources', headers: { prefer: 'dynamic=true' } });
      expect(answer.status).toBe(200);
      expect(typeof (answer.json as { resourceType: unknown }).resourceType).toBe('string');
      expect(check(answer.json as never).ok).toBe(true);
    }
  });

  it('judges a body that matches both branches as valid, as the discriminator picks one', async () => {
    const check = createValidators(await loadAuditedSpec(file)).at(POINTER);
    expect(check({ resourceType: 'a', name: 'both' }).ok).toBe(true);
    expect(check({ name: 'no tag' }).ok).toBe(false);
  });

  it('reports a schema no body can be generated for at load, naming the pointer and the operation', async () => {
    const spec = await loadAuditedSpec(file);
    const warning = spec.warnings.find((w) => w.includes('cannot generate'));
    expect(warning).toMatch(
      /^#\/paths\/~1impossible\/get\/responses\/200\/content\/application~1json\/schema: the mock cannot generate a body for this schema/,
    );
    expect(warning).toMatch(/getImpossible answers 500/);
    expect(spec.warnings.join('\n')).not.toMatch(/~1resources.*cannot generate/);
  });
});
