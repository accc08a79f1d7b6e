// A document of 50 operations for the shard tests: ten collections, each with list (paged),
// create, read, replace and delete, with integer, uuid and string keys, enums and formats.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

const NAMES = ['plants', 'trees', 'seeds', 'pots', 'tools', 'orders', 'shelves', 'labels', 'gardens', 'growers'];
const KEYS = [
  { type: 'integer', format: 'int64', minimum: 1 },
  { type: 'string', format: 'uuid' },
  { type: 'string', pattern: '^[a-z0-9]{1,16}$', maxLength: 16 },
];

export function fiftyOperations(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {
    Error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { type: 'string' } },
    },
  };
  const error = {
    description: 'error',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
  NAMES.forEach((name, i) => {
    const Thing = name[0].toUpperCase() + name.slice(1, -1);
    schemas[Thing] = {
      type: 'object',
      required: ['id', 'name'],
      properties: {
        id: KEYS[i % KEYS.length],
        name: { type: 'string', minLength: 1, maxLength: 40 },
        kind: { type: 'string', enum: ['small', 'large', 'rare'] },
        ...(i % 2 === 0 && { count: { type: 'integer', minimum: 0, maximum: 1000 } }),
        ...(i % 3 === 0 && { since: { type: 'string', format: 'date' } }),
      },
    };
    const one = { content: { 'application/json': { schema: { $ref: `#/components/schemas/${Thing}` } } } };
    const id = { name: 'id', in: 'path', required: true, schema: KEYS[i % KEYS.length] };
    paths[`/${name}`] = {
      get: {
        operationId: `list${Thing}s`,
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
          { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } },
        ],
        responses: {
          '200': {
            description: 'a page',
            content: {
              'application/json': { schema: { type: 'array', items: { $ref: `#/components/schemas/${Thing}` } } },
            },
          },
          default: error,
        },
      },
      post: {
        operationId: `create${Thing}`,
        requestBody: { required: true, ...one },
        responses: { '201': { description: 'created', ...one }, '400': error, '409': error },
      },
    };
    paths[`/${name}/{id}`] = {
      parameters: [id],
      get: { operationId: `get${Thing}`, responses: { '200': { description: 'found', ...one }, '404': error } },
      put: {
        operationId: `replace${Thing}`,
        requestBody: { required: true, ...one },
        responses: { '200': { description: 'replaced', ...one }, '400': error, '404': error },
      },
      delete: { operationId: `delete${Thing}`, responses: { '204': { description: 'deleted' }, '404': error } },
    };
  });
  return { openapi: '3.1.0', info: { title: 'Fifty operations', version: '1.0.0' }, paths, components: { schemas } };
}

/** Writes the document as YAML into `dir` and returns its path. */
export function writeFiftyOperations(dir: string, name = 'fifty.yaml'): string {
  const file = join(dir, name);
  writeFileSync(file, stringify(fiftyOperations()));
  return file;
}
