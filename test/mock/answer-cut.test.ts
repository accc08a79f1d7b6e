// Answers are cut to what the response schema declares and checked against it, with exact int64:
// the per-schema picker and the "plain" shortcut (no bigint, no bigint walk) must never change an answer.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadSpec } from '../../src/document/load-spec.ts';
import { declaredPicker, pickDeclared } from '../../src/document/schema-shape.ts';
import { createPlant, plantEngine } from '../helpers/engine.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** The built-in document, with the create answering the NewPlant it was sent (id included). */
async function echoingSpec() {
  const document = parse(readFileSync('openapi/plant-store.yaml', 'utf8'));
  document.paths['/plants'].post.responses['200'].content['application/json'].schema = {
    $ref: '#/components/schemas/NewPlant',
  };
  const file = join(tempDir('plantstore-echo-'), 'echo.yaml');
  writeFileSync(file, stringify(document));
  return loadSpec(file);
}

describe('a create answer that carries the id', () => {
  it.each([['9007199254740993'], ['9223372036854775807'], ['-9223372036854775808'], ['42']])(
    'writes id %s exactly as sent',
    async (id) => {
      const engine = await plantEngine({}, await echoingSpec());
      const answer = await createPlant(engine, `{"id":${id},"name":"Fern","tag":"green"}`);
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(`{"name":"Fern","tag":"green","id":${id}}`); // in the schema's order: Plant's, then NewPlant's own
    },
  );

  it('leaves out what the schema does not declare, at any depth the schema reaches', async () => {
    const engine = await plantEngine({}, await echoingSpec());
    const answer = await createPlant(engine, '{"id":1,"name":"Fern","colour":"green"}');
    expect(answer.text).toBe('{"name":"Fern","id":1}');
  });
});

describe('declaredPicker', () => {
  const document = {
    components: {
      schemas: {
        Node: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
          },
        },
      },
    },
  };
  const node = { $ref: '#/components/schemas/Node' };

  it('follows a circular schema, cutting every level', () => {
    const value = { name: 'a', x: 1, children: [{ name: 'b', y: 2, children: [{ name: 'c', z: 3 }] }] };
    expect(pickDeclared(value, node, document)).toEqual({
      name: 'a',
      children: [{ name: 'b', children: [{ name: 'c' }] }],
    });
    expect(declaredPicker(node, document)).toBe(declaredPicker(document.components.schemas.Node, document)); // built once per schema
  });

  it('keeps scalars, free-form objects and data deeper than 64 levels as they are', () => {
    expect(pickDeclared(5, node, document)).toBe(5);
    const free = { any: { thing: 1 } };
    expect(pickDeclared(free, { type: 'object' }, document)).toBe(free);
    let deep: Record<string, unknown> = { name: 'leaf', extra: true };
    for (let i = 0; i < 70; i++) deep = { name: `n${i}`, extra: i, children: [deep] };
    let cut = pickDeclared(deep, node, document) as Record<string, unknown>;
    let level = 0;
    while (Array.isArray(cut.children)) {
      expect('extra' in cut).toBe(level > 32); // a node is two levels (object, array) down from its parent
      cut = (cut.children as Record<string, unknown>[])[0];
      level++;
    }
  });
});
