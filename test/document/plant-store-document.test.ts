import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { DEFAULT_SPEC_PATH } from '../../src/document/loaded-spec.ts';
import { listOperations } from '../../src/document/operations.ts';

describe('the built-in Plant Store document', () => {
  it('is a valid OpenAPI 3.1.0 document for swagger-parser', async () => {
    const api = (await SwaggerParser.validate(DEFAULT_SPEC_PATH)) as unknown as Record<string, any>;
    expect(api.openapi).toBe('3.1.0');
  });

  it('carries the title, version and license of the contract', async () => {
    const { document } = await loadSpec();
    expect(document.info).toMatchObject({ title: 'OpenAPI Plant Store', version: '1.0.0', license: { name: 'MIT' } });
  });

  it('applies the bearerAuth scheme globally', async () => {
    const { document } = await loadSpec();
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(document.components?.securitySchemes).toEqual({ bearerAuth: { type: 'http', scheme: 'bearer' } });
  });

  it('declares POST /plants as createPlant with exactly the 200 and 400 responses', async () => {
    const operations = listOperations(await loadSpec());
    expect(operations.map((op) => [op.method, op.path, op.id])).toEqual([['POST', '/plants', 'createPlant']]);
    expect(operations[0].responses.map((r) => r.status)).toEqual(['200', '400']);
    expect(operations[0].requestBody?.required).toBe(true);
  });

  it('defines NewPlant as Plant plus a required int64 id, through allOf', async () => {
    const raw = (await SwaggerParser.parse(DEFAULT_SPEC_PATH)) as unknown as Record<string, any>;
    const schemas = raw.components.schemas;
    expect(schemas.NewPlant.allOf[0]).toEqual({ $ref: '#/components/schemas/Plant' });
    expect(schemas.NewPlant.allOf[1]).toMatchObject({
      required: ['id'],
      properties: { id: { type: 'integer', format: 'int64' } },
    });
    expect(schemas.Plant.required).toEqual(['name']);
    expect(Object.keys(schemas.Plant.properties)).toEqual(['name', 'tag']);
    expect(schemas.Error).toMatchObject({
      required: ['error', 'message'],
      properties: { error: { type: 'integer', format: 'int32' }, message: { type: 'string' } },
    });
  });
});
