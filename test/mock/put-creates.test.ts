// A PUT that creates the item its path names (test/documents/put-creates.yaml).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createMockEngine, type MockEngine } from '../../src/mock/engine.ts';
import { send } from '../helpers/engine.ts';

const specOnce = loadSpec(resolve('test/documents/put-creates.yaml'));
const engineFor = async () => createMockEngine({ spec: await specOnce });
const get = (engine: MockEngine, path: string) => send(engine, { method: 'GET', path, body: '' });
const put = (engine: MockEngine, path: string, json: unknown) => send(engine, { method: 'PUT', path, json });

describe('a PUT on an absent item', () => {
  it('creates the secret its path names with its declared 201, then updates it with its 204', async () => {
    const engine = await engineFor();
    expect((await put(engine, '/orgs/acme/secrets/TOKEN', { value: 'one' })).status).toBe(201);
    expect(await get(engine, '/orgs/acme/secrets/TOKEN')).toMatchObject({
      status: 200,
      json: { name: 'TOKEN', value: 'one' },
    });
    expect((await get(engine, '/orgs/other/secrets/TOKEN')).status).toBe(404);
    expect((await put(engine, '/orgs/acme/secrets/TOKEN', { value: 'two' })).status).toBe(204);
    expect(await get(engine, '/orgs/acme/secrets/TOKEN')).toMatchObject({ json: { name: 'TOKEN', value: 'two' } });
  });

  it('stays an update beside a POST create when it declares no 201: an absent plant is not made', async () => {
    const engine = await engineFor();
    expect((await put(engine, '/plants/7', { name: 'Fern' })).status).toBe(404);
    expect((await get(engine, '/plants/7')).status).toBe(404);
  });
});
