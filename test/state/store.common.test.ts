// One suite for every StateStore: the in-memory one, the state file and Redis.
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/state/store.ts';
import { everyStore } from '../helpers/open-stores.ts';

const STORES = everyStore(import.meta.url, ['the memory store', 'the state file', 'the Redis store']);

describe.each(STORES)('%s', (_, open) => {
  it('refuses a second record under one key and keeps insertion order', async () => {
    const store = await open();
    expect(store.insert('/plants', '2', { id: 2, name: 'B' })).toBe(true);
    expect(store.insert('/plants', '1', { id: 1, name: 'A' })).toBe(true);
    expect(store.insert('/plants', '2', { id: 2, name: 'again' })).toBe(false);
    expect(store.list('/plants')).toEqual([
      { id: 2, name: 'B' },
      { id: 1, name: 'A' },
    ]);
    expect(store.size()).toBe(2);
  });

  it('lists a page: limit records after skipping offset', async () => {
    const store = await open();
    for (let id = 1; id <= 5; id++) store.insert('/plants', String(id), { id, name: `P${id}` });
    expect(store.list('/plants', 1, 2).map((record) => record.id)).toEqual([2, 3]);
    expect(store.list('/plants', 4).map((record) => record.id)).toEqual([5]);
    expect(store.list('/plants', 0, 0)).toEqual([]);
    expect(store.list('/plants', 9, 2)).toEqual([]);
    expect(store.list('/nothing', 0, 2)).toEqual([]);
  });

  it('keeps int64 values exact, past 2^53 and at the int64 edges', async () => {
    const store = await open();
    const ids = [9007199254740993n, 9007199254740992n, 9223372036854775807n, -9223372036854775808n];
    for (const id of ids) store.insert('/plants', id.toString(), { id, name: 'x', nested: { big: id, list: [id] } });
    expect(store.get('/plants', '9007199254740993')).toEqual({
      id: 9007199254740993n,
      name: 'x',
      nested: { big: 9007199254740993n, list: [9007199254740993n] },
    });
    expect(store.list('/plants').map((record) => record.id)).toEqual(ids);
  });

  it('takes the text a record was parsed from, one line or many, and reads the record back exactly', async () => {
    const store = await open();
    const oneLine = '{ "id": 9007199254740993, "name": "spaced" }';
    const manyLines = '{\n  "id": 2,\n  "name": "pretty"\n}\n';
    expect(store.insert('/plants', '9007199254740993', { id: 9007199254740993n, name: 'spaced' }, oneLine)).toBe(true);
    expect(store.insert('/plants', '2', { id: 2, name: 'pretty' }, manyLines)).toBe(true);
    expect(store.insert('/plants', '2', { id: 2, name: 'again' }, '{"id":2,"name":"again"}')).toBe(false);
    expect(store.list('/plants')).toEqual([
      { id: 9007199254740993n, name: 'spaced' },
      { id: 2, name: 'pretty' },
    ]);
    await store.flush();
  });

  it('hands out copies: changing a record read or inserted does not change what is stored', async () => {
    const store = await open();
    const record = { id: 1, name: 'A', tags: ['x'] };
    store.insert('/plants', '1', record);
    record.name = 'changed after insert';
    const read = store.get('/plants', '1')!;
    read.name = 'changed after read';
    (read.tags as string[]).push('y');
    expect(store.get('/plants', '1')).toEqual({ id: 1, name: 'A', tags: ['x'] });
  });

  it('replaces and removes only what exists, and reports every record with its collection and key', async () => {
    const store = await open();
    store.insert('/plants', '1', { id: 1, name: 'A' });
    store.insert('/trees', 'oak', { code: 'oak' });
    expect(store.replace('/plants', '1', { id: 1, name: 'A2' })).toBe(true);
    expect(store.replace('/plants', '9', { id: 9, name: 'none' })).toBe(false);
    expect(store.remove('/plants', '9')).toBe(false);
    expect(store.entries()).toEqual([
      ['/plants', '1', { id: 1, name: 'A2' }],
      ['/trees', 'oak', { code: 'oak' }],
    ]);
    expect(store.keys()).toEqual([
      ['/plants', '1'],
      ['/trees', 'oak'],
    ]);
    expect(store.snapshot()).toEqual({ '/plants': [{ id: 1, name: 'A2' }], '/trees': [{ code: 'oak' }] });
    expect(store.remove('/plants', '1')).toBe(true);
    expect(store.get('/plants', '1')).toBeUndefined();
    expect(store.size()).toBe(1);
    store.clear();
    expect(store.size()).toBe(0);
    expect(store.list('/trees')).toEqual([]);
    await store.flush();
  });
});

describe('the memory store', () => {
  it('keeps a one-line text as it came, and serializes the record when the text spans lines', () => {
    const store = createMemoryStore();
    store.insert('/plants', '1', { id: 1, name: 'A' }, '{"id":1,  "name":"A"}');
    store.insert('/plants', '2', { id: 2, name: 'B' }, '{\n"id":2,"name":"B"}');
    store.insert('/plants', '3', { id: 3, name: 'C' });
    expect([...store.texts()].map(([, , text]) => text)).toEqual([
      '{"id":1,  "name":"A"}',
      '{"id":2,"name":"B"}',
      '{"id":3,"name":"C"}',
    ]);
  });
});
