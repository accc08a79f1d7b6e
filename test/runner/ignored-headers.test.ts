// The runner ignores Accept, Content-Type and Authorization declared as header parameters, as
// OpenAPI says and as the mock does: no negative case expects a 4xx for them.
import { describe, expect, it } from 'vitest';
import { generateCases } from '../../src/runner/generate/generated-cases.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import { createValidators } from '../../src/validation/validator.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import { send } from '../helpers/engine.ts';

describe('header parameters OpenAPI ignores', () => {
  it('makes no missing or broken case for Accept, Content-Type or Authorization, and still one for X-Trace', async () => {
    const spec = await loadSpec('test/documents/runner-ignored-headers.yaml');
    const { cases } = await generateCases(spec, listOperations(spec), createValidators(spec), {
      count: 2,
      seed: 5,
      auth: {},
    });
    const ids = cases.map((c) => c.id.split('/')[2]);
    expect(ids).toContain('missing-header-X-Trace');
    for (const id of ids) expect(id).not.toMatch(/accept|content-type|authorization/i);
  });

  it('agrees with the mock, which answers a request without them', async () => {
    const engine = createMockEngine({ spec: await loadSpec('test/documents/runner-ignored-headers.yaml') });
    const answer = await send(engine, {
      method: 'POST',
      path: '/reports',
      headers: { 'content-type': 'application/json', 'x-trace': 't1' },
      json: { title: 'a' },
    });
    expect(answer.status).toBe(201);
  });
});
