// A collection of one item per parent, at the collection's own path (test/documents/singletons.yaml).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import { buildResourceMap } from '../../src/document/resources.ts';
import { createMockEngine, type MockEngine } from '../../src/mock/engine.ts';
import { send } from '../helpers/engine.ts';

const specOnce = loadSpec(resolve('test/documents/singletons.yaml'));
const PAGES = '/repos/octo/fern/pages';
const get = (engine: MockEngine, path: string) => send(engine, { method: 'GET', path, body: '' });

describe('a singleton', () => {
  it('is a collection of one item per parent in the resource map, and a POST and a GET that are not one item are not', async () => {
    const spec = await specOnce;
    const { resources } = buildResourceMap(listOperations(spec), spec.document);
    expect(resources.find((r) => r.collection === '/repos/{owner}/{repo}/pages')).toMatchObject({
      kept: true,
      singleton: true,
      parents: ['owner', 'repo'],
      operations: {
        create: ['createPagesSite'],
        read: ['getPages'],
        replace: ['updatePages'],
        remove: ['deletePages'],
      },
    });
    expect(resources.find((r) => r.collection === '/runs')).not.toHaveProperty('singleton');
    expect(resources.find((r) => r.collection === '/runs')?.operations).not.toHaveProperty('read');
  });

  it('keeps the site a POST made, reads it on the same path for that repository only, replaces it and deletes it', async () => {
    const engine = createMockEngine({ spec: await specOnce });
    const created = await send(engine, { method: 'POST', path: PAGES, json: { cname: 'fern.dev' } });
    expect(created).toMatchObject({ status: 201, json: { cname: 'fern.dev', url: expect.any(String) } });
    expect(await get(engine, PAGES)).toMatchObject({ status: 200, json: created.json as object });
    expect((await get(engine, '/repos/octo/moss/pages')).status).toBe(404);
    expect((await send(engine, { method: 'PUT', path: PAGES, json: { cname: 'moss.dev' } })).status).toBe(204);
    expect(await get(engine, PAGES)).toMatchObject({ status: 200, json: { cname: 'moss.dev' } });
    expect((await send(engine, { method: 'DELETE', path: PAGES, body: '' })).status).toBe(204);
    expect((await get(engine, PAGES)).status).toBe(404);
  });
});
