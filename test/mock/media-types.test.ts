import { inflateSync, crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { plantEngine, send, type Answer } from '../helpers/engine.ts';
import type { MockOptions } from '../../src/mock/options.ts';

const spec = loadSpec('test/documents/media-types.yaml');
const engineFor = async (options: Partial<MockOptions> = {}) => plantEngine(options, await spec);
const get = async (path: string, headers: Record<string, string> = {}, options: Partial<MockOptions> = {}) =>
  send(await engineFor(options), {
    method: 'GET',
    path,
    headers: { authorization: undefined, 'content-type': undefined, ...headers },
  });

/** A PNG whose every chunk CRC holds and whose image data inflates: a picture a decoder accepts. */
function isValidPng(bytes: Buffer): boolean {
  if (!bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return false;
  const data: Buffer[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const typeAndData = bytes.subarray(at + 4, at + 8 + length);
    if (crc32(typeAndData) !== bytes.readUInt32BE(at + 8 + length)) return false;
    if (typeAndData.subarray(0, 4).toString() === 'IDAT') data.push(typeAndData.subarray(4));
    at += 12 + length;
  }
  return inflateSync(Buffer.concat(data)).length > 0;
}

const formOf = (answer: Answer) =>
  new Response(answer.bytes, { headers: { 'content-type': answer.headers['content-type'] } }).formData();

describe('the mock answers every declared media type', () => {
  it.each<[string, string, Record<string, string>, string, (answer: Answer) => unknown]>([
    ['an image/png-only operation', '/photo', {}, 'image/png', (a) => expect(isValidPng(a.bytes!)).toBe(true)],
    [
      'an image/gif with a binary string schema',
      '/animation',
      {},
      'image/gif',
      (a) => expect(a.bytes!.subarray(0, 6).toString()).toBe('GIF89a'),
    ],
    [
      'JSON by default among JSON, XML and text',
      '/report',
      {},
      'application/json',
      (a) => expect(a.json).toEqual({ id: 7, title: 'Ferns', tags: ['green', 'shade'] }),
    ],
    [
      'XML with xml.name, attribute and wrapped honoured',
      '/report',
      { accept: 'application/xml' },
      'application/xml',
      (a) =>
        expect(a.text).toBe(
          '<?xml version="1.0" encoding="UTF-8"?><report id="7"><title>Ferns</title><tags><tag>green</tag><tag>shade</tag></tags></report>',
        ),
    ],
    [
      'text/plain with its example',
      '/report',
      { accept: 'text/plain' },
      'text/plain',
      (a) => expect(a.text).toBe('report 7: Ferns'),
    ],
    [
      'the highest q-value',
      '/report',
      { accept: 'text/plain;q=0.2, text/csv;q=0.9' },
      'text/csv',
      (a) => expect(typeof a.text).toBe('string'),
    ],
    [
      'JSON when it outranks XML',
      '/report',
      { accept: 'application/xml;q=0.1, application/json' },
      'application/json',
      (a) => expect(a.json).toMatchObject({ id: 7 }),
    ],
    [
      'the first declared type a wildcard covers',
      '/report',
      { accept: 'text/*' },
      'text/plain',
      (a) => expect(a.text).toBe('report 7: Ferns'),
    ],
    [
      'application/problem+json',
      '/problem',
      {},
      'application/problem+json',
      (a) => expect(a.json).toMatchObject({ type: expect.any(String), title: expect.any(String) }),
    ],
    [
      'application/hal+json',
      '/hal',
      {},
      'application/hal+json',
      (a) => expect(a.json).toMatchObject({ _links: { self: { href: expect.any(String) } } }),
    ],
    [
      'a vendor +json type',
      '/vendor',
      {},
      'application/vnd.acme.plant.v2+json',
      (a) => expect((a.json as { name: string }).name.length).toBeGreaterThan(0),
    ],
    [
      'octet-stream with its example as bytes',
      '/download',
      {},
      'application/octet-stream',
      (a) => expect(a.bytes!.toString()).toBe('raw bytes here'),
    ],
    [
      'octet-stream from a format: byte example, decoded',
      '/encoded',
      {},
      'application/octet-stream',
      (a) => expect([...a.bytes!]).toEqual([0, 1, 2, 255]),
    ],
    [
      '*/* as JSON',
      '/anything',
      {},
      'application/json',
      (a) => expect(a.json).toMatchObject({ ok: expect.any(Boolean) }),
    ],
    [
      'a declared image/* as PNG without Accept',
      '/thumbnail',
      {},
      'image/png',
      (a) => expect(isValidPng(a.bytes!)).toBe(true),
    ],
    [
      'a declared image/* as the accepted GIF',
      '/thumbnail',
      { accept: 'image/gif' },
      'image/gif',
      (a) => expect(a.bytes!.subarray(0, 6).toString()).toBe('GIF89a'),
    ],
    [
      'an XML list, items named after their component',
      '/reports',
      {},
      'application/xml',
      (a) =>
        expect(a.text).toBe(
          '<?xml version="1.0" encoding="UTF-8"?><reports><report id="1"><title>A</title></report><report id="2"><title>B</title></report></reports>',
        ),
    ],
  ])('answers %s', async (_, path, headers, contentType, check) => {
    const answer = await get(path, headers);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe(contentType);
    check(answer);
  });

  it('answers multipart/form-data with a boundary in its Content-Type and a part per field', async () => {
    const answer = await get('/upload-form');
    expect(answer.headers['content-type']).toMatch(/^multipart\/form-data; boundary=\S+$/);
    const form = await formOf(answer);
    expect([form.get('name'), form.get('count'), JSON.parse(String(form.get('meta')))]).toEqual([
      'fern',
      '3',
      { a: 1 },
    ]);
  });

  it('answers a declared */* in the accepted type it covers', async () => {
    const answer = await get('/anything', { accept: 'text/html' });
    expect(answer.headers['content-type']).toBe('text/html');
    expect(JSON.parse(answer.text!)).toMatchObject({ ok: expect.any(Boolean) });
  });

  it('refuses an Accept that allows none of the declared types with 406 naming them', async () => {
    const answer = await get('/report', { accept: 'image/png' });
    expect(answer.status).toBe(406);
    expect(answer.json).toMatchObject({
      error: 406,
      message: expect.stringContaining('application/json, application/xml, text/plain, text/csv'),
    });
  });

  it('answers in the preferred declared type instead of an undeclared 406 with --declared-only', async () => {
    const answer = await get('/report', { accept: 'image/png' }, { declaredOnly: true });
    expect([answer.status, answer.headers['content-type']]).toEqual([200, 'application/json']);
  });

  it.each([
    [
      'a named example as XML',
      { prefer: 'example=default', accept: 'application/xml' },
      /^<\?xml version="1.0" encoding="UTF-8"\?><report id="7">/,
    ],
    [
      'a generated body as XML',
      { prefer: 'dynamic=true', accept: 'application/xml' },
      /^<\?xml version="1.0" encoding="UTF-8"\?><report id="-?\d+"><title>/,
    ],
    ['a generated text body', { prefer: 'dynamic=true', accept: 'text/plain' }, /^[\s\S]*$/],
  ])('forces %s', async (_, headers, body) => {
    const answer = await get('/report', headers);
    expect(answer.status).toBe(200);
    expect(answer.text).toMatch(body);
  });

  it('forces a picture with Prefer: code=200 and dynamic=true alike', async () => {
    for (const prefer of ['code=200', 'dynamic=true'])
      expect(isValidPng((await get('/photo', { prefer })).bytes!)).toBe(true);
  });

  it.each([
    ['a forced 404 declared without content', 'GET', '/report', { prefer: 'code=404' }, 404],
    ['a 204', 'DELETE', '/quiet', {}, 204],
  ])('sends no body and no Content-Type for %s', async (_, method, path, headers, status) => {
    const answer = await send(await engineFor(), {
      method,
      path,
      headers: { authorization: undefined, 'content-type': undefined, ...headers },
    });
    expect([answer.status, answer.text, answer.headers['content-type']]).toEqual([status, undefined, undefined]);
  });
});
