// The owned dereferencer against json-schema-ref-parser's (circular: 'ignore'), on documents
// with shared, chained, sibling-carrying and circular references.
import { resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { dereferenceBundled } from '../../src/document/dereference.ts';
import { getAtPointer } from '../../src/document/json-pointer.ts';

// Where a cycle is, ref-parser leaves every reference into it a `$ref`, and this inlines up to
// the point where the cycle closes: the two agree once the references left are followed.
function expand(root: unknown, node: unknown = root, depth = 8): unknown {
  if (node === null || typeof node !== 'object') return node;
  if (depth === 0) return '…';
  if (!Array.isArray(node) && typeof (node as any).$ref === 'string')
    return expand(root, getAtPointer(root, (node as any).$ref), depth);
  if (Array.isArray(node)) return node.map((item) => expand(root, item, depth - 1));
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, expand(root, value, depth - 1)]));
}

const DOCUMENTS = [
  'plant-store-grown.yaml',
  'split/main.yaml',
  'loading/multi/main.yaml',
  'loading/recursive-anchor.yaml',
  'plant-store-published.json',
];

describe('dereferencing a bundled document', () => {
  it.each(DOCUMENTS)('gives what json-schema-ref-parser gives for %s', async (name) => {
    const bundled = JSON.stringify(await new SwaggerParser().bundle(resolve('test/documents', name)));
    const theirs = await new SwaggerParser().dereference(JSON.parse(bundled), { dereference: { circular: 'ignore' } });
    const mine = dereferenceBundled(JSON.parse(bundled));
    expect(() => JSON.stringify(mine)).not.toThrow(); // no object cycle
    expect(expand(mine)).toEqual(expand(theirs));
  });

  it('makes every reference to one target the same object, and leaves a reference back into itself', () => {
    const doc = dereferenceBundled({
      a: { $ref: '#/defs/Node' },
      b: { $ref: '#/defs/Node' },
      chained: { $ref: '#/defs/Alias' },
      described: { $ref: '#/defs/Leaf', description: 'mine' },
      defs: {
        Node: { type: 'object', properties: { next: { $ref: '#/defs/Node' } } },
        Alias: { $ref: '#/defs/Leaf' },
        Leaf: { type: 'string', description: 'theirs' },
      },
    }) as any;
    expect(doc.a).toBe(doc.b);
    expect(doc.a.properties.next).toEqual({ $ref: '#/defs/Node' });
    expect(doc.chained).toBe(doc.defs.Leaf);
    expect(doc.described).toEqual({ type: 'string', description: 'mine' });
    expect(doc.defs.Leaf.description).toBe('theirs');
  });

  it('leaves $ref keys inside examples and extensions alone', () => {
    const doc = dereferenceBundled({
      example: { $ref: '#/x' },
      'x-data': { $ref: '#/x' },
      x: { type: 'string' },
    }) as any;
    expect(doc.example).toEqual({ $ref: '#/x' });
    expect(doc['x-data']).toEqual({ $ref: '#/x' });
  });
  it('resolves Example Objects given by $ref in an examples map, leaving their values as written', () => {
    const doc = dereferenceBundled({
      content: {
        'application/json': {
          examples: {
            hours: { $ref: '#/components/examples/Hours' },
            chained: { $ref: '#/components/examples/Alias' },
            inline: { value: [1] },
          },
        },
      },
      schema: { type: 'array', examples: [[{ $ref: 'data' }]] },
      components: {
        examples: {
          Hours: { summary: 'hours', value: [{ date: '2023-09-11', note: { $ref: '#/not/a/reference' } }] },
          Alias: { $ref: '#/components/examples/Hours' },
        },
      },
    }) as any;
    const examples = doc.content['application/json'].examples;
    expect(examples.hours).toEqual({
      summary: 'hours',
      value: [{ date: '2023-09-11', note: { $ref: '#/not/a/reference' } }],
    });
    expect(examples.chained).toBe(examples.hours);
    expect(examples.inline).toEqual({ value: [1] });
    expect(doc.schema.examples).toEqual([[{ $ref: 'data' }]]);
  });
});
