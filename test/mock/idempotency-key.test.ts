// Idempotency-Key on POST and PATCH (Stripe; draft-ietf-httpapi-idempotency-key-header), with the
// keys kept in each store: memory, the state file and Redis.
import { describe, expect, it } from 'vitest';
import { createMockEngine, type MockEngine } from '../../src/mock/engine.ts';
import type { MockOptions } from '../../src/mock/options.ts';
import { everyStore } from '../helpers/open-stores.ts';
import { builtInSpec, createPlant } from '../helpers/engine.ts';

const STORES = everyStore(import.meta.url, ['in memory', 'in a state file', 'in Redis']);

describe.each(STORES)('Idempotency-Key, kept %s', (_, open) => {
  const engineOn = async (options: Partial<MockOptions> = {}) =>
    createMockEngine({ spec: await builtInSpec(), store: await open(), options });
  const plants = async (engine: MockEngine) => engine.store.list('/plants');

  it('replays the first answer to a repeat with the same key and body, marked Idempotent-Replayed, and creates once', async () => {
    const engine = await engineOn();
    const first = await createPlant(engine, '{"id":1,"name":"Fern"}', { 'idempotency-key': 'a1' });
    const again = await createPlant(engine, '{"id":1,"name":"Fern"}', { 'idempotency-key': 'a1' });
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again).toMatchObject({ status: 200, text: first.text, headers: { 'idempotent-replayed': 'true' } });
    expect(await plants(engine)).toEqual([{ id: 1, name: 'Fern' }]);
    // Without the key the same body is a second create, refused as such.
    expect((await createPlant(engine, '{"id":1,"name":"Fern"}')).status).toBe(400);
  });

  it('replays a refusal too: the answer is what is kept, not only a success', async () => {
    const engine = await engineOn();
    await createPlant(engine, '{"id":2,"name":"Fern"}');
    const refused = await createPlant(engine, '{"id":2,"name":"Fern"}', { 'idempotency-key': 'b1' });
    expect(refused.status).toBe(400);
    expect(await createPlant(engine, '{"id":2,"name":"Fern"}', { 'idempotency-key': 'b1' })).toMatchObject({
      status: 400,
      text: refused.text,
      headers: { 'idempotent-replayed': 'true' },
    });
  });

  it('refuses a key sent again with another body, in the Error shape with the declared 4xx, and changes nothing', async () => {
    const engine = await engineOn();
    await createPlant(engine, '{"id":3,"name":"Fern"}', { 'idempotency-key': 'c1' });
    const other = await createPlant(engine, '{"id":4,"name":"Moss"}', { 'idempotency-key': 'c1' });
    expect(other).toMatchObject({
      status: 400,
      json: {
        error: 400,
        message: 'the Idempotency-Key c1 was sent before with another request; a new request needs a new key',
      },
    });
    expect(await plants(engine)).toEqual([{ id: 3, name: 'Fern' }]);
  });

  it('keeps nothing for a request refused before it was acted on: the key then serves the corrected request', async () => {
    const engine = await engineOn();
    expect((await createPlant(engine, '{"id":5}', { 'idempotency-key': 'd1' })).status).toBe(400);
    expect((await createPlant(engine, '{"id":5,"name":"Fern"}', { 'idempotency-key': 'd1' })).status).toBe(200);
    expect(await plants(engine)).toEqual([{ id: 5, name: 'Fern' }]);
  });

  it("reads the draft's quoted form of the key as the bare one, and refuses an empty or over-long key with 400", async () => {
    const engine = await engineOn();
    await createPlant(engine, '{"id":6,"name":"Fern"}', { 'idempotency-key': '"e1"' });
    expect((await createPlant(engine, '{"id":6,"name":"Fern"}', { 'idempotency-key': 'e1' })).headers).toMatchObject({
      'idempotent-replayed': 'true',
    });
    for (const key of ['', 'k'.repeat(256)])
      expect(await createPlant(engine, '{"id":7,"name":"Fern"}', { 'idempotency-key': key })).toMatchObject({
        status: 400,
        json: { error: 400, message: expect.stringContaining('Idempotency-Key') },
      });
    expect(await plants(engine)).toEqual([{ id: 6, name: 'Fern' }]);
  });

  it('keeps keys per tenant with --isolate-by token: one key under two tokens is two requests', async () => {
    const engine = await engineOn({ isolateBy: 'token' });
    const as = (token: string) => ({ authorization: `Bearer ${token}`, 'idempotency-key': 'f1' });
    expect(
      (await createPlant(engine, '{"id":8,"name":"Fern"}', as('one'))).headers['idempotent-replayed'],
    ).toBeUndefined();
    expect(
      (await createPlant(engine, '{"id":8,"name":"Fern"}', as('two'))).headers['idempotent-replayed'],
    ).toBeUndefined();
    expect((await createPlant(engine, '{"id":8,"name":"Fern"}', as('two'))).headers['idempotent-replayed']).toBe(
      'true',
    );
  });

  it('forgets the keys when the state is reset', async () => {
    const engine = await engineOn();
    await createPlant(engine, '{"id":9,"name":"Fern"}', { 'idempotency-key': 'g1' });
    await engine.state.reset();
    const after = await createPlant(engine, '{"id":9,"name":"Fern"}', { 'idempotency-key': 'g1' });
    expect(after.status).toBe(200);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
  });

  it('creates once for many concurrent sends of one key: the others replay it or are told it is still being answered (409)', async () => {
    const engine = await engineOn();
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => createPlant(engine, '{"id":10,"name":"Fern"}', { 'idempotency-key': 'h1' })),
    );
    const fresh = answers.filter((a) => a.status === 200 && a.headers['idempotent-replayed'] === undefined);
    expect(fresh).toHaveLength(1);
    for (const answer of answers.filter((a) => !fresh.includes(a)))
      expect(answer.status === 409 || answer.headers['idempotent-replayed'] === 'true').toBe(true);
    expect(await plants(engine)).toEqual([{ id: 10, name: 'Fern' }]);
  });
});
