import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createPlant, plantEngine, send } from '../helpers/engine.ts';

const grown = () => loadSpec(resolve('test/documents/plant-store-grown.yaml'));
const hash = (token: string) => createHash('sha256').update(token).digest('hex').slice(0, 16);
const as = (token: string) => ({ authorization: `Bearer ${token}` });

describe('--isolate-by token', () => {
  it('gives each token its own plants: lists, reads and duplicates never cross', async () => {
    const engine = await plantEngine({ isolateBy: 'token' }, await grown());
    expect((await createPlant(engine, '{"id":1,"name":"Alice plant"}', as('alice'))).status).toBe(200);
    expect((await createPlant(engine, '{"id":1,"name":"Bob plant"}', as('bob'))).status).toBe(200);
    expect((await send(engine, { method: 'GET', path: '/plants', body: '', headers: as('alice') })).json).toEqual([
      { name: 'Alice plant' },
    ]);
    expect((await send(engine, { method: 'GET', path: '/plants/1', body: '', headers: as('bob') })).json).toEqual({
      name: 'Bob plant',
    });
    expect((await send(engine, { method: 'GET', path: '/plants/1', body: '', headers: as('carol') })).status).toBe(404);
  });

  it("lets the admin API list, seed and reset one token's state by its hash, never the token", async () => {
    const engine = await plantEngine({ isolateBy: 'token' }, await grown());
    await createPlant(engine, '{"id":1,"name":"A"}', as('alice'));
    await createPlant(engine, '{"id":2,"name":"B"}', as('bob'));
    const tenants = await send(engine, { method: 'GET', path: '/__mock/tenants', body: '' });
    expect(tenants.json).toEqual({ tenants: { [hash('alice')]: 1, [hash('bob')]: 1 } });
    expect(tenants.text).not.toContain('alice');
    const aliceState = await send(engine, {
      method: 'GET',
      path: '/__mock/state',
      query: `tenant=${hash('alice')}`,
      body: '',
    });
    expect(aliceState.json).toEqual({ collections: { '/plants': [{ id: 1, name: 'A' }] } });
    expect(
      (
        await send(engine, {
          method: 'POST',
          path: '/__mock/state',
          query: `tenant=${hash('bob')}`,
          body: '{"/plants":[{"id":3,"name":"seeded"}]}',
        })
      ).status,
    ).toBe(201);
    expect((await send(engine, { method: 'GET', path: '/plants', body: '', headers: as('bob') })).json).toEqual([
      { name: 'B' },
      { name: 'seeded' },
    ]);
    expect(
      (await send(engine, { method: 'DELETE', path: '/__mock/state', query: `tenant=${hash('alice')}`, body: '' }))
        .status,
    ).toBe(204);
    expect((await send(engine, { method: 'GET', path: '/plants', body: '', headers: as('alice') })).json).toEqual([]);
    expect((await send(engine, { method: 'GET', path: '/plants', body: '', headers: as('bob') })).json).toHaveLength(2);
  });

  it('refuses a raw token where a hash is expected', async () => {
    const engine = await plantEngine({ isolateBy: 'token' }, await grown());
    expect((await send(engine, { method: 'GET', path: '/__mock/state', query: 'tenant=alice', body: '' })).status).toBe(
      400,
    );
  });
});
