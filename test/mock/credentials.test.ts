// Credentials of every http scheme: Basic must decode to user:password; Digest and schemes the mock
// cannot verify are accepted when present in their scheme, and a refusal's challenge names the scheme.
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createMockEngine, type MockEngine } from '../../src/mock/engine.ts';
import { send } from '../helpers/engine.ts';

let engine: MockEngine;
beforeAll(async () => {
  engine = createMockEngine({ spec: await loadSpec(resolve('test/documents/credentials.yaml')) });
});
const get = (path: string, authorization?: string) =>
  send(engine, { method: 'GET', path, headers: authorization === undefined ? {} : { authorization } });
const base64 = (text: string) => Buffer.from(text).toString('base64');

describe('http credentials', () => {
  it.each([
    ['user:password in base64', `Basic ${base64('ada:secret')}`, 200],
    ['a password that holds colons', `Basic ${base64('ada:se:cr:et')}`, 200],
    ['no credentials', undefined, 401],
    ['base64 of a text without a colon', 'Basic abc123', 401],
    ['text that is not base64', 'Basic not*base64', 401],
    ['another scheme', 'Bearer abc', 401],
  ])('Basic with %s answers %i', async (_case, authorization, status) => {
    const answer = await get('/basic', authorization);
    expect(answer.status).toBe(status);
    if (status === 401) expect(answer.headers['www-authenticate']).toMatch(/^Basic realm=/);
  });

  it.each([
    [
      'the parameters RFC 7616 asks for',
      'Digest username="ada", realm="api", nonce="n", uri="/digest", response="r"',
      200,
    ],
    ['no credentials', undefined, 401],
    ['a token instead of parameters', 'Digest abc123', 401],
    ['Basic credentials', `Basic ${base64('ada:secret')}`, 401],
  ])('Digest with %s answers %i', async (_case, authorization, status) => {
    const answer = await get('/digest', authorization);
    expect(answer.status).toBe(status);
    if (status === 401) expect(answer.headers['www-authenticate']).toMatch(/^Digest realm="plantstore", nonce="[^"]+"/);
  });

  it('accepts any credentials of another http scheme, and challenges with its name', async () => {
    expect((await get('/hoba', 'HOBA result="abc"')).status).toBe(200);
    const refused = await get('/hoba');
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Hoba realm="plantstore"');
  });
});

describe('API keys', () => {
  let keys: MockEngine;
  beforeAll(async () => {
    keys = createMockEngine({ spec: await loadSpec(resolve('test/documents/api-keys.yaml')) });
  });
  it.each([
    ['a header key', 200, '/by-header', { 'x-api-key': 'k' }, ''],
    ['an empty header key', 401, '/by-header', { 'x-api-key': '' }, ''],
    ['a query key', 200, '/by-query', {}, 'api_key=k'],
    ['an empty query key', 401, '/by-query', {}, 'api_key='],
    ['a cookie key', 200, '/by-cookie', { cookie: 'a=1; session=k' }, ''],
    ['an empty cookie key', 401, '/by-cookie', { cookie: 'a=1; session=' }, ''],
  ])('%s answers %i', async (_case, status, path, headers, query) => {
    expect((await send(keys, { method: 'GET', path, query, headers })).status).toBe(status);
  });
});
