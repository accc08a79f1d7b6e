import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { plantEngine, send } from '../helpers/engine.ts';

const spec = loadSpec('test/documents/form-bodies.yaml');
const URLENCODED = 'application/x-www-form-urlencoded';

/** A multipart body as a browser would send it, with the boundary the platform chose. */
async function multipart(fields: Array<[string, string | Blob]>): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

const post = async (path: string, contentType: string, body: Buffer | string) =>
  send(await plantEngine({}, await spec), {
    method: 'POST',
    path,
    body,
    headers: { authorization: undefined, 'content-type': contentType },
  });

describe('form request bodies are validated like JSON ones', () => {
  it.each([
    ['typed fields', 'name=Ann&age=31&subscribed=true', 201, undefined],
    ['a repeated field as an array, each item typed', 'name=Ann&age=3&scores=1&scores=2', 201, undefined],
    ['an object sent as JSON text', 'name=Ann&age=3&prefs=%7B%22theme%22%3A%22dark%22%7D', 201, undefined],
    ['a deepObject-encoded object', 'name=Ann&age=3&filter[min]=2', 201, undefined],
    ['a missing required field', 'age=3', 400, /\/name: is required/],
    ['an empty array written as "name="', 'name=Ann&age=3&scores=', 201, undefined],
    ['a field of the wrong type', 'name=Ann&age=old', 400, /\/age: must be integer/],
    ['an array item of the wrong type', 'name=Ann&age=3&scores=1&scores=x', 400, /\/scores\/1: must be integer/],
    [
      'a value outside an enum inside a JSON field',
      'name=Ann&age=3&prefs=%7B%22theme%22%3A%22red%22%7D',
      400,
      /\/prefs\/theme/,
    ],
    [
      'a deepObject property of the wrong type',
      'name=Ann&age=3&filter[min]=low',
      400,
      /\/filter\/min: must be integer/,
    ],
    [
      "nested brackets as Stripe's clients send them",
      'name=Ann&age=3&metadata[order]=6735&items[0][price]=5&items[1][price]=7&items[1][tax]=true&expand[]=customer&expand[]=invoice',
      201,
      undefined,
    ],
    ['an empty string where anyOf allows one', 'name=Ann&age=3&metadata=', 201, undefined],
    [
      'a nested item of the wrong type',
      'name=Ann&age=3&items[0][price]=5&items[1][price]=cheap',
      400,
      /\/items\/1\/price: must be integer/,
    ],
    [
      'a nested item missing a required field',
      'name=Ann&age=3&items[0][tax]=true',
      400,
      /\/items\/0\/price: is required/,
    ],
  ])('URL-encoded: %s', async (_, body, status, message) => {
    const answer = await post('/signup', URLENCODED, body);
    expect(answer.status).toBe(status);
    if (message) expect((answer.json as { message: string }).message).toMatch(message);
  });

  it.each<[string, Array<[string, string | Blob]>, number, RegExp | undefined]>([
    [
      'typed fields, a file and a JSON part',
      [
        ['name', 'Ann'],
        ['age', '31'],
        ['prefs', '{"theme":"light"}'],
        ['avatar', new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' })],
      ],
      201,
      undefined,
    ],
    [
      'repeated parts as an array',
      [
        ['name', 'Ann'],
        ['age', '3'],
        ['tags', 'a'],
        ['tags', 'b'],
      ],
      201,
      undefined,
    ],
    [
      'a field of the wrong type',
      [
        ['name', 'Ann'],
        ['age', '-1'],
      ],
      400,
      /\/age: must be >= 0/,
    ],
    ['a missing required field', [['age', '3']], 400, /name/],
    [
      'a JSON part that is not JSON',
      [
        ['name', 'Ann'],
        ['age', '3'],
        ['prefs', '{'],
      ],
      400,
      /part "prefs" is not valid JSON/,
    ],
  ])('multipart: %s', async (_, fields, status, message) => {
    const { body, contentType } = await multipart(fields);
    const answer = await post('/signup', contentType, body);
    expect(answer.status).toBe(status);
    if (message) expect((answer.json as { message: string }).message).toMatch(message);
  });

  it('refuses a multipart body that does not match its boundary with 400', async () => {
    const answer = await post(
      '/signup',
      'multipart/form-data; boundary=abc',
      '--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\nAnn\r\n--xyz--\r\n',
    );
    expect(answer.status).toBe(400);
    expect((answer.json as { message: string }).message).toMatch(/malformed multipart\/form-data/);
  });

  it.each([
    ['fits its string schema', 'short', 204],
    ['breaks its maxLength', 'far too long a note', 400],
  ])('checks a text/plain body that %s', async (_, body, status) => {
    expect((await post('/note', 'text/plain', body)).status).toBe(status);
  });
});
