import { expect, it } from 'vitest';
import { handlers } from './mocks/server.js';

const api = (path: string, init: RequestInit = {}) =>
  fetch(`https://api.example.test${path}`, {
    ...init,
    headers: { authorization: 'Bearer test-token', 'content-type': 'application/json' },
  });

it('creates a plant and reads it back', async () => {
  expect((await api('/plants', { method: 'POST', body: JSON.stringify({ id: 1, name: 'Fern' }) })).status).toBe(200);
  expect(await (await api('/plants/1')).json()).toEqual({ name: 'Fern' });
});

it('starts each test empty, seeded as the test needs', async () => {
  expect(await (await api('/plants')).json()).toEqual([]);
  await handlers.state.seed({ '/plants': [{ id: 2, name: 'Moss' }] });
  expect(await (await api('/plants/2')).json()).toEqual({ name: 'Moss' });
});

it("answers a bad body with 400 in the document's error shape", async () => {
  const answer = await api('/plants', { method: 'POST', body: JSON.stringify({ name: 5 }) });
  expect(answer.status).toBe(400);
  expect(await answer.json()).toEqual({ error: 400, message: expect.any(String) });
  expect(handlers.journal.list().map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
    'POST /plants 400',
  ]);
});
