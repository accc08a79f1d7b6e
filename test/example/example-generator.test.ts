import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createExampleGenerator, type ExampleGenerator } from '../../src/example/example-generator.ts';
import { generateOne } from '../../src/example/index.ts';
import { stringifyJson, type JsonValue } from '../../src/json/exact-json.ts';
import { INT64_MAX, INT64_MIN } from '../../src/json/int64.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { type LoadedSpec } from '../../src/document/loaded-spec.ts';
import { resolveTarget } from '../../src/document/resolve-target.ts';
import { createValidators } from '../../src/validation/validator.ts';
import { tempDir } from '../helpers/temp-dir.ts';

let spec: LoadedSpec;
let generator: ExampleGenerator;

beforeAll(async () => {
  spec = await loadSpec();
  generator = createExampleGenerator(spec);
});

const texts = (name: string, seed: number, count: number) =>
  generator.examples(resolveTarget(spec, name), { seed, count }).map((value) => stringifyJson(value));

describe('example generator', () => {
  it.each(['NewPlant', 'createPlant', 'Plant', 'Error'])(
    'gives byte-identical %s examples for the same seed',
    (name) => {
      expect(texts(name, 42, 50)).toEqual(
        createExampleGenerator(spec)
          .examples(resolveTarget(spec, name), { seed: 42, count: 50 })
          .map((v) => stringifyJson(v)),
      );
    },
  );

  it.each([
    [1, 2],
    [7, 8],
    [0, 2 ** 40],
  ])('gives different examples for seeds %d and %d', (a, b) => {
    const first = texts('NewPlant', a, 20);
    const second = new Set(texts('NewPlant', b, 20));
    expect(first.filter((text) => second.has(text))).toEqual([]);
  });

  it('makes count examples that are all distinct', () => {
    const examples = texts('NewPlant', 3, 5000);
    expect(new Set(examples).size).toBe(5000);
  });

  it('repeats values only when the schema allows no more (a boolean has two)', async () => {
    const dir = tempDir('plantstore-example-');
    const file = join(dir, 'flags.yaml');
    writeFileSync(
      file,
      'openapi: 3.1.0\ninfo: { title: t, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n    Flag: { type: boolean }\n',
    );
    const flags = await loadSpec(file);
    const values = createExampleGenerator(flags).examples(resolveTarget(flags, 'Flag'), { seed: 1, count: 5 });
    expect(new Set(values).size).toBe(2);
    expect(values).toHaveLength(5);
  });

  it('draws a format: url string as an absolute URL the validator takes (json-schema-faker does not know url)', async () => {
    const file = join(tempDir('plantstore-example-'), 'links.yaml');
    writeFileSync(
      file,
      'openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths: {}\ncomponents:\n  schemas:\n' +
        '    Link: { type: object, required: [url], properties: { url: { type: string, format: url } } }\n',
    );
    const links = await loadSpec(file);
    const target = resolveTarget(links, 'Link');
    const check = createValidators(links).at(target.pointer);
    const values = createExampleGenerator(links).examples(target, { seed: 3, count: 20 });
    expect(values.filter((value) => !check(value).ok)).toEqual([]);
  });

  it.each([
    ['NewPlant', 10_000],
    ['createPlant', 2_000],
    ['Plant', 2_000],
    ['Error', 2_000],
  ])('gives %s examples that all pass the shared validator (%d of them)', (name, count) => {
    const target = resolveTarget(spec, name);
    const check = createValidators(spec).at(target.pointer);
    const failures = generator.examples(target, { seed: 11, count }).filter((value) => !check(value).ok);
    expect(failures).toEqual([]);
  });

  it('spreads int64 ids over the whole range, exact, both extremes included', () => {
    const ids = generator
      .examples(resolveTarget(spec, 'NewPlant'), { seed: 5, count: 2000 })
      .map((value) => (value as { id: number | bigint }).id);
    const exact = ids.map((id) => BigInt(id));
    expect(exact.filter((id) => id > 2n ** 53n || id < -(2n ** 53n)).length).toBeGreaterThan(1000);
    expect(exact).toContain(INT64_MAX);
    expect(exact).toContain(INT64_MIN);
    expect(exact.some((id) => id > 0n) && exact.some((id) => id < 0n)).toBe(true);
    // A JS number past 2^53 would be inexact: those must be bigints.
    expect(ids.filter((id) => typeof id === 'number' && !Number.isSafeInteger(id))).toEqual([]);
  });

  it('writes int64 ids as plain integer literals: no exponent, no quotes, no rounding', () => {
    for (const text of texts('NewPlant', 9, 2000)) {
      expect(text).toMatch(/"id":-?\d+[,}]/);
      expect(text).not.toMatch(/"id":-?\d+(\.\d+)?[eE]/);
    }
    expect(texts('NewPlant', 9, 2000).join('\n')).toContain('"id":9223372036854775807');
  });

  it('spreads int32 error codes over the whole int32 range', () => {
    const codes = generator
      .examples(resolveTarget(spec, 'Error'), { seed: 2, count: 1000 })
      .map((value) => (value as { error: number }).error);
    expect(codes.every((code) => Number.isInteger(code) && code >= -(2 ** 31) && code <= 2 ** 31 - 1)).toBe(true);
    expect(codes.filter((code) => Math.abs(code) > 1_000_000).length).toBeGreaterThan(500);
    expect(codes).toContain(2 ** 31 - 1);
  });

  it('adds no property the schema does not declare', () => {
    const declared = new Set(['id', 'name', 'tag']);
    const keys = generator
      .examples(resolveTarget(spec, 'NewPlant'), { seed: 4, count: 1000 })
      .flatMap((value) => Object.keys(value as object));
    expect(keys.filter((key) => !declared.has(key))).toEqual([]);
  });

  it('generates one response body per seed, the same for the same seed', () => {
    const pointer = '#/paths/~1plants/post/responses/200/content/application~1json/schema';
    const bodies: JsonValue[] = [
      generateOne(spec, pointer, 7),
      generateOne(spec, pointer, 7),
      generateOne(spec, pointer, 8),
    ];
    expect(bodies[0]).toEqual(bodies[1]);
    expect(bodies[0]).not.toEqual(bodies[2]);
    expect(createValidators(spec).at(pointer)(bodies[0]).ok).toBe(true);
  });

  it('follows circular $refs that dereferencing leaves in place', async () => {
    const dir = tempDir('plantstore-example-');
    const file = join(dir, 'tree.yaml');
    writeFileSync(
      file,
      [
        'openapi: 3.1.0',
        'info: { title: t, version: "1" }',
        'paths: {}',
        'components:',
        '  schemas:',
        '    Node:',
        '      type: object',
        '      required: [id]',
        '      properties:',
        '        id: { type: integer, format: int64 }',
        '        children: { type: array, maxItems: 2, items: { $ref: "#/components/schemas/Node" } }',
        '',
      ].join('\n'),
    );
    const tree = await loadSpec(file);
    const target = resolveTarget(tree, 'Node');
    const check = createValidators(tree).at(target.pointer);
    const values = createExampleGenerator(tree).examples(target, { seed: 1, count: 200 });
    expect(values.filter((value) => !check(value).ok)).toEqual([]);
  });
});
