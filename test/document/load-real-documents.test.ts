// What real published documents do, each in a small document written for the test: they load,
// with a warning where they break a rule the toolkit can work around.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadError } from '../helpers/load-error.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createValidators } from '../../src/validation/validator.ts';

const doc = (name: string) => resolve('test/documents', name);

describe('loading real-world documents', () => {
  it('loads the Plant Store as Mintlify publishes it (a license without identifier), with no warning', async () => {
    const spec = await loadSpec(doc('plant-store-published.json'));
    expect(spec.dialect).toBe('3.1');
    expect(spec.warnings).toEqual([]);
    expect(Object.keys(spec.document.paths ?? {})).toEqual(['/plants', '/plants/{id}']);
  });

  it('accepts nullable without type, examples that carry the same id, and a property named example', async () => {
    const spec = await loadSpec(doc('loading/nullable-and-examples.yaml'));
    const check = createValidators(spec).at('#/components/schemas/Account');
    expect(check({ id: 'a', name: 'n', password: 'p', metadata: null }).ok).toBe(true);
    expect(check({ id: 'a', name: 'n', password: 'p', metadata: { any: 'thing' }, example: 'x' }).ok).toBe(true);
    expect(check({ id: 'a', name: 'n', password: 'p', example: 7 }).ok).toBe(false);
  });

  it('warns about a duplicate enum item and a duplicate required name instead of refusing', async () => {
    const spec = await loadSpec(doc('loading/nullable-and-examples.yaml'));
    expect(spec.warnings.join('\n')).toMatch(/duplicate items/);
  });

  it('refuses those flaws under strict, listing them', async () => {
    const error = await loadError(doc('loading/nullable-and-examples.yaml'), { strict: true });
    expect(error.code).toBe('SPEC_INVALID');
    expect(error.message).toMatch(/refused under --strict/);
    expect(error.details.join('\n')).toMatch(/duplicate items/);
  });

  it('does not require readOnly properties in requests, nor writeOnly ones in answers', async () => {
    const spec = await loadSpec(doc('loading/nullable-and-examples.yaml'));
    const validators = createValidators(spec);
    const request = validators.at('#/paths/~1accounts/post/requestBody/content/application~1json/schema');
    const response = validators.at('#/paths/~1accounts/post/responses/201/content/application~1json/schema');
    expect(request({ name: 'n', password: 'p' }).ok).toBe(true);
    expect(request({ id: 'a', name: 'n' })).toMatchObject({
      ok: false,
      issues: [{ pointer: '/password', code: 'required' }],
    });
    expect(response({ id: 'a', name: 'n' }).ok).toBe(true);
    expect(response({ name: 'n' })).toMatchObject({ ok: false, issues: [{ pointer: '/id', code: 'required' }] });
  });

  it('loads a 3.1 document that uses $recursiveAnchor and a scheme written Bearer', async () => {
    const spec = await loadSpec(doc('loading/recursive-anchor.yaml'));
    const check = createValidators(spec).at('#/components/schemas/Node');
    expect(check({ name: 'root', children: [{ name: 'leaf', children: [] }] }).ok).toBe(true);
    expect(check({ name: 'root', children: [{ children: [] }] }).ok).toBe(false);
  });

  it('loads several files with an operation given by $ref and files that refer to each other in a circle', async () => {
    const spec = await loadSpec(doc('loading/multi/main.yaml'));
    const operation = (spec.document.paths as any)['/folders'].post;
    expect(operation.operationId).toBe('createFolder');
    const check = createValidators(spec).at('#/paths/~1folders/post/requestBody/content/application~1json/schema');
    expect(check({ name: 'root', files: [{ name: 'a.txt', parent: { name: 'root' } }] }).ok).toBe(true);
    expect(check({ name: 'root', files: [{ name: 'a.txt', parent: { files: [] } }] })).toMatchObject({
      ok: false,
      issues: [{ pointer: '/files/0/parent/name' }],
    });
  });

  it('never reaches the network for a remote $ref, and names the flag that allows it', async () => {
    const error = await loadError(doc('loading/remote-ref.yaml'));
    expect(error.code).toBe('SPEC_REMOTE_REF');
    expect(error.message).toMatch(/https:\/\/schemas\.example\.com\/thing\.json/);
    expect(error.details.join(' ')).toMatch(/--remote-refs/);
  });

  it('reads a Swagger 2.0 document, converted to OpenAPI 3.0', async () => {
    const spec = await loadSpec(doc('loading/swagger-2.yaml'));
    expect(spec.dialect).toBe('3.0');
    expect(spec.warnings.join('\n')).toMatch(/Swagger 2\.0/);
    const body = (spec.document.paths as any)['/pets'].post.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['id', 'name']);
  });

  it('loads a schema its dialect does not allow with a warning naming the place, and refuses it under strict', async () => {
    const spec = await loadSpec(doc('invalid-schema-type.yaml'));
    expect(spec.warnings.join('\n')).toMatch(
      /#\/paths\/~1plants\/post\/requestBody\/content\/application~1json\/schema: .*type/,
    );
    const error = await loadError(doc('invalid-schema-type.yaml'), { strict: true });
    expect(error.details.join('\n')).toMatch(/type/);
  });
});
