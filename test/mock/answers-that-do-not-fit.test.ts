// A stored record that does not fit the answer's schema is never answered, nor turned into a 500:
// the answer is generated from the schema, and the mock warns once per operation.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../src/log/logger.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { send } from '../helpers/engine.ts';

describe('an answer the stored record does not fit', () => {
  it('is generated from the schema, valid, with one warning for the operation', async () => {
    const warnings: string[] = [];
    const errors: string[] = [];
    const logger: Logger = {
      ...silentLogger,
      warn: (line: string) => warnings.push(line),
      error: (line: string) => errors.push(line),
    };
    const engine = createMockEngine({ spec: await loadSpec(resolve('test/documents/envelopes.yaml')), logger });
    for (const name of ['Ada', 'Grace']) {
      const answer = await send(engine, { method: 'POST', path: '/goals', json: { data: { name } }, headers: {} });
      expect(answer.status).toBe(201);
      expect(answer.json).toMatchObject({
        data: { gid: expect.any(String), resource_type: 'goal', name: expect.any(String) },
      });
    }
    expect(
      warnings.filter((line) => /createGoal 201 body fails .*answering a generated body instead/.test(line)),
    ).toHaveLength(1);
    expect(errors).toEqual([]);
    expect(engine.store.size()).toBe(2);
  });
});
