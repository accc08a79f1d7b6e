// The MSW handlers keep state on nested collections, form bodies and wrapped lists as the mock
// does: the same engine (test/documents/nested-state.yaml).
import { resolve } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/msw/handlers.ts';

const BASE = 'https://api.nested.test';

describe('the MSW handlers on nested collections', async () => {
  const handlers = await createHandlers({ spec: resolve('test/documents/nested-state.yaml'), baseUrl: BASE });
  const server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: 'error' });
  afterAll(() => server.close());
  const auth = { authorization: 'Bearer t' };

  it('keeps a form create under its parent, reads it at its .json path, lists it wrapped, and 404s it once deleted', async () => {
    const created = await fetch(`${BASE}/Accounts/AC9/Calls.json`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'To=1&FriendlyName=Hello',
    });
    expect(created.status).toBe(201);
    const call = (await created.json()) as { sid: string; friendly_name: string };
    expect(call.friendly_name).toBe('Hello');
    expect(await (await fetch(`${BASE}/Accounts/AC9/Calls/${call.sid}.json`, { headers: auth })).json()).toEqual(call);
    expect(await (await fetch(`${BASE}/Accounts/AC9/Calls.json`, { headers: auth })).json()).toMatchObject({
      calls: [call],
    });
    expect(handlers.state.list()).toEqual({ '/Accounts/AC9/Calls': [call] });
    expect(
      (await fetch(`${BASE}/Accounts/AC9/Calls/${call.sid}.json`, { method: 'DELETE', headers: auth })).status,
    ).toBe(204);
    const gone = await fetch(`${BASE}/Accounts/AC9/Calls/${call.sid}.json`, { headers: auth });
    expect(gone.status).toBe(404);
    expect(gone.headers.get('warning')).toContain('undeclared 404');
  });

  it('seeds a nested collection through handlers.state.seed, and resets it', async () => {
    await handlers.state.seed({ '/users/dan/playlists': [{ name: 'Seeded' }] });
    expect(await (await fetch(`${BASE}/users/dan/playlists`, { headers: auth })).json()).toMatchObject({
      total: 1,
      items: [{ name: 'Seeded' }],
    });
    await expect(handlers.state.seed({ '/nowhere': [] })).rejects.toThrow(
      /cannot seed the state: no collection \/nowhere/,
    );
    await handlers.state.reset();
    expect(handlers.state.list()).toEqual({});
  });
});
