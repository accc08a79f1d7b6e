import { describe, expect, it } from 'vitest';
import type { MemoryStore } from '../../src/state/store.ts';
import { createPlant, plantEngine, send } from '../helpers/engine.ts';

describe('state', () => {
  it('remembers created plants and refuses an existing id with 400 "already exists"', async () => {
    const engine = await plantEngine();
    expect((await createPlant(engine, '{"id":7,"name":"Fern"}')).status).toBe(200);
    const again = await createPlant(engine, '{"id":7,"name":"Other"}');
    expect(again).toMatchObject({ status: 400, json: { error: 400, message: 'a plant with id 7 already exists' } });
    expect(engine.store.list('/plants')).toEqual([{ id: 7, name: 'Fern' }]);
  });

  it('lets exactly one of many concurrent creates of one id win', async () => {
    const engine = await plantEngine();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => createPlant(engine, `{"id":99,"name":"P${i}"}`)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(49);
    expect(engine.store.list('/plants')).toHaveLength(1);
  });

  it('stores a create as the body text it parsed, not a second serialization of it', async () => {
    const engine = await plantEngine();
    expect((await createPlant(engine, '{"id": 9007199254740993,  "name": "Fern"}')).status).toBe(200);
    expect([...(engine.store as MemoryStore).texts()]).toEqual([
      ['/plants', '9007199254740993', '{"id": 9007199254740993,  "name": "Fern"}'],
    ]);
    expect(engine.store.get('/plants', '9007199254740993')).toEqual({ id: 9007199254740993n, name: 'Fern' });
  });

  it('refuses creates past --max-state-mb with the Error shape and 400, stores none of them, and takes them again after a reset', async () => {
    // '{"id":N,"name":"Fern"}' weighs 22 + 1 + 32 = 55 bytes: 8 fit in 480.
    const engine = await plantEngine({ maxStateBytes: 480 });
    const answers = [];
    for (let id = 1; id <= 9; id++) answers.push(await createPlant(engine, `{"id":${id},"name":"Fern"}`));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 400]);
    expect(answers[8].json).toEqual({
      error: 400,
      message:
        "the mock's state is full: its records would take more than 480 bytes (--max-state-mb); DELETE /__mock/state clears it, or start the mock with a larger --max-state-mb",
    });
    expect(engine.store.size()).toBe(8);
    expect(engine.store.get('/plants', '9')).toBeUndefined();
    expect((await send(engine, { method: 'DELETE', path: '/__mock/state', body: '' })).status).toBe(204);
    expect((await createPlant(engine, '{"id":9,"name":"Fern"}')).status).toBe(200);
  });

  it('seeds nothing when the seed does not fit (507), and keeps what was there', async () => {
    const engine = await plantEngine({ maxStateBytes: 480 });
    await createPlant(engine, '{"id":1,"name":"Fern"}');
    const items = Array.from({ length: 8 }, (_, i) => ({ id: i + 2, name: 'Fern' }));
    const seeded = await send(engine, {
      method: 'POST',
      path: '/__mock/state',
      body: JSON.stringify({ '/plants': items }),
    });
    expect(seeded).toMatchObject({
      status: 507,
      json: { error: 507, message: expect.stringContaining('nothing seeded: ') },
    });
    expect(engine.store.list('/plants')).toEqual([{ id: 1, name: 'Fern' }]);
  });

  it('keeps state per mock instance', async () => {
    const first = await plantEngine();
    const second = await plantEngine();
    await createPlant(first, '{"id":1,"name":"A"}');
    expect((await createPlant(second, '{"id":1,"name":"A"}')).status).toBe(200);
  });
});

describe('the admin API', () => {
  it('GET /__mock/health answers ok with what is loaded', async () => {
    const engine = await plantEngine();
    const health = await send(engine, { method: 'GET', path: '/__mock/health', body: '' });
    expect(health).toMatchObject({
      status: 200,
      json: { status: 'ok', api: 'OpenAPI Plant Store', version: '1.0.0', operations: 1 },
    });
  });

  it('GET /__mock/state lists stored plants with exact int64 ids', async () => {
    const engine = await plantEngine();
    await createPlant(engine, '{"id":9223372036854775807,"name":"Max"}');
    const state = await send(engine, { method: 'GET', path: '/__mock/state', body: '' });
    expect(state.json).toEqual({ collections: { '/plants': [{ id: 9223372036854775807n, name: 'Max' }] } });
  });

  it('POST /__mock/state seeds plants that then count as existing', async () => {
    const engine = await plantEngine();
    const seeded = await send(engine, {
      method: 'POST',
      path: '/__mock/state',
      body: '{"/plants":[{"id":1,"name":"A"},{"id":9007199254740993,"name":"B","tag":"t"}]}',
    });
    expect(seeded).toMatchObject({ status: 201, json: { seeded: { '/plants': 2 } } });
    expect((await createPlant(engine, '{"id":9007199254740993,"name":"C"}')).status).toBe(400);
  });

  it.each([
    ['an invalid plant', '{"/plants":[{"id":"x","name":"A"}]}', '/id'],
    ['an unknown collection', '{"/trees":[]}', 'no collection /trees'],
    ['a duplicate id', '{"/plants":[{"id":1,"name":"A"},{"id":1,"name":"B"}]}', 'already exists'],
    ['malformed JSON', '{', 'malformed'],
  ])('POST /__mock/state refuses %s whole, seeding nothing', async (_, body, words) => {
    const engine = await plantEngine();
    const answer = await send(engine, { method: 'POST', path: '/__mock/state', body });
    expect(answer.status).toBe(400);
    expect((answer.json as { message: string }).message).toContain(words);
    expect(engine.store.list('/plants')).toEqual([]);
  });

  it('DELETE /__mock/state resets the store', async () => {
    const engine = await plantEngine();
    await createPlant(engine, '{"id":1,"name":"A"}');
    expect((await send(engine, { method: 'DELETE', path: '/__mock/state', body: '' })).status).toBe(204);
    expect((await createPlant(engine, '{"id":1,"name":"A"}')).status).toBe(200);
  });

  it('GET /__mock/requests is a bounded journal of the API requests, oldest first', async () => {
    const engine = await plantEngine({ journalSize: 3 });
    for (let i = 1; i <= 5; i++) await createPlant(engine, `{"id":${i},"name":"P"}`);
    const journal = await send(engine, { method: 'GET', path: '/__mock/requests', body: '' });
    const entries = (journal.json as { requests: Array<{ status: number; path: string }> }).requests;
    expect(entries).toHaveLength(3);
    expect(entries.every((e) => e.path === '/plants' && e.status === 200)).toBe(true);
    const limited = await send(engine, { method: 'GET', path: '/__mock/requests', query: 'limit=1', body: '' });
    expect((limited.json as { requests: unknown[] }).requests).toHaveLength(1);
  });

  it('answers an unknown admin path with 404 listing the endpoints', async () => {
    const engine = await plantEngine();
    const answer = await send(engine, { method: 'GET', path: '/__mock/nope', body: '' });
    expect(answer.status).toBe(404);
    expect(answer.text).toContain('/__mock/state');
  });
});
