// A POST is a create only when it takes an object and answers one: a list in or a list out is
// answered from the document, and nothing is stored.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { plantEngine, send } from '../helpers/engine.ts';

const DOC = resolve('test/documents/posts-that-store-nothing.yaml');

describe('POSTs that are not creates', () => {
  it.each([
    ['/user/createWithList', '[]', (body: unknown) => expect(body).toMatchObject({ username: expect.any(String) })],
    ['/search', '{"q": "fern"}', (body: unknown) => expect(Array.isArray(body)).toBe(true)],
  ])('answers POST %s from the document, valid, and stores nothing', async (path, body, check) => {
    const engine = await plantEngine({}, await loadSpec(DOC));
    const answer = await send(engine, { method: 'POST', path, body, headers: {} });
    expect(answer.status).toBe(200);
    check(answer.json);
    expect(engine.store.size()).toBe(0);
  });
});
