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
    // A charge whose `application_fee` is an integer in the request and a string in the answer.
    const engine = createMockEngine({ spec: await loadSpec(resolve('test/documents/state-refits.yaml')), logger });
    for (const description of ['Ada', 'Grace']) {
      const answer = await send(engine, {
        method: 'POST',
        path: '/v1/charges',
        body: `description=${description}&amount=5&application_fee=7`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ id: expect.any(String), object: 'charge', description, amount: 5 });
      expect((answer.json as { application_fee?: unknown }).application_fee).not.toBe(7);
    }
    expect(
      warnings.filter((line) => /PostCharges 200 body fails .*answering a generated body instead/.test(line)),
    ).toHaveLength(1);
    expect(errors).toEqual([]);
    expect(engine.store.size()).toBe(2);
  });
});
