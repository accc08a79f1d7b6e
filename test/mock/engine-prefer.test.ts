import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createPlant, plantEngine, send } from '../helpers/engine.ts';

const valid = '{"id":1,"name":"Fern"}';

describe('Prism-compatible response selection', () => {
  it.each([
    ['Prefer: code=400', { prefer: 'code=400' }, '', 'Prefer: code=400'],
    ['the __code=400 query form', {}, '__code=400', '__code=400'],
  ])(
    '%s answers the declared 400 with an Error saying it was forced, and changes no state',
    async (_, headers, query, forcedBy) => {
      const engine = await plantEngine();
      const answer = await send(engine, { body: valid, headers, query });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ error: 400, message: `forced by ${forcedBy}` });
      expect(engine.store.list('/plants')).toEqual([]);
    },
  );

  it.each([
    ['Prefer: dynamic=true', { prefer: 'dynamic=true' }, ''],
    ['the __dynamic=true query form', {}, '__dynamic=true'],
    ['Prefer: code=200', { prefer: 'code=200' }, ''],
  ])(
    '%s answers 200 with a generated Plant holding only declared fields, storing nothing',
    async (_, headers, query) => {
      const engine = await plantEngine();
      const answer = await send(engine, { body: valid, headers, query });
      expect(answer.status).toBe(200);
      expect(typeof (answer.json as { name: unknown }).name).toBe('string');
      for (const key of Object.keys(answer.json as object)) expect(['name', 'tag']).toContain(key);
      expect(engine.store.list('/plants')).toEqual([]);
      expect((await createPlant(engine, valid)).status).toBe(200);
    },
  );

  it('makes generated bodies repeatable with the same --seed and different with another', async () => {
    const bodies = async (seed: number) => {
      const engine = await plantEngine({ seed });
      const out: string[] = [];
      for (let i = 0; i < 3; i++)
        out.push((await send(engine, { body: valid, headers: { prefer: 'code=400, dynamic=true' } })).text!);
      return out;
    };
    const first = await bodies(7);
    expect(await bodies(7)).toEqual(first);
    expect(await bodies(8)).not.toEqual(first);
    expect(new Set(first).size).toBe(3);
  });

  it('answers an undeclared Prefer code with the declared 400 naming the declared responses', async () => {
    const engine = await plantEngine();
    const answer = await send(engine, { body: valid, headers: { prefer: 'code=418' } });
    expect(answer.status).toBe(400);
    expect((answer.json as { message: string }).message).toBe(
      'cannot force that response: POST /plants declares no 418 response (declared responses: 200, 400; ask for one of them)',
    );
  });

  it('picks a named example with Prefer: example=NAME', async () => {
    const spec = await loadSpec('test/documents/examples.yaml');
    const engine = await plantEngine({}, spec);
    const named = await send(engine, { body: valid, headers: { prefer: 'example=cactus' } });
    expect(named).toMatchObject({ status: 200, json: { name: 'Cactus', tag: 'desert' } });
    const missing = await send(engine, { body: valid, headers: { prefer: 'example=nope' } });
    expect(missing.status).toBe(400);
  });

  it('still authenticates and validates a forced request', async () => {
    const engine = await plantEngine();
    expect(
      (await send(engine, { body: valid, headers: { prefer: 'code=200', authorization: undefined } })).status,
    ).toBe(401);
    expect((await send(engine, { body: '{}', headers: { prefer: 'code=200' } })).status).toBe(400);
  });
});
