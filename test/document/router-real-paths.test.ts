// Paths real documents declare: AWS's literal query-like paths, Google's custom methods.
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/document/operations.ts';
import { createRouter } from '../../src/document/router.ts';

const op = (method: string, path: string) =>
  ({ id: `${method} ${path}`, method, path, pointer: '', parameters: [], responses: [], security: [] }) as Operation;
const router = createRouter([
  op('POST', '/#X-Amz-Target=Neptune.DescribeDBClusters'),
  op('GET', '/v1/{name}'),
  op('POST', '/v1/{name}:cancel'),
  op('GET', '/plants'),
  op('GET', '/files/{id} copy'),
  op('GET', '/test path > with | unsafe % characters'),
]);
const routed = (method: string, path: string) => {
  const result = router(method, path);
  return result.kind === 'operation' ? `${result.operation.id} ${JSON.stringify(result.params)}` : result.kind;
};

describe('routing real-world paths', () => {
  it.each([
    ['POST', '/%23X-Amz-Target=Neptune.DescribeDBClusters', 'POST /#X-Amz-Target=Neptune.DescribeDBClusters {}'],
    ['POST', '/v1/operations%2F42:cancel', 'POST /v1/{name}:cancel {"name":"operations/42"}'],
    ['POST', '/v1/op-7:cancel', 'POST /v1/{name}:cancel {"name":"op-7"}'],
    ['GET', '/v1/op-7', 'GET /v1/{name} {"name":"op-7"}'],
    ['GET', '/files/7%20copy', 'GET /files/{id} copy {"id":"7"}'],
    ['GET', '/%70lants', 'not-found'],
    [
      'GET',
      '/test%20path%20%3E%20with%20%7C%20unsafe%20%25%20characters',
      'GET /test path > with | unsafe % characters {}',
    ],
    ['DELETE', '/v1/op-7', 'method-not-allowed'],
  ])('%s %s routes to %s', (method, path, expected) => {
    expect(routed(method, path)).toBe(expected);
  });
});
