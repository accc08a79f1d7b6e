import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createPlant, plantEngine, send } from '../helpers/engine.ts';

const crud = async () => plantEngine({}, await loadSpec(resolve('test/documents/plant-store-crud.yaml')));
const get = (path: string, query = '') => ({ method: 'GET', path, query, body: '' });

describe('PUT, PATCH and offset in a full CRUD document', () => {
  it('PUT replaces a plant, keeping its id', async () => {
    const engine = await crud();
    await createPlant(engine, '{"id":9007199254740993,"name":"Fern","tag":"green"}');
    const replaced = await send(engine, {
      method: 'PUT',
      path: '/plants/9007199254740993',
      body: '{"id":9007199254740993,"name":"Moss"}',
    });
    expect(replaced).toMatchObject({ status: 200, json: { name: 'Moss' } });
    expect(engine.store.get('/plants', '9007199254740993')).toEqual({ id: 9007199254740993n, name: 'Moss' });
  });

  it('PUT refuses a body id that differs from the path, and answers an absent plant with 404', async () => {
    const engine = await crud();
    await createPlant(engine, '{"id":1,"name":"Fern"}');
    expect((await send(engine, { method: 'PUT', path: '/plants/1', body: '{"id":2,"name":"Moss"}' })).status).toBe(400);
    expect((await send(engine, { method: 'PUT', path: '/plants/5', body: '{"id":5,"name":"Moss"}' })).status).toBe(404);
  });

  it('PATCH merges (RFC 7396): a field changes, null removes one, the rest stays', async () => {
    const engine = await crud();
    await createPlant(engine, '{"id":1,"name":"Fern","tag":"green"}');
    const patched = await send(engine, {
      method: 'PATCH',
      path: '/plants/1',
      body: '{"tag":null,"name":"Big fern"}',
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(patched).toMatchObject({ status: 200, json: { name: 'Big fern' } });
    expect(engine.store.get('/plants', '1')).toEqual({ id: 1, name: 'Big fern' });
  });

  it('lists with offset and limit together', async () => {
    const engine = await crud();
    for (let i = 1; i <= 5; i++) await createPlant(engine, `{"id":${i},"name":"P${i}"}`);
    expect((await send(engine, get('/plants', 'offset=1&limit=2'))).json).toEqual([{ name: 'P2' }, { name: 'P3' }]);
    expect((await send(engine, get('/plants', 'offset=4'))).json).toEqual([{ name: 'P5' }]);
  });
});
