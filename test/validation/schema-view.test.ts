// Ajv's view of a document (schema-view.ts) on names people give properties: a property named
// `properties` (every Azure resource has one) is a schema like any other.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createValidators } from '../../src/validation/validator.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe("the validator's view of a property named properties", () => {
  it('lets a request leave out a readOnly property that it requires, and an answer not', async () => {
    const file = join(tempDir('view-'), 'openapi.json');
    const plan = {
      type: 'object',
      properties: {
        properties: {
          type: 'object',
          required: ['status'],
          properties: { status: { type: 'string', readOnly: true }, name: { type: 'string' } },
        },
      },
    };
    const json = (schema: object) => ({ content: { 'application/json': { schema } } });
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Plans', version: '1' },
        paths: {
          '/plans': {
            put: { requestBody: json(plan), responses: { '200': { description: 'ok', ...json(plan) } } },
          },
        },
      }),
    );
    const validators = createValidators(await loadSpec(file));
    const body = { properties: { name: 'basic' } };
    expect(validators.at('#/paths/~1plans/put/requestBody/content/application~1json/schema')(body).ok).toBe(true);
    expect(validators.at('#/paths/~1plans/put/responses/200/content/application~1json/schema')(body).ok).toBe(false);
  });
});

// A multi-file document bundles a schema used twice as a $ref to its first place; when that place is inside a
// discriminated oneOf, which the validator judges as an anyOf, the $ref must follow it there (Redocly's cafe menu).
describe("the validator's view of a schema reached through a discriminated oneOf", () => {
  it('validates both uses, and each branch by its own pointer', async () => {
    const dir = tempDir('view-');
    const write = (name: string, value: object) => writeFileSync(join(dir, name), JSON.stringify(value));
    write('Base.json', {
      type: 'object',
      required: ['id', 'name'],
      properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } },
    });
    write('Drink.json', {
      allOf: [
        { type: 'object', properties: { kind: { const: 'drink' } }, required: ['kind'] },
        { $ref: './Base.json' },
      ],
    });
    write('Item.json', { discriminator: { propertyName: 'kind' }, oneOf: [{ $ref: './Drink.json' }] });
    const content = { 'application/json': { schema: { $ref: './Item.json' } } };
    write('openapi.json', {
      openapi: '3.1.0',
      info: { title: 'Menu', version: '1' },
      paths: {
        '/menu': {
          post: { requestBody: { content }, responses: { '201': { description: 'made', content } } },
        },
      },
    });
    const spec = await loadSpec(join(dir, 'openapi.json'));
    const validators = createValidators(spec);
    const request = '#/paths/~1menu/post/requestBody/content/application~1json/schema';
    const answer = '#/paths/~1menu/post/responses/201/content/application~1json/schema';
    expect(validators.at(request)({ kind: 'drink', name: 'Tea' }).ok).toBe(true);
    expect(validators.at(request)(42).ok).toBe(false);
    expect(validators.at(answer)({ kind: 'drink', name: 'Tea' }).ok).toBe(false); // the answer has no id
    expect(validators.at(answer)({ kind: 'drink', name: 'Tea', id: 'd1' }).ok).toBe(true);
    expect(validators.at(`${answer}/oneOf/0`)({ kind: 'drink', name: 'Tea' }).ok).toBe(false);
  });
});
