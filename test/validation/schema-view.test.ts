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
