// Swagger 2.0 allowEmptyValue, Accept parameters per RFC 9110, and a body the document does not require.
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createMockEngine, type MockEngine } from '../../src/mock/engine.ts';
import { send } from '../helpers/engine.ts';

let engine: MockEngine;
beforeAll(async () => {
  engine = createMockEngine({ spec: await loadSpec(resolve('test/documents/parameters-and-media.yaml')) });
});
const form = (body: string) =>
  send(engine, {
    method: 'POST',
    path: '/forms',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });

describe('Swagger 2.0 allowEmptyValue', () => {
  it('refuses an empty form field declared with allowEmptyValue: false', async () => {
    const answer = await form('strict=');
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(/strict/);
  });

  it('accepts an empty form field declared with allowEmptyValue: true, and a filled one', async () => {
    expect((await form('loose=')).status).toBe(200);
    expect((await form('strict=x&loose=')).status).toBe(200);
  });

  it('refuses an empty query value declared with allowEmptyValue: false', async () => {
    expect((await send(engine, { method: 'GET', path: '/search', query: 'q=', headers: {} })).status).toBe(400);
    expect((await send(engine, { method: 'GET', path: '/search', query: 'q=fern', headers: {} })).status).toBe(200);
  });
});

describe('Accept with media-type parameters', () => {
  const get = (accept: string) => send(engine, { method: 'GET', path: '/things', headers: { accept } });

  it('matches a parameter the declared type does not name (RFC 9110 §12.5.1)', async () => {
    const answer = await get('application/vnd.things+json; version=1');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/vnd\.things\+json/);
  });

  it('keeps weights: q=0 still refuses', async () => {
    expect((await get('application/vnd.things+json; version=1; q=0')).status).toBe(406);
  });

  it('does not match a declared type whose parameter differs', async () => {
    expect((await get('application/vnd.things.v2+json; version=3')).status).toBe(406);
  });
});

describe('a request body the document does not require', () => {
  it.each([
    ['no Content-Type', {}],
    ['the declared Content-Type', { 'content-type': 'application/json' }],
    ["a client's default Content-Type", { 'content-type': 'text/plain' }],
  ])('may be empty, with %s', async (_case, headers) => {
    expect((await send(engine, { method: 'PUT', path: '/things', headers, body: '' })).status).toBe(204);
  });

  it('is still checked when it is sent', async () => {
    expect(
      (
        await send(engine, {
          method: 'PUT',
          path: '/things',
          headers: { 'content-type': 'application/json' },
          json: {},
        })
      ).status,
    ).toBe(400);
  });
});
