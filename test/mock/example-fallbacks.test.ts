import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import type { Logger } from '../../src/log/logger.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { send } from '../helpers/engine.ts';

async function engineWithLog() {
  const warnings: string[] = [];
  const errors: string[] = [];
  const logger: Logger = {
    ...silentLogger,
    warn: (m: string) => warnings.push(m),
    error: (m: string) => errors.push(m),
  };
  const engine = createMockEngine({ spec: await loadSpec('test/documents/odd-examples.yaml'), logger });
  const get = (path: string) =>
    send(engine, { method: 'GET', path, headers: { authorization: undefined, 'content-type': undefined } });
  return { get, warnings, errors };
}

describe('declared examples and schemas as found in the wild', () => {
  it('answers a generated valid body when the declared example fails its own schema', async () => {
    const { get, errors } = await engineWithLog();
    for (let i = 0; i < 2; i++) {
      const answer = await get('/stale');
      expect(answer.status).toBe(200);
      expect(Number.isInteger((answer.json as { id: unknown }).id)).toBe(true);
    }
    expect(errors).toEqual([]);
  });

  it('keeps a required property the schema does not declare, rather than cutting the body into an invalid one', async () => {
    const { get } = await engineWithLog();
    expect(await get('/keyed')).toMatchObject({ status: 200, json: { key: 'k1', name: 'fern' } });
  });

  it("answers a schema no value satisfies with a 500 naming the document's problem, without a stack trace", async () => {
    const { get, errors } = await engineWithLog();
    const answer = await get('/impossible');
    expect(answer.status).toBe(500);
    expect((answer.json as { message: string }).message).toMatch(
      /cannot make a 200 application\/json body for getImpossible/,
    );
    expect(answer.text).not.toMatch(/\n\s+at /);
    expect(errors).toEqual([]);
  });
});
