import { describe, expect, it } from 'vitest';
import { createPlant, plantEngine, send } from '../helpers/engine.ts';

describe('routing', () => {
  it.each([['/nope'], ['/plants/1'], ['/plants/'], ['/PLANTS'], ['/plants/../plants'], ['/%70lants']])(
    'answers the unknown path %s with an Error-shaped 404',
    async (path) => {
      const engine = await plantEngine();
      const answer = await send(engine, { path, body: '{"id":1,"name":"A"}' });
      expect(answer.status).toBe(404);
      expect(answer.json).toMatchObject({ error: 404, message: expect.stringContaining('POST /plants') });
    },
  );

  it.each([['GET'], ['PUT'], ['DELETE'], ['PATCH'], ['BREW']])(
    'answers %s /plants with an Error-shaped 405 and Allow: POST',
    async (method) => {
      const engine = await plantEngine();
      const answer = await send(engine, { method, body: '' });
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('POST');
      expect(answer.json).toMatchObject({ error: 405 });
    },
  );

  it('answers HEAD like GET without a body', async () => {
    const engine = await plantEngine();
    const answer = await send(engine, { method: 'HEAD', body: '' });
    expect(answer.status).toBe(405);
    expect(answer.text).toBeUndefined();
  });
});

describe('--declared-only', () => {
  it.each([
    ['a missing token', { authorization: undefined }, '{"id":1,"name":"A"}', '/plants', 'POST'],
    ['a non-JSON media type', { 'content-type': 'text/plain' }, '{"id":1,"name":"A"}', '/plants', 'POST'],
    ['an unknown path', {}, '{}', '/nope', 'POST'],
    ['an undeclared method', {}, '', '/plants', 'GET'],
  ])('answers %s with the declared 400 and its Error body', async (_, headers, body, path, method) => {
    const engine = await plantEngine({ declaredOnly: true });
    const answer = await send(engine, { method, path, body, headers });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ error: 400, message: expect.any(String) });
  });

  it('still answers a valid create with 200', async () => {
    const engine = await plantEngine({ declaredOnly: true });
    expect((await createPlant(engine, '{"id":1,"name":"A"}')).status).toBe(200);
  });
});

describe('CORS', () => {
  const preflight = {
    method: 'OPTIONS',
    body: '',
    headers: {
      origin: 'http://localhost:3000',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  };

  it('answers a preflight with 204 allowing Authorization and Content-Type for the origin, with credentials', async () => {
    const engine = await plantEngine();
    const answer = await send(engine, preflight);
    expect(answer.status).toBe(204);
    expect(answer.headers).toMatchObject({
      'access-control-allow-origin': 'http://localhost:3000',
      'access-control-allow-credentials': 'true',
      'access-control-allow-headers': 'authorization, content-type',
    });
    expect(answer.headers['access-control-allow-methods']).toContain('POST');
  });

  it('allows Authorization and Content-Type when the preflight names no headers', async () => {
    const engine = await plantEngine();
    const answer = await send(engine, {
      ...preflight,
      headers: { origin: 'http://a.test', 'access-control-request-method': 'POST' },
    });
    expect(answer.headers['access-control-allow-headers']).toMatch(/Authorization, Content-Type/);
  });

  it.each([
    [200, '{"id":1,"name":"A"}'],
    [400, '{}'],
  ])('reflects the Origin on a %i answer', async (status, body) => {
    const engine = await plantEngine();
    const answer = await createPlant(engine, body, { origin: 'http://localhost:3000' });
    expect(answer.status).toBe(status);
    expect(answer.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(answer.headers.vary).toBe('Origin');
  });

  it('with --no-cors answers no preflight and adds no CORS headers', async () => {
    const engine = await plantEngine({ cors: false });
    const answer = await send(engine, preflight);
    expect(answer.status).toBe(405);
    const created = await createPlant(engine, '{"id":1,"name":"A"}', { origin: 'http://localhost:3000' });
    expect(created.headers['access-control-allow-origin']).toBeUndefined();
  });
});
