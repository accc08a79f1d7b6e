// Documents as people write them: what Prism reads past loads here too, with a warning naming the
// place; --strict refuses the same document.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadError } from '../helpers/load-error.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { send } from '../helpers/engine.ts';

const doc = (name: string) => resolve('test/documents/loading', name);

describe('lenient loading', () => {
  it.each([
    ['a missing info', /^#\/info: missing/m],
    ['a parameter without schema', /^#\/paths\/~1plants\/get\/parameters\/0: a parameter without `schema`/m],
    ['a response without description', /^#\/paths\/~1plants\/get\/responses\/200: a response without `description`/m],
    [
      'a description written inside content',
      /^#\/paths\/~1plants\/get\/responses\/200\/content\/description: "description" is not a media type object/m,
    ],
    [
      'example beside examples',
      /^#\/paths\/~1plants\/get\/responses\/200\/content\/application~1json: `example` beside `examples`/m,
    ],
    ['properties given by a $ref', /^#\/components\/schemas\/Plant\/properties: `properties` given by a \$ref/m],
    [
      'a pattern that is not a string',
      /^#\/components\/schemas\/PlantFields\/properties\/name\/pattern: a pattern that is not a string; read as "123"/m,
    ],
  ])('loads a document with %s, warning with its pointer', async (_flaw, warning) => {
    const spec = await loadSpec(doc('lenient.yaml'));
    expect(spec.warnings.join('\n')).toMatch(warning);
  });

  it('mocks the mended document: the examples of `examples`, properties read through the $ref', async () => {
    const engine = createMockEngine({ spec: await loadSpec(doc('lenient.yaml')) });
    const list = await send(engine, { method: 'GET', path: '/plants', headers: { prefer: 'example=two' } });
    expect(list.status).toBe(200);
    expect(list.json).toEqual([{ name: 'two' }]);
    const one = await send(engine, { method: 'GET', path: '/plants/7', headers: { prefer: 'dynamic=true' } });
    expect(one.status).toBe(200);
    expect(typeof (one.json as { name: unknown }).name).toBe('string');
  });

  it('loads an info without version, warning', async () => {
    const spec = await loadSpec(doc('no-version.yaml'));
    expect(spec.warnings.join('\n')).toMatch(/^#\/info\/version: missing/m);
  });

  it('refuses the same document under --strict, listing the places', async () => {
    const error = await loadError(doc('lenient.yaml'), { strict: true });
    expect(error.code).toBe('SPEC_INVALID');
    expect(error.details.join('\n')).toMatch(/#\/info: missing/);
  });
});

describe('path keys that carry a discriminator', () => {
  const engine = async () => createMockEngine({ spec: await loadSpec(doc('aws-target.yaml')) });

  it('warns that the key is routed on its discriminator, naming it', async () => {
    const spec = await loadSpec(doc('aws-target.yaml'));
    expect(spec.warnings.join('\n')).toMatch(/^#\/paths\/~1#X-Amz-Target=Catalog\.ListThings: .*X-Amz-Target header/m);
    expect(spec.warnings.join('\n')).toMatch(
      /^#\/paths\/~1rest\?method=flickr\.photos\.search: .*method value in the query/m,
    );
  });

  it('routes an AWS JSON request on its X-Amz-Target header', async () => {
    const mock = await engine();
    const headers = { 'x-amz-target': 'Catalog.ListThings', 'content-type': 'application/x-amz-json-1.1' };
    const listed = await send(mock, {
      method: 'POST',
      path: '/',
      headers: { ...headers, 'content-type': 'application/json' },
      json: {},
    });
    expect(listed.status).toBe(200);
    expect(Array.isArray((listed.json as { Things: unknown }).Things)).toBe(true);
    const deleted = await send(mock, {
      method: 'POST',
      path: '/',
      headers: { 'x-amz-target': 'Catalog.DeleteThing' },
      json: {},
    });
    expect(deleted.status).toBe(400); // DeleteThing's body requires Name: it was routed there
  });

  it('routes an AWS query request on Action, in the query or in a form body', async () => {
    const mock = await engine();
    expect(
      (await send(mock, { method: 'GET', path: '/', query: 'Action=DescribeThings&Version=1', headers: {} })).status,
    ).toBe(200);
    const form = await send(mock, {
      method: 'POST',
      path: '/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'Action=DescribeThings&Version=1',
    });
    expect(form.status).toBe(200);
    expect(form.text).toContain('Things');
  });

  it("routes Flickr's /rest?method=... on the query value, and answers 404 for a value no key names", async () => {
    const mock = await engine();
    expect(
      (await send(mock, { method: 'GET', path: '/rest', query: 'method=flickr.photos.search', headers: {} })).status,
    ).toBe(200);
    expect(
      (await send(mock, { method: 'GET', path: '/rest', query: 'method=flickr.people.find', headers: {} })).status,
    ).toBe(404);
  });

  it('still routes the key as written, percent-encoded', async () => {
    const mock = await engine();
    expect(
      (await send(mock, { method: 'POST', path: '/%23X-Amz-Target=Catalog.ListThings', headers: {}, json: {} })).status,
    ).toBe(200);
  });

  it('refuses a discriminated key under --strict', async () => {
    const error = await loadError(doc('aws-target.yaml'), { strict: true });
    expect(error.details.join('\n')).toMatch(/X-Amz-Target/);
  });
});
