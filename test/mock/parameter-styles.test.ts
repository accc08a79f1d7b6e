import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import { createRouter } from '../../src/document/router.ts';
import { createValidators } from '../../src/validation/validator.ts';
import { readParameters } from '../../src/mock/request/parameters.ts';
import { plantEngine, send } from '../helpers/engine.ts';

const spec = loadSpec('test/documents/parameter-styles.yaml');

/** Routes a GET target through the document and reads its parameters as the mock does. */
async function read(target: string, headers: Record<string, string> = {}) {
  const loaded = await spec;
  const route = createRouter(listOperations(loaded));
  const [path, query = ''] = target.split('?');
  const routed = route('GET', path);
  if (routed.kind !== 'operation') throw new Error(`no route for ${target}`);
  return readParameters(
    routed.operation,
    routed.params,
    { method: 'GET', path, query, headers, body: '' },
    createValidators(loaded),
    loaded.document,
  );
}

describe('parameters are read in their declared style before validation', () => {
  it.each([
    ['simple array', '/simple/3,4,5', { v: [3, 4, 5] }],
    ['simple object', '/simple-object/x,1,y,2', { v: { x: 1, y: 2 } }],
    ['simple object, exploded', '/simple-object-exploded/x=1,y=2', { v: { x: 1, y: 2 } }],
    ['label array', '/label/.3,4,5', { v: [3, 4, 5] }],
    ['label array, exploded', '/label-exploded/.3.4.5', { v: [3, 4, 5] }],
    ['label object, exploded', '/label-object/.x=1.y=2', { v: { x: 1, y: 2 } }],
    ['matrix primitive', '/matrix/;v=5', { v: 5 }],
    ['matrix array, exploded', '/matrix-exploded/;v=3;v=4;v=5', { v: [3, 4, 5] }],
    ['matrix object', '/matrix-object/;v=x,1,y,2', { v: { x: 1, y: 2 } }],
    ['form array, exploded (the query default)', '/search?ids=3&ids=4', { ids: [3, 4] }],
    ['form array', '/search?csv=3,4,5', { csv: [3, 4, 5] }],
    ['an empty form array, written "name=" as the specification\'s table does', '/search?ids=', { ids: [] }],
    ['spaceDelimited array', '/search?space=3%204%205', { space: [3, 4, 5] }],
    ['pipeDelimited array', '/search?pipe=3|4|5', { pipe: [3, 4, 5] }],
    ['deepObject', '/search?filter[min]=1&filter[max]=9', { filter: { min: 1, max: 9 } }],
    ['form object, exploded over the query', '/search?x=1&y=2', { point: { x: 1, y: 2 } }],
    [
      'deepObject of anyOf an object and an integer, sent as the object',
      '/search?created[lt]=5',
      { created: { lt: 5 } },
    ],
    ['deepObject of anyOf an object and an integer, sent as the integer', '/search?created=5', { created: 5 }],
    ["a deepObject array (Stripe's expand), sent as form pairs", '/search?expand=a&expand=b', { expand: ['a', 'b'] }],
    ['a deepObject array of one', '/search?expand=a', { expand: ['a'] }],
    ['an empty deepObject, written "name=" as the style table does', '/search?filter=', { filter: {} }],
    ['a deepObject array sent empty', '/search?expand=', { expand: [] }],
    [
      'an exploded array of allOf-wrapped objects, each item as JSON text',
      `/search?tags=${encodeURIComponent('{"Key":"a"}')}&tags=${encodeURIComponent('{"Key":"b","Value":"c"}')}`,
      { tags: [{ Key: 'a' }, { Key: 'b', Value: 'c' }] },
    ],
    ['boolean', '/search?flag=true', { flag: true }],
    ['a JSON content parameter', `/search?where=${encodeURIComponent('{"a":1}')}`, { where: { a: 1 } }],
  ])('reads %s', async (_, target, values) => {
    expect(await read(target)).toEqual({ ok: true, values });
  });

  it('reads a simple header array and a form cookie', async () => {
    expect(await read('/search', { 'x-sizes': '1,2', cookie: 'theme=dark; session=42' })).toEqual({
      ok: true,
      values: { 'X-Sizes': [1, 2], session: 42 },
    });
  });

  it.each([
    ['an item of the wrong type', '/simple/3,x,5', /path parameter "v": \/1: must be integer/],
    ['a label value without its dot', '/label/3,4', /path parameter "v": expected label style/],
    ['a matrix value without its name', '/matrix/5', /path parameter "v": expected matrix style/],
    ['an undeclared deepObject property', '/search?filter[avg]=2', /query parameter "filter": \/avg: /],
    [
      'malformed JSON in a content parameter',
      '/search?where=%7B',
      /query parameter "where": not valid application\/json/,
    ],
  ])('refuses %s, naming the parameter', async (_, target, message) => {
    const result = await read(target);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(message);
  });

  it('ignores header parameters named Accept, Content-Type and Authorization, as OpenAPI says', async () => {
    const answer = await send(await plantEngine({}, await spec), {
      method: 'GET',
      path: '/search',
      headers: { accept: 'application/json', 'content-type': 'text/plain', authorization: 'Bearer x' },
    });
    expect(answer.status).toBe(200);
  });

  it('answers a styled parameter that fails its schema with 400 in the engine', async () => {
    const answer = await send(await plantEngine({}, await spec), {
      method: 'GET',
      path: '/search',
      query: 'pipe=1|two',
      headers: { authorization: undefined },
    });
    expect(answer.status).toBe(400);
    expect((answer.json as { message: string }).message).toMatch(/query parameter "pipe": \/1: must be integer/);
  });
});
