// A create whose answers require fields the request does not carry (a server-made id, a
// createdAt, readOnly properties): the mock makes them, stores them and answers them again.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import type { MockOptions } from '../../src/mock/options.ts';
import { plantEngine, send } from '../helpers/engine.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const engineFor = async (options: Partial<MockOptions> = {}) =>
  plantEngine(options, await loadSpec(resolve('test/documents/server-fields.yaml')));
const post = (path: string, json: unknown) => ({ method: 'POST', path, json });
const get = (path: string) => ({ method: 'GET', path, body: '' });
type Thing = { id: string; createdAt: string; name: string; state: string; revision?: number };

describe('server-made fields', () => {
  it('answers a create without id and createdAt with 201, a uuid id and the time of the create, and reads it back by that id', async () => {
    const engine = await engineFor();
    const before = Date.now();
    const created = await send(engine, post('/things', { name: 'lamp' }));
    expect(created.status).toBe(201);
    const thing = created.json as Thing;
    expect(thing).toMatchObject({
      name: 'lamp',
      id: expect.stringMatching(UUID),
      state: expect.stringMatching(/^(active|archived)$/),
    });
    expect(Date.parse(thing.createdAt)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(Date.parse(thing.createdAt)).toBeLessThanOrEqual(Date.now());
    expect(await send(engine, get(`/things/${thing.id}`))).toMatchObject({ status: 200, json: thing });
  });

  it("makes readOnly fields that the request's schema names in required, where request and answer share one schema", async () => {
    const engine = await engineFor();
    const created = await send(engine, post('/menu', { category: 'beverage', name: 'Cappuccino' }));
    expect(created).toMatchObject({
      status: 201,
      json: { name: 'Cappuccino', id: expect.stringMatching(/^prd_[0-9a-z]{26}$/), createdAt: expect.any(String) },
    });
    // Made and stored once, not drawn anew for each answer: the stored record holds them, as sent back.
    const { id, createdAt } = created.json as { id: string; createdAt: string };
    expect((await engine.state.list())['/menu']).toEqual([{ category: 'beverage', name: 'Cappuccino', id, createdAt }]);
  });

  it('fills readOnly properties the answer does not require (revision)', async () => {
    const thing = (await send(await engineFor(), post('/things', { name: 'lamp' }))).json as Thing;
    expect(thing.revision).toEqual(expect.any(Number));
    expect(thing.revision).toBeGreaterThanOrEqual(1);
    expect(thing.revision).toBeLessThanOrEqual(9);
  });

  it('makes a different key for each of 300 creates, and lists every one of them valid', async () => {
    const engine = await engineFor();
    const ids = new Set<string>();
    for (let i = 0; i < 300; i++) ids.add(((await send(engine, post('/things', { name: `t${i}` }))).json as Thing).id);
    expect(ids.size).toBe(300);
    const list = await send(engine, get('/things'));
    expect(list.status).toBe(200);
    expect((list.json as Thing[]).map((t) => t.id)).toEqual([...ids]);
  });

  it.each([
    ['/things', { name: 'n' }],
    ['/counters', { label: 'n' }],
  ])('gives each of 50 concurrent creates of %s its own key', async (path, body) => {
    const engine = await engineFor();
    const answers = await Promise.all(Array.from({ length: 50 }, () => send(engine, post(path, body))));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([path === '/things' ? 201 : 200]));
    expect(new Set(answers.map((a) => String((a.json as { id: unknown }).id))).size).toBe(50);
    expect(engine.store.size()).toBe(50);
  });

  it('makes the same keys and values for the same --seed, and other keys for another seed', async () => {
    const madeBy = async (seed: number) => {
      const engine = await engineFor({ seed });
      const made = [];
      for (const name of ['a', 'b', 'c']) {
        const { id, state, revision } = (await send(engine, post('/things', { name }))).json as Thing;
        made.push({ id, state, revision });
      }
      return made;
    };
    expect(await madeBy(7)).toEqual(await madeBy(7));
    expect((await madeBy(7)).map((m) => m.id)).not.toEqual((await madeBy(8)).map((m) => m.id));
  });

  it('steps over a made key that is already stored (a state file kept from an earlier run with the same seed)', async () => {
    const first = ((await send(await engineFor({ seed: 3 }), post('/things', { name: 'a' }))).json as Thing).id;
    const engine = await engineFor({ seed: 3 });
    engine.store.insert('/things', first, {
      id: first,
      name: 'kept',
      createdAt: '2020-01-01T00:00:00Z',
      state: 'active',
    });
    const created = await send(engine, post('/things', { name: 'b' }));
    expect(created.status).toBe(201);
    expect((created.json as Thing).id).not.toBe(first);
    expect(engine.store.list('/things')).toHaveLength(2);
  });

  it('stores a writeOnly property but never answers it', async () => {
    const engine = await engineFor();
    const created = await send(engine, post('/things', { name: 'safe', secret: 'hunter2' }));
    expect(created.status).toBe(201);
    expect(created.text).not.toContain('hunter2');
    const { id } = created.json as Thing;
    expect(engine.store.get('/things', id)).toMatchObject({ secret: 'hunter2' });
    expect((await send(engine, get(`/things/${id}`))).text).not.toContain('hunter2');
    expect((await send(engine, get('/things'))).text).not.toContain('hunter2');
  });

  it('keeps the server-made fields of the stored record through a replace that does not carry them', async () => {
    const engine = await engineFor();
    const thing = (await send(engine, post('/things', { name: 'old' }))).json as Thing;
    const replaced = await send(engine, { method: 'PUT', path: `/things/${thing.id}`, json: { name: 'new' } });
    expect(replaced).toMatchObject({ status: 200, json: { ...thing, name: 'new' } });
    expect(await send(engine, get(`/things/${thing.id}`))).toMatchObject({
      status: 200,
      json: { ...thing, name: 'new' },
    });
  });

  it('numbers integer keys 1, 2, 3, stepping over a key a client chose', async () => {
    const engine = await engineFor();
    const ids = [];
    for (const body of [{ label: 'a' }, { label: 'b', id: 2 }, { label: 'c' }, { label: 'd' }])
      ids.push((await send(engine, post('/counters', body))).json);
    expect(ids).toMatchObject([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
    expect(await send(engine, get('/counters/3'))).toMatchObject({ status: 200, json: { id: 3, label: 'c' } });
  });

  it('stamps a unix-time field with the seconds of the create, and a date field with its day', async () => {
    const before = Math.floor(Date.now() / 1000);
    const counter = (await send(await engineFor(), post('/counters', { label: 'a' }))).json as {
      created: number;
      day: string;
    };
    expect(counter.created).toBeGreaterThanOrEqual(before);
    expect(counter.created).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(counter.day).toBe(new Date(counter.created * 1000).toISOString().slice(0, 10));
  });

  it('refuses a create with the error shape and 400 when the key schema leaves no unused key (maximum 2)', async () => {
    const engine = await engineFor();
    const answers = [];
    for (const label of ['a', 'b', 'c']) answers.push(await send(engine, post('/slots', { label })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 400]);
    expect(answers[2].json).toEqual({
      code: 400,
      message:
        "the mock's state is full: no unused id is left in /slots (the schema allows 1 to 2); DELETE /__mock/state clears it",
    });
    expect(engine.store.size()).toBe(2);
  });

  it.each([
    ['/tokens', { note: 'n' }, 'id', /^[0-9a-z]{10}$/],
    ['/codes', { label: 'l' }, 'code', /^[A-Z]{3}-[0-9]{4}$/],
  ])('makes %s keys that fit the schema (length, pattern), each one new', async (path, body, field, shape) => {
    const engine = await engineFor();
    const keys = new Set<unknown>();
    for (let i = 0; i < 50; i++) {
      const created = await send(engine, post(path, body));
      expect(created.status).toBe(201);
      const key = (created.json as Record<string, unknown>)[field];
      expect(key).toMatch(shape);
      keys.add(key);
    }
    expect(keys.size).toBe(50);
  });

  it('leaves a create that carries everything its answer requires as it was sent (the Plant Store)', async () => {
    const engine = await plantEngine();
    expect(await send(engine, { body: '{"id":9007199254740993,"name":"Fern"}' })).toMatchObject({
      status: 200,
      text: '{"name":"Fern"}',
    });
    expect(engine.store.list('/plants')).toEqual([{ id: 9007199254740993n, name: 'Fern' }]);
  });
});

describe('seeded items (POST /__mock/state)', () => {
  it('get the fields a create would make, so reading and listing them answers valid bodies', async () => {
    const engine = await engineFor();
    const seeded = await send(engine, {
      method: 'POST',
      path: '/__mock/state',
      json: { '/things': [{ name: 'a' }, { name: 'b' }], '/counters': [{ label: 'c' }] },
    });
    expect(seeded).toMatchObject({ status: 201, json: { seeded: { '/things': 2, '/counters': 1 } } });
    const list = await send(engine, get('/things'));
    expect(list.status).toBe(200);
    const [first] = list.json as Thing[];
    expect(first).toMatchObject({ name: 'a', id: expect.stringMatching(UUID), createdAt: expect.any(String) });
    expect(await send(engine, get(`/things/${first.id}`))).toMatchObject({ status: 200, json: first });
    expect(await send(engine, get('/counters/1'))).toMatchObject({ status: 200, json: { id: 1, label: 'c' } });
  });
});
