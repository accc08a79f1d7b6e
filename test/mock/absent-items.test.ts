// Absent items: a key no stored record matches gets the operation's 404 where it declares one that
// fits (404, 4XX, default beside a success), else the document's own answer, as Prism gives it.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../src/log/logger.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import type { MockOptions } from '../../src/mock/options.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { send } from '../helpers/engine.ts';

async function engineFor(options: Partial<MockOptions> = {}) {
  const warnings: string[] = [];
  const logger: Logger = {
    request() {},
    info() {},
    warn: (message) => void warnings.push(message),
    error: (message) => void warnings.push(`ERROR ${message}`),
    flush() {},
  };
  const engine = createMockEngine({
    spec: await loadSpec(resolve('test/documents/absent-items.yaml')),
    options,
    logger,
  });
  return { engine, warnings };
}
const PATCH = { headers: { 'content-type': 'application/merge-patch+json' }, json: { text: 'x' } };
const NOT_FOUND = {
  status: 404,
  headers: { 'content-type': 'application/problem+json' },
  json: { status: 404, title: 'Not Found', detail: 'no memo with id 5' },
};

describe('absent items', () => {
  it.each([
    ['GET', '/memos/5', 'default beside a 200', {}],
    ['DELETE', '/memos/5', '4XX', {}],
    ['PATCH', '/memos/5', '404', PATCH],
  ])(
    "answers %s %s with 404 in the document's error shape where it declares %s",
    async (method, path, _declared, extra) => {
      const { engine } = await engineFor();
      expect(await send(engine, { method, path, body: '', ...extra })).toMatchObject(NOT_FOUND);
    },
  );

  it.each([
    ['GET', 'its declared example', { status: 200, json: { id: 99, text: 'from the document' } }],
    [
      'PUT',
      'a body generated for its lowest 2xx',
      { status: 200, json: { id: expect.anything(), text: expect.any(String) } },
    ],
    ['DELETE', 'its lowest 2xx, 204', { status: 204, text: undefined }],
  ])('answers %s of an absent note, where no 404 is declared, with %s', async (method, _what, answer) => {
    const { engine } = await engineFor();
    expect(
      await send(engine, {
        method,
        path: '/notes/5',
        json: method === 'PUT' ? { id: 5, text: 'x' } : undefined,
        body: '',
      }),
    ).toMatchObject(answer);
    expect(engine.store.size()).toBe(0);
  });

  it('says in the journal that no stored item matched', async () => {
    const { engine } = await engineFor();
    await send(engine, { method: 'GET', path: '/notes/5', body: '' });
    expect(engine.journal.entries()).toMatchObject([
      {
        status: 200,
        problems: ['no note with id 5 is stored; answered from the document, which declares no 404 for getNote'],
      },
    ]);
  });

  it('answers a stored note from the store, not from the document', async () => {
    const { engine } = await engineFor();
    expect((await send(engine, { method: 'POST', path: '/notes', json: { id: 5, text: 'mine' } })).status).toBe(200);
    expect(await send(engine, { method: 'GET', path: '/notes/5', body: '' })).toMatchObject({
      status: 200,
      json: { id: 5, text: 'mine' },
    });
  });

  it('warns once at start-up for each operation that declares no 404, and for no other', async () => {
    const { warnings } = await engineFor();
    expect(warnings).toHaveLength(3);
    expect(warnings.map((w) => w.split(' ')[0])).toEqual(['getNote', 'replaceNote', 'deleteNote']);
    expect(warnings[0]).toBe(
      "getNote (GET /notes/{id}) declares no 404: a note that is not stored gets its lowest 2xx from the document (its example, else a generated body), as Prism answers; declare a 404 there, or ask for an undeclared 404 (--absent-items 404; absentItems: '404' in the library and the MSW handlers)",
    );
  });

  it.each([
    [{ absentItems: '404' as const }, 404],
    [{ absentItems: '404' as const, declaredOnly: true }, 400],
  ])('with %j answers an absent note with %i in the error shape, and warns of nothing', async (options, status) => {
    const { engine, warnings } = await engineFor(options);
    expect(warnings).toEqual([]);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const answer = await send(engine, {
        method,
        path: '/notes/5',
        json: method === 'PUT' ? { id: 5, text: 'x' } : undefined,
        body: '',
      });
      expect(answer).toMatchObject({ status, json: { status, detail: 'no note with id 5' } });
    }
  });
});
