import { describe, expect, it } from 'vitest';
import { CANARY, createPlant, plantEngine } from '../helpers/engine.ts';

const body = '{"id":1,"name":"Fern"}';

describe('bearer authentication', () => {
  it.each([
    ['no Authorization header', undefined, 'Bearer'],
    ['an empty Authorization header', '', 'Bearer'],
    ['a Basic credential', 'Basic dXNlcjpwYXNz', 'Bearer'],
    ['Bearer alone', 'Bearer', 'Bearer'],
    ['Bearer with only spaces', 'Bearer   ', 'Bearer'],
    ['a token with a space inside', 'Bearer abc def', 'Bearer'],
  ])('answers %s with 401, WWW-Authenticate and an Error body', async (_, authorization, challenge) => {
    const engine = await plantEngine();
    const answer = await createPlant(engine, body, { authorization });
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe(challenge);
    expect(answer.json).toMatchObject({ error: 401, message: expect.any(String) });
    expect(engine.store.list('/plants')).toEqual([]);
  });

  it.each([['Bearer'], ['bearer'], ['BEARER'], ['BeArEr']])(
    'accepts the scheme name written %s (RFC 6750: case-insensitive)',
    async (scheme) => {
      const engine = await plantEngine();
      expect((await createPlant(engine, body, { authorization: `${scheme} ${CANARY}` })).status).toBe(200);
    },
  );

  // Without --token a well-formed "Bearer <token>" is accepted by one test; every other header
  // takes the full steps. Both must decide alike, with --token (full steps only) as the reference.
  it.each([
    ['Bearer  abc', 200],
    ['Bearer abc ', 200],
    ['bearer abc==', 200],
    [' Bearer abc', 401],
    ['Bearer =abc', 401],
    ['Bearer\tabc', 401],
    ['Bearer abc\t', 200],
  ])('decides %j alike with and without --token', async (authorization, status) => {
    const anyToken = await plantEngine();
    const listed = await plantEngine({ tokens: ['abc', 'abc=='] });
    expect((await createPlant(anyToken, body, { authorization })).status).toBe(status);
    expect((await createPlant(listed, body, { authorization })).status).toBe(status);
  });

  it('accepts any well-formed token by default', async () => {
    const engine = await plantEngine();
    expect((await createPlant(engine, body, { authorization: 'Bearer x.y-z~+/=' })).status).toBe(200);
  });

  it('with --token accepts only the listed tokens and answers others with error="invalid_token"', async () => {
    const engine = await plantEngine({ tokens: [CANARY, 'second'] });
    expect((await createPlant(engine, '{"id":1,"name":"A"}', { authorization: 'Bearer second' })).status).toBe(200);
    expect((await createPlant(engine, '{"id":2,"name":"B"}')).status).toBe(200);
    const refused = await createPlant(engine, '{"id":3,"name":"C"}', { authorization: 'Bearer other' });
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });

  it('checks the token before the body, so an anonymous bad body still gets 401', async () => {
    const engine = await plantEngine();
    expect((await createPlant(engine, '{', { authorization: undefined })).status).toBe(401);
  });

  it('refuses two Authorization headers, since which one counts would be a guess', async () => {
    const engine = await plantEngine();
    const answer = await engine.handle({
      method: 'POST',
      path: '/plants',
      query: '',
      headers: { authorization: `Bearer ${CANARY}`, 'content-type': 'application/json' },
      authorizationCount: 2,
      body,
    });
    expect(answer.status).toBe(401);
  });
});
