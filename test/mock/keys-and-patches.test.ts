// Keys of any type and name, and how an item changes (test/documents/keys-and-patches.yaml).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createMockEngine, type MockEngine } from '../../src/mock/engine.ts';
import { listOperations } from '../../src/document/operations.ts';
import { buildResourceMap } from '../../src/document/resources.ts';
import { send } from '../helpers/engine.ts';

const specOnce = loadSpec(resolve('test/documents/keys-and-patches.yaml'));
const engineFor = async () => createMockEngine({ spec: await specOnce });
const post = (engine: MockEngine, path: string, json: unknown) => send(engine, { method: 'POST', path, json });
const get = (engine: MockEngine, path: string) => send(engine, { method: 'GET', path, body: '' });

describe('keys', () => {
  it("keys users by the path's own parameter, username, not by id", async () => {
    const engine = await engineFor();
    expect((await post(engine, '/users', { id: 1, username: 'ann' })).status).toBe(200);
    expect(await get(engine, '/users/ann')).toMatchObject({ status: 200, json: { id: 1, username: 'ann' } });
    expect((await get(engine, '/users/1')).status).toBe(404);
  });

  it('makes a certId the request leaves out, returns it in the create, and reads by it', async () => {
    const engine = await engineFor();
    const created = await post(engine, '/certs', { label: 'tls' });
    const { certId } = created.json as { certId: string };
    expect(certId).toEqual(expect.any(String));
    expect(await get(engine, `/certs/${certId}`)).toMatchObject({ status: 200, json: { certId, label: 'tls' } });
  });

  it('makes unique type: number ids for 100 creates without "state is full"', async () => {
    const engine = await engineFor();
    const ids = new Set<unknown>();
    for (let i = 0; i < 100; i++) {
      const created = await post(engine, '/gadgets', { label: `g${i}` });
      expect(created.status).toBe(200);
      ids.add((created.json as { id: number }).id);
    }
    expect(ids.size).toBe(100);
    const [first] = ids;
    expect(await get(engine, `/gadgets/${first}`)).toMatchObject({ status: 200, json: { id: first, label: 'g0' } });
    expect((await send(engine, { method: 'DELETE', path: `/gadgets/${first}`, body: '' })).status).toBe(204);
    const gone = await get(engine, `/gadgets/${first}`);
    expect(gone.status).toBe(404);
    expect(gone.headers.warning).toContain('undeclared 404');
  });

  it('takes no object as a key (a photoId of {id}): the mock numbers the photos, and keeps every create', async () => {
    const spec = await specOnce;
    const { resources } = buildResourceMap(listOperations(spec), spec.document);
    expect(resources.find((r) => r.collection === '/photos')?.keyField).toBeUndefined();
    const engine = await engineFor();
    for (const title of ['a', 'b', 'c'])
      expect((await post(engine, '/photos', { photoId: { id: 'p' }, title })).status).toBe(200);
    expect(await engine.state.list()).toMatchObject({ '/photos': [{ title: 'a' }, { title: 'b' }, { title: 'c' }] });
  });

  it('says where an item is in a Location header where the create answers no body, declared or not', async () => {
    const engine = await engineFor();
    const created = await post(engine, '/tasks', { feedType: 'orders' });
    expect(created.status).toBe(202);
    expect(created.headers.location).toMatch(/^\/tasks\/\w+$/);
    expect(await get(engine, created.headers.location)).toMatchObject({ status: 200, json: { feedType: 'orders' } });
  });

  it("keys a list's members by the user_id sent, which the path names, not by the list's own {id}", async () => {
    const engine = await engineFor();
    expect((await post(engine, '/lists/7/members', { user_id: '93000077' })).status).toBe(200);
    const members = async () => ((await get(engine, '/lists/7/members')).json as { data: Array<{ id: string }> }).data;
    expect((await members()).map((member) => member.id)).toEqual(['93000077']);
    expect((await send(engine, { method: 'DELETE', path: '/lists/7/members/93000077', body: '' })).status).toBe(200);
    expect(await members()).toEqual([]);
  });

  it('numbers an item whose schema has no key field and says where it is in the Location header', async () => {
    const engine = await engineFor();
    const created = await post(engine, '/jobs', { task: 'resize' });
    expect(created.status).toBe(202);
    expect(created.headers.location).toMatch(/^\/jobs\/\w+$/);
    expect(await get(engine, created.headers.location)).toMatchObject({ status: 200, json: { task: 'resize' } });
  });
});

describe('changes', () => {
  const note = { title: 'Groceries', body: 'milk', tags: ['home'], meta: { color: 'red', pinned: true } };
  const created = async () => {
    const engine = await engineFor();
    const { id } = (await post(engine, '/notes', note)).json as { id: number };
    return { engine, id };
  };
  const patch = (engine: MockEngine, id: number, type: string, body: unknown) =>
    send(engine, { method: 'PATCH', path: `/notes/${id}`, json: body, headers: { 'content-type': type } });

  it('PUT replaces the whole item, keeping its id', async () => {
    const { engine, id } = await created();
    const replaced = await send(engine, { method: 'PUT', path: `/notes/${id}`, json: { title: 'New' } });
    expect(replaced).toMatchObject({ status: 200, json: { id, title: 'New' } });
    expect((await get(engine, `/notes/${id}`)).json).toEqual({ id, title: 'New' });
  });

  it('PATCH with JSON merges field by field, nested objects too', async () => {
    const { engine, id } = await created();
    const merged = await patch(engine, id, 'application/json', { body: 'eggs', meta: { pinned: false } });
    expect(merged.json).toEqual({ ...note, id, body: 'eggs', meta: { color: 'red', pinned: false } });
  });

  it('PATCH with application/merge-patch+json follows RFC 7396: null removes a field', async () => {
    const { engine, id } = await created();
    const merged = await patch(engine, id, 'application/merge-patch+json', { body: null, meta: { color: null } });
    expect(merged.json).toEqual({ id, title: 'Groceries', tags: ['home'], meta: { pinned: true } });
  });

  it('PATCH with application/json-patch+json follows RFC 6902 (add, replace, remove, test)', async () => {
    const { engine, id } = await created();
    const ops = [
      { op: 'test', path: '/title', value: 'Groceries' },
      { op: 'replace', path: '/title', value: 'Shopping' },
      { op: 'add', path: '/tags/-', value: 'weekly' },
      { op: 'remove', path: '/meta/color' },
    ];
    const patched = await patch(engine, id, 'application/json-patch+json', ops);
    expect(patched).toMatchObject({
      status: 200,
      json: { id, title: 'Shopping', body: 'milk', tags: ['home', 'weekly'], meta: { pinned: true } },
    });
    expect((await get(engine, `/notes/${id}`)).json).toEqual(patched.json);
  });

  it('refuses a JSON Patch whose test fails with 400 and changes nothing', async () => {
    const { engine, id } = await created();
    const refused = await patch(engine, id, 'application/json-patch+json', [
      { op: 'test', path: '/title', value: 'Other' },
      { op: 'remove', path: '/body' },
    ]);
    expect(refused.status).toBe(400);
    expect((await get(engine, `/notes/${id}`)).json).toEqual({ ...note, id });
  });
});
