// The large-document benchmark sends every server the same valid GET requests, read from any document.
import { describe, expect, it } from 'vitest';
import {
  getRequests,
  operationCount,
  probeRequest,
  sampleRequests,
  sampleValue,
} from '../../bench/lib/document-requests.ts';

const document = {
  openapi: '3.0.3',
  security: [{ oauth: [] }],
  components: {
    securitySchemes: {
      basic: { type: 'http', scheme: 'basic' },
      oauth: { type: 'oauth2', flows: {} },
      key: { type: 'apiKey', in: 'query', name: 'api_key' },
      mutual: { type: 'mutualTLS' },
    },
    parameters: { owner: { name: 'owner', in: 'path', required: true, schema: { type: 'string' } } },
    schemas: { Kind: { type: 'string', enum: ['fern', 'moss'] } },
  },
  paths: {
    '/repos/{owner}/{repo}': {
      parameters: [{ $ref: '#/components/parameters/owner' }],
      get: { parameters: [{ name: 'repo', in: 'path', required: true, schema: { type: 'integer', minimum: 5 } }] },
      delete: {},
    },
    '/plants': {
      get: {
        security: [{ basic: [] }],
        parameters: [{ name: 'kind', in: 'query', required: true, schema: { $ref: '#/components/schemas/Kind' } }],
      },
    },
    '/meta': { get: { security: [{ mutual: [] }, { key: [] }] } },
    '/search': { get: { parameters: [{ name: 'filter', in: 'query', required: true, schema: { type: 'object' } }] } },
    '/tls-only': { get: { security: [{ mutual: [] }] } },
    '/open': { get: { security: [{}] }, post: {} },
  },
};

describe('getRequests', () => {
  const requests = getRequests(document);
  const byOperation = Object.fromEntries(requests.map((r) => [r.operation, r]));

  it.each([
    [
      'GET /repos/{owner}/{repo}',
      '/repos/bench/5',
      'bearer from the global oauth2 requirement, path parameters from the path item and the operation',
    ],
    ['GET /plants', '/plants?kind=fern', 'basic credentials, an enum query parameter behind a $ref'],
    ['GET /meta', '/meta?api_key=bench-key', 'the first security alternative it can satisfy (an apiKey in the query)'],
    ['GET /open', '/open', 'no credentials for an empty requirement'],
  ])('sends %s as %s (%s)', (operation, target) => {
    expect(byOperation[operation]?.target).toBe(target);
  });

  it('puts the credentials in headers', () => {
    expect(byOperation['GET /repos/{owner}/{repo}'].headers.authorization).toBe('Bearer bench-token');
    expect(byOperation['GET /plants'].headers.authorization).toMatch(/^Basic /);
  });

  it('leaves out operations whose required parts it cannot make (an object query parameter, mutual TLS only)', () => {
    expect(byOperation['GET /search']).toBeUndefined();
    expect(byOperation['GET /tls-only']).toBeUndefined();
  });

  it('probes with the first GET that needs nothing in its path or query (not even a key)', () => {
    expect(probeRequest(requests).operation).toBe('GET /open');
  });
});

describe('sampleRequests', () => {
  const many = Array.from({ length: 50 }, (_, i) => ({
    operation: `GET /r${i}`,
    method: 'GET',
    target: `/r${i}`,
    headers: {},
  }));

  it('chooses the same operations for the same seed, others for another', () => {
    const first = sampleRequests(many, 10, 1).map((r) => r.operation);
    expect(sampleRequests(many, 10, 1).map((r) => r.operation)).toEqual(first);
    expect(sampleRequests(many, 10, 2).map((r) => r.operation)).not.toEqual(first);
  });

  it('chooses different operations, never the probe, and all of them when there are fewer', () => {
    const chosen = sampleRequests(many, 49, 7, many[3]);
    expect(new Set(chosen.map((r) => r.operation)).size).toBe(49);
    expect(chosen.map((r) => r.operation)).not.toContain('GET /r3');
    expect(sampleRequests(many.slice(0, 3), 10, 1)).toHaveLength(3);
  });
});

describe('sampleValue and operationCount', () => {
  it.each([
    [{ type: 'integer' }, 1],
    [{ type: 'integer', minimum: 10 }, 10],
    [{ type: 'string', format: 'date' }, '2024-01-01'],
    [{ type: ['null', 'boolean'] }, true],
    [{ anyOf: [{ type: 'string', enum: ['a'] }, { type: 'integer' }] }, 'a'],
    [{ type: 'array', items: { type: 'string' } }, undefined],
  ])('makes %j into %j', (schema, value) => {
    expect(sampleValue(document, schema)).toEqual(value);
  });

  it('counts every method of every path', () => {
    expect(operationCount(document)).toBe(8);
  });
});
