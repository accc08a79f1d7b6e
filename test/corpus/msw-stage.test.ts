// The corpus harness's MSW stage (scripts/corpus/msw-stage.ts) on tiny documents: the handlers'
// answers to the probes agree with a fresh engine's, a redirect is compared as answered, and a
// request the handlers leave alone is a disagreement that names its URL.
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../scripts/corpus/document.ts';
import { runMswStage } from '../../scripts/corpus/msw-stage.ts';
import { buildProbe } from '../../scripts/corpus/probe-request.ts';
import { createSchemaJudge } from '../../scripts/corpus/schema-judge.ts';
import { writeDocument } from './write-document.ts';

const DOC = {
  openapi: '3.0.3',
  info: { title: 'MSW stage', version: '1' },
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
      post: {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
        },
        responses: {
          '201': {
            description: 'created',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } },
          },
        },
      },
    },
    // GitHub's "download an artifact": a 302 whose Location is not required. msw 2's interceptor
    // follows a redirect without Location to `<path>/null`, forever, unless the client asks for
    // `redirect: 'manual'`; the stage compares the answer itself.
    '/files/{name}': {
      get: {
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '302': { description: 'found' } },
      },
    },
  },
  components: {
    schemas: {
      Pet: {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'integer' }, name: { type: 'string' } },
      },
    },
  },
};

async function stage(doc: object, mutate?: (target: string) => string) {
  const file = writeDocument(doc);
  const loaded = await loadDocument(file);
  const requests = createSchemaJudge(loaded.doc, loaded.version, 'request');
  const probes = loaded.operations.map((op) => {
    const request = buildProbe(loaded, requests, op);
    return {
      label: `${op.method.toUpperCase()} ${op.path}`,
      request: { ...request, target: mutate ? mutate(request.target) : request.target },
    };
  });
  return runMswStage(file, loaded, probes, createSchemaJudge(loaded.doc, loaded.version, 'response'));
}

describe('the corpus MSW stage', () => {
  it('finds the handlers agreeing with the engine on every probe, a redirect without Location included', async () => {
    const result = await stage(DOC);
    expect(result).toMatchObject({ probed: 3, agreed: 3, disagreements: [] });
    expect(result.error).toBeUndefined();
  });

  it('counts a request no handler matched as a disagreement naming its URL', async () => {
    const result = await stage(DOC, (target) => (target.startsWith('/files/') ? `/elsewhere${target}` : target));
    expect(result.agreed).toBe(2);
    expect(result.disagreements).toEqual([
      {
        operation: 'GET /files/{name}',
        engineStatus: 404,
        mswStatus: 599,
        reason: expect.stringMatching(/^unhandled: http:\/\/corpus\.test\/elsewhere\/files\//),
      },
    ]);
  });
});
