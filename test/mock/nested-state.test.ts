// State on collections as real APIs write them (test/documents/nested-state.yaml): nested under a
// parent, item paths ending in .json, form and multipart bodies, wrapped and paged lists.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createMockEngine, type MockEngine } from '../../src/mock/engine.ts';
import { send } from '../helpers/engine.ts';

const specOnce = loadSpec(resolve('test/documents/nested-state.yaml'));
const engineFor = async () => createMockEngine({ spec: await specOnce });
const post = (engine: MockEngine, path: string, json: unknown) => send(engine, { method: 'POST', path, json });
const get = (engine: MockEngine, path: string, query = '') => send(engine, { method: 'GET', path, query, body: '' });
const form = (engine: MockEngine, path: string, body: string, method = 'POST') =>
  send(engine, { method, path, body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
const ACCOUNT = '/Accounts/AC1/Calls';

describe('nested collections', () => {
  it("keeps a playlist created under /users/alice/playlists in alice's list only, with the name sent", async () => {
    const engine = await engineFor();
    const created = await post(engine, '/users/alice/playlists', { name: 'Road trip', public: false });
    expect(created).toMatchObject({ status: 201, json: { name: 'Road trip', public: false, id: expect.any(String) } });
    const alice = await get(engine, '/users/alice/playlists');
    expect(alice.json).toMatchObject({
      total: 1,
      items: [created.json],
      offset: 0,
      limit: 20,
      next: null,
      previous: null,
    });
    expect((await get(engine, '/users/bob/playlists')).json).toMatchObject({ total: 0, items: [] });
    expect(engine.store.snapshot()).toEqual({ '/users/alice/playlists': [created.json] });
  });

  it('reads a nested item at an item path outside its collection (/playlists/{playlist_id})', async () => {
    const engine = await engineFor();
    const created = await post(engine, '/users/alice/playlists', { name: 'Road trip' });
    const id = (created.json as { id: string }).id;
    expect(await get(engine, `/playlists/${id}`)).toMatchObject({ status: 200, json: { id, name: 'Road trip' } });
  });

  it('keeps a form-encoded create at a .json path under its account, with FriendlyName stored as friendly_name and the account as account_sid', async () => {
    const engine = await engineFor();
    const created = await form(engine, `${ACCOUNT}.json`, 'To=%2B15550001&FriendlyName=MyChat&Timeout=30');
    expect(created).toMatchObject({
      status: 201,
      json: {
        to: '+15550001',
        friendly_name: 'MyChat',
        timeout: 30,
        account_sid: 'AC1',
        sid: expect.stringMatching(/^CA[0-9a-f]{32}$/),
      },
    });
    const { sid, date_created: made } = created.json as { sid: string; date_created: string };
    expect(made).toEqual(expect.any(String));
    expect(await get(engine, `${ACCOUNT}/${sid}.json`)).toMatchObject({ status: 200, json: created.json });
    expect((await get(engine, `/Accounts/AC2/Calls/${sid}.json`)).json).not.toEqual(created.json);
    const updated = await form(engine, `${ACCOUNT}/${sid}.json`, 'FriendlyName=Renamed');
    expect(updated).toMatchObject({
      status: 200,
      json: { ...(created.json as object), friendly_name: 'Renamed', date_created: made },
    });
    expect((await get(engine, `${ACCOUNT}.json`)).json).toMatchObject({ calls: [updated.json] });
  });

  it('stores a multipart create and reads it back by its made integer id', async () => {
    const engine = await engineFor();
    const body = '--b\r\nContent-Disposition: form-data; name="title"\r\n\r\nHoliday\r\n--b--\r\n';
    const created = await send(engine, {
      method: 'POST',
      path: '/uploads',
      body,
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    });
    expect(created).toMatchObject({ status: 201, json: { id: 1, title: 'Holiday' } });
    expect(await get(engine, '/uploads/1')).toMatchObject({ status: 200, json: { id: 1, title: 'Holiday' } });
  });
});

describe('wrapped lists', () => {
  it('pages by limit and offset, with a total and next and previous links that say the truth', async () => {
    const engine = await engineFor();
    for (const name of ['a', 'b', 'c']) await post(engine, '/users/alice/playlists', { name });
    const page = await send(engine, {
      method: 'GET',
      path: '/users/alice/playlists',
      query: 'limit=1&offset=1',
      body: '',
      headers: { host: 'mock.test' },
    });
    expect(page.json).toMatchObject({
      href: '/users/alice/playlists?limit=1&offset=1',
      total: 3,
      limit: 1,
      offset: 1,
      items: [{ name: 'b' }],
      next: 'http://mock.test/users/alice/playlists?limit=1&offset=2',
      previous: 'http://mock.test/users/alice/playlists?limit=1&offset=0',
    });
    const last = await get(engine, '/users/alice/playlists', 'limit=1&offset=2');
    expect(last.json).toMatchObject({ items: [{ name: 'c' }], next: null });
  });

  it("pages by page and page size inside a nested meta object (Twilio's shape), from page 0", async () => {
    const engine = await engineFor();
    for (const name of ['a', 'b', 'c']) await form(engine, `${ACCOUNT}.json`, `To=1&FriendlyName=${name}`);
    const second = await get(engine, `${ACCOUNT}.json`, 'PageSize=2&Page=1');
    expect(second.json).toMatchObject({
      calls: [{ friendly_name: 'c' }],
      meta: { page: 1, page_size: 2, next_page_url: null },
    });
    const first = await get(engine, `${ACCOUNT}.json`, 'PageSize=2&Page=0');
    expect(first.json).toMatchObject({
      calls: [{ friendly_name: 'a' }, { friendly_name: 'b' }],
      meta: { page: 0, next_page_url: expect.stringContaining('Page=1') },
    });
  });

  it('pages by cursor (starting_after, ending_before) with has_more, keeping the rest of the envelope valid', async () => {
    const engine = await engineFor();
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c'])
      ids.push(((await form(engine, '/customers', `name=${name}`)).json as { id: string }).id);
    expect((await get(engine, '/customers', 'limit=2')).json).toMatchObject({
      object: 'list',
      has_more: true,
      data: [{ id: ids[0] }, { id: ids[1] }],
    });
    expect((await get(engine, '/customers', `limit=2&starting_after=${ids[1]}`)).json).toMatchObject({
      has_more: false,
      data: [{ id: ids[2] }],
    });
    expect((await get(engine, '/customers', `limit=1&ending_before=${ids[2]}`)).json).toMatchObject({
      data: [{ id: ids[1] }],
    });
  });
});

describe('deletes', () => {
  it('answers a read after a DELETE with an undeclared 404 and a warning header where the read declares none', async () => {
    const engine = await engineFor();
    const { sid } = (await form(engine, `${ACCOUNT}.json`, 'To=1&FriendlyName=x')).json as { sid: string };
    expect((await send(engine, { method: 'DELETE', path: `${ACCOUNT}/${sid}.json`, body: '' })).status).toBe(204);
    const gone = await get(engine, `${ACCOUNT}/${sid}.json`);
    expect(gone).toMatchObject({
      status: 404,
      json: { error: 404, message: expect.stringContaining('it was deleted') },
    });
    expect(gone.headers.warning).toMatch(/^299 plantstore "undeclared 404/);
  });

  it('still answers an item that was never created from the document, and a created-again one from state', async () => {
    const engine = await engineFor();
    const never = await get(engine, `${ACCOUNT}/CA0123456789abcdef0123456789abcdef.json`);
    expect(never.status).toBe(200);
    expect(never.headers.warning).toBeUndefined();
  });

  it('answers a read after a DELETE with the declared default where there is one', async () => {
    const engine = await engineFor();
    const { id } = (await form(engine, '/customers', 'name=Ann')).json as { id: string };
    expect(await send(engine, { method: 'DELETE', path: `/customers/${id}`, body: '' })).toMatchObject({
      status: 200,
      json: { id, deleted: true },
    });
    const gone = await get(engine, `/customers/${id}`);
    expect(gone).toMatchObject({ status: 404, json: { error: 404, message: `no customer with id ${id}` } });
    expect(gone.headers.warning).toBeUndefined();
  });

  it('forgets deletions when the state is reset', async () => {
    const engine = await engineFor();
    const { sid } = (await form(engine, `${ACCOUNT}.json`, 'To=1&FriendlyName=x')).json as { sid: string };
    await send(engine, { method: 'DELETE', path: `${ACCOUNT}/${sid}.json`, body: '' });
    await send(engine, { method: 'DELETE', path: '/__mock/state', body: '' });
    expect((await get(engine, `${ACCOUNT}/${sid}.json`)).status).toBe(200);
  });
});

describe('seeds', () => {
  it('seeds a nested collection by its path with the parent filled in', async () => {
    const engine = await engineFor();
    const seeded = await send(engine, {
      method: 'POST',
      path: '/__mock/state',
      json: { '/users/carol/playlists': [{ name: 'Seeded' }] },
    });
    expect(seeded).toMatchObject({ status: 201, json: { seeded: { '/users/carol/playlists': 1 } } });
    expect((await get(engine, '/users/carol/playlists')).json).toMatchObject({
      total: 1,
      items: [{ name: 'Seeded', id: expect.any(String) }],
    });
  });
});
