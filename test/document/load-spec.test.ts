import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadError } from '../helpers/load-error.ts';
import { loadSpec } from '../../src/document/load-spec.ts';

const doc = (name: string) => resolve('test/documents', name);

describe('loading a document', () => {
  it('follows $refs across files', async () => {
    const spec = await loadSpec(doc('split/main.yaml'));
    const schema = (spec.document.paths as any)['/trees'].post.requestBody.content['application/json'].schema;
    expect(schema.allOf[0].required).toEqual(['species']);
  });

  it('reads an OpenAPI 3.0 document written in JSON', async () => {
    const spec = await loadSpec(doc('plant-store-3.0.json'));
    expect(spec.dialect).toBe('3.0');
  });

  it.each([
    [
      'invalid-bad-ref.yaml',
      /invalid-bad-ref\.yaml: #\/paths\/~1plants\/post\/responses\/200\/content\/application~1json\/schema: \$ref "#\/components\/schemas\/Missing" resolves to nothing/,
      /Missing/,
    ],
    ['invalid-yaml.yaml', /invalid-yaml\.yaml/, /indentation|YAML|parsing/i],
    ['no-such-file.yaml', /no-such-file\.yaml: no such file/, /./],
  ])('rejects %s naming the file, the place and the reason', async (name, head, reason) => {
    const error = await loadError(doc(name));
    expect(error.code).toMatch(/^SPEC_/);
    expect(error.message).toMatch(head);
    expect([error.message, ...error.details].join('\n')).toMatch(reason);
  });
});
