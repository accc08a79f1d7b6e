// The corpus harness's independent judge (scripts/corpus/judge.ts) on a tiny OpenAPI 3.0 document:
// which answers to a valid request count as correct. The corpus run itself is not part of npm test.
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../scripts/corpus/document.ts';
import { judgeAnswer, type Answer } from '../../scripts/corpus/judge.ts';
import { createSchemaJudge } from '../../scripts/corpus/schema-judge.ts';
import { writeDocument } from './write-document.ts';

const DOC = {
  openapi: '3.0.3',
  info: { title: 'Judge', version: '1' },
  paths: {
    '/pets': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } },
          },
        },
      },
      post: { responses: { '2XX': { $ref: '#/components/responses/Created' }, '400': { description: 'bad' } } },
    },
    '/pets/{id}': {
      get: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: {
          '200': { $ref: '#/components/responses/Created' },
          default: { description: 'error', content: { 'application/problem+json': { schema: { type: 'object' } } } },
        },
      },
      delete: {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { '204': { description: 'gone' } },
      },
    },
  },
  components: {
    responses: {
      Created: {
        description: 'created',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
      },
    },
    schemas: {
      // Two examples with an "id" once made Ajv refuse the whole document as duplicate schema ids.
      Pet: {
        type: 'object',
        required: ['id', 'name', 'secret'],
        properties: {
          id: { type: 'integer', example: 1 },
          name: { type: 'string', nullable: true },
          secret: { type: 'string', writeOnly: true },
        },
        example: { id: 'v2.0' },
      },
      Other: { type: 'object', example: { id: 'v2.0' } },
    },
  },
};

const json = (status: number, body: unknown, type = 'application/json'): Answer => ({
  status,
  contentType: type,
  body: Buffer.from(JSON.stringify(body)),
});
const empty = (status: number): Answer => ({ status, contentType: undefined, body: Buffer.alloc(0) });

describe('the corpus judge', async () => {
  const loaded = await loadDocument(writeDocument(DOC));
  const judge = createSchemaJudge(loaded.doc, loaded.version, 'response');
  const op = (method: string, path: string) => loaded.operations.find((o) => o.method === method && o.path === path)!;

  it.each([
    [
      'accepts a declared status whose body matches the schema',
      'get',
      '/pets',
      json(200, [{ id: 1, name: 'Rex' }]),
      'ok',
    ],
    ['reads nullable as OpenAPI 3.0 means it', 'get', '/pets', json(200, [{ id: 1, name: null }]), 'ok'],
    [
      'lets a response leave out a required writeOnly property',
      'get',
      '/pets',
      json(200, [{ id: 1, name: 'Rex' }]),
      'ok',
    ],
    ['finds a body that breaks the schema', 'get', '/pets', json(200, [{ id: 'one', name: 'Rex' }]), 'body-invalid'],
    ['finds a media type the status does not declare', 'get', '/pets', json(200, [], 'text/plain'), 'content-type'],
    ['finds a status the operation does not declare', 'get', '/pets', json(201, []), 'status-undeclared'],
    ['matches a status class (2XX) through a $ref response', 'post', '/pets', json(201, { id: 7, name: 'Rex' }), 'ok'],
    ['counts a refusal of a valid request as a miss', 'post', '/pets', empty(400), 'refused'],
    ['counts any 5xx as a miss', 'post', '/pets', json(500, {}), 'server-error'],
    [
      'accepts a 404 for a resource the path names, matched by default',
      'get',
      '/pets/{id}',
      json(404, {}, 'application/problem+json'),
      'ok',
    ],
    ['finds an empty answer where a body is declared', 'get', '/pets/{id}', empty(200), 'body-missing'],
    ['accepts 204 without a body', 'delete', '/pets/{id}', empty(204), 'ok'],
    ['finds a body where the status declares no content', 'delete', '/pets/{id}', json(200, {}), 'status-undeclared'],
  ])('%s', (_name, method, path, answer, expected) => {
    const verdict = judgeAnswer(loaded.doc, judge, op(method, path), answer);
    expect(verdict.ok ? 'ok' : verdict.code).toBe(expected);
  });

  it('marks a 404 for a resource not held as such, so the totals can show how many there were', () => {
    expect(judgeAnswer(loaded.doc, judge, op('get', '/pets/{id}'), json(404, {}, 'application/problem+json'))).toEqual({
      ok: true,
      notFound: true,
    });
  });
});

describe('the corpus judge on documents as people write them', () => {
  it('judges a schema reached through a map entry named id (a components schema called id)', async () => {
    const loaded = await loadDocument(
      writeDocument({
        openapi: '3.0.3',
        info: { title: 'Ids', version: '1' },
        paths: {
          '/#X-Amz-Target=Svc.Get': {
            post: {
              responses: {
                '200': {
                  description: 'ok',
                  content: { 'application/json': { schema: { $ref: '#/components/schemas/Output' } } },
                },
              },
            },
          },
        },
        components: {
          schemas: {
            id: { type: 'string', minLength: 2 },
            Output: { type: 'object', properties: { id: { $ref: '#/components/schemas/id' } } },
          },
        },
      }),
    );
    const judge = createSchemaJudge(loaded.doc, loaded.version, 'response');
    const [op] = loaded.operations;
    expect(judgeAnswer(loaded.doc, judge, op, json(200, { id: 'p-1' }))).toEqual({ ok: true });
    expect(judgeAnswer(loaded.doc, judge, op, json(200, { id: 'p' }))).toMatchObject({
      ok: false,
      code: 'body-invalid',
    });
    expect(judge.validate('#/components/schemas/id', 'ab')).toEqual({ ok: true });
  });

  it.each([
    ['3.0.3', 'beside a $ref, where OpenAPI 3.0 reads the $ref alone', null, 'body-invalid'],
    ['3.1.0', 'in OpenAPI 3.1, where it is no keyword', null, 'body-invalid'],
    ['3.1.0', 'in OpenAPI 3.1, with a string', 'today', 'ok'],
  ])('reads nullable %s %s', async (openapi, _where, date, expected) => {
    const loaded = await loadDocument(
      writeDocument({
        openapi,
        info: { title: 'Nullable', version: '1' },
        paths: {
          '/feeds': {
            get: {
              responses: {
                '200': {
                  description: 'ok',
                  content: {
                    'application/json': {
                      schema: {
                        type: 'object',
                        properties: { start: { $ref: '#/components/schemas/Date', nullable: true } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
        components: { schemas: { Date: { type: 'string', ...(openapi === '3.1.0' ? { nullable: true } : {}) } } },
      }),
    );
    const judge = createSchemaJudge(loaded.doc, loaded.version, 'response');
    const verdict = judgeAnswer(loaded.doc, judge, loaded.operations[0], json(200, { start: date }));
    expect(verdict.ok ? 'ok' : verdict.code).toBe(expected);
  });

  it('holds a body to a required property that `properties` does not declare (OpenAPI 3.0)', async () => {
    const loaded = await loadDocument(
      writeDocument({
        openapi: '3.0.3',
        info: { title: 'Required', version: '1' },
        paths: {
          '/sections': {
            get: {
              responses: {
                '200': {
                  description: 'ok',
                  content: {
                    'application/json': {
                      schema: { type: 'object', required: ['project'], properties: { name: { type: 'string' } } },
                    },
                  },
                },
              },
            },
          },
        },
      }),
    );
    const judge = createSchemaJudge(loaded.doc, loaded.version, 'response');
    const [op] = loaded.operations;
    expect(judgeAnswer(loaded.doc, judge, op, json(200, { name: 'a' }))).toMatchObject({ code: 'body-invalid' });
    expect(judgeAnswer(loaded.doc, judge, op, json(200, { name: 'a', project: 1 }))).toEqual({ ok: true });
  });

  it.each([
    ['^[\\p{L}_]+$', 'étiquette', true],
    ['^[\\p{L}_]+$', 'p{L}', false],
    ['^[\\w\\_]+$', 'a_b', true],
  ])(
    'reads pattern %s as JavaScript clients do, with the u flag where it compiles so (%s)',
    async (pattern, value, ok) => {
      const loaded = await loadDocument(
        writeDocument({
          openapi: '3.0.3',
          info: { title: 'Patterns', version: '1' },
          paths: {},
          components: { schemas: { Tag: { type: 'string', pattern } } },
        }),
      );
      const judge = createSchemaJudge(loaded.doc, loaded.version, 'request');
      expect(judge.validate('#/components/schemas/Tag', value).ok).toBe(ok);
    },
  );

  it('accepts any success from an operation that declares no responses (OpenAPI 3.1 allows that)', async () => {
    const loaded = await loadDocument(
      writeDocument({ openapi: '3.1.0', info: { title: 'Bare', version: '1' }, paths: { '/users': { get: {} } } }),
    );
    const judge = createSchemaJudge(loaded.doc, loaded.version, 'response');
    const [op] = loaded.operations;
    expect(judgeAnswer(loaded.doc, judge, op, json(200, { any: 'thing' }))).toEqual({ ok: true });
    expect(judgeAnswer(loaded.doc, judge, op, empty(204))).toEqual({ ok: true });
    expect(judgeAnswer(loaded.doc, judge, op, empty(400))).toMatchObject({ ok: false, code: 'refused' });
  });
});
