import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createPlant, plantEngine, send } from '../helpers/engine.ts';

const grown = () => loadSpec(resolve('test/documents/plant-store-grown.yaml'));
const get = (path: string, query = '') => ({ method: 'GET', path, query, body: '' });

describe('a grown Plant Store document, with no configuration', () => {
  it('creates, lists (with limit), reads, deletes, then reads again as not found', async () => {
    const engine = await plantEngine({}, await grown());
    for (const [id, name] of [
      ['1', 'Fern'],
      ['9007199254740993', 'Big'],
      ['3', 'Moss'],
    ]) {
      expect((await createPlant(engine, `{"id":${id},"name":"${name}","tag":"t"}`)).status).toBe(200);
    }
    expect(await send(engine, get('/plants'))).toMatchObject({
      status: 200,
      json: [
        { name: 'Fern', tag: 't' },
        { name: 'Big', tag: 't' },
        { name: 'Moss', tag: 't' },
      ],
    });
    expect((await send(engine, get('/plants', 'limit=2'))).json).toEqual([
      { name: 'Fern', tag: 't' },
      { name: 'Big', tag: 't' },
    ]);
    expect(await send(engine, get('/plants/9007199254740993'))).toMatchObject({
      status: 200,
      json: { name: 'Big', tag: 't' },
    });
    const deleted = await send(engine, { method: 'DELETE', path: '/plants/9007199254740993', body: '' });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBeUndefined();
    const gone = await send(engine, get('/plants/9007199254740993'));
    expect(gone).toMatchObject({ status: 404, json: { error: 404, message: 'no plant with id 9007199254740993' } });
    expect((await send(engine, get('/plants'))).json).toHaveLength(2);
  });

  it.each([
    [{}, 204],
    [{ declaredOnly: true }, 204],
    [{ absentItems: '404' as const }, 404],
    [{ absentItems: '404' as const, declaredOnly: true }, 400],
  ])('answers a delete of an absent plant (no 404 declared) with options %j by %i', async (options, status) => {
    expect(
      (await send(await plantEngine(options, await grown()), { method: 'DELETE', path: '/plants/5', body: '' })).status,
    ).toBe(status);
  });

  it.each([['limit=-1'], ['limit=abc'], ['limit=2147483648']])('rejects the query %s with 400', async (query) => {
    const engine = await plantEngine({}, await grown());
    expect((await send(engine, get('/plants', query))).status).toBe(400);
  });

  it('rejects a path id that is not an int64 with 400', async () => {
    const engine = await plantEngine({}, await grown());
    expect((await send(engine, get('/plants/abc'))).status).toBe(400);
    expect((await send(engine, get('/plants/9223372036854775808'))).status).toBe(400);
  });
});
