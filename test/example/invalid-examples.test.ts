import { beforeAll, describe, expect, it } from 'vitest';
import { createExampleGenerator, type ExampleGenerator } from '../../src/example/example-generator.ts';
import { invalidExamples } from '../../src/example/index.ts';
import { parseJson, stringifyJson } from '../../src/json/exact-json.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { type LoadedSpec } from '../../src/document/loaded-spec.ts';
import { resolveTarget } from '../../src/document/resolve-target.ts';
import { createValidators } from '../../src/validation/validator.ts';

let spec: LoadedSpec;
let generator: ExampleGenerator;

beforeAll(async () => {
  spec = await loadSpec();
  generator = createExampleGenerator(spec);
});

describe('invalid examples', () => {
  it('lists one payload per rule of NewPlant, each with its description', () => {
    const descriptions = generator
      .invalidExamples(resolveTarget(spec, 'NewPlant'), { seed: 1 })
      .map((example) => example.description);
    expect(descriptions).toEqual([
      '/name: removed required field',
      '/id: removed required field',
      '(root): wrong type: string instead of object',
      '/name: wrong type: integer instead of string',
      '/tag: wrong type: integer instead of string',
      '/id: wrong type: string instead of integer',
      '/id: out of range: 9223372036854775808 is one past the int64 maximum',
      '/id: out of range: -9223372036854775809 is one below the int64 minimum',
      '(root): malformed JSON: the closing brace is missing',
    ]);
  });

  it.each(['NewPlant', 'createPlant', 'Plant', 'Error'])(
    'gives %s payloads that each fail the shared validator on exactly the broken rule',
    (name) => {
      const target = resolveTarget(spec, name);
      const check = createValidators(spec).at(target.pointer);
      for (const example of generator.invalidExamples(target, { seed: 3, count: 60 })) {
        if ('rawBody' in example) {
          expect(parseJson(example.rawBody).ok, example.description).toBe(false);
          continue;
        }
        const verdict = check(example.body);
        expect(verdict.ok, example.description).toBe(false);
        if (!verdict.ok) {
          expect(verdict.issues, example.description).toHaveLength(1);
          expect(verdict.issues[0].pointer).toBe(example.pointer);
        }
      }
    },
  );

  it.each([
    ['required', 'NewPlant'],
    ['type', 'NewPlant'],
    ['range', 'NewPlant'],
    ['malformed', 'NewPlant'],
    ['range', 'Error'],
  ])('covers the %s rule for %s', (rule, name) => {
    expect(generator.invalidExamples(resolveTarget(spec, name), { seed: 1 }).map((example) => example.rule)).toContain(
      rule,
    );
  });

  it('breaks int32 one past its bounds', () => {
    const bodies = generator
      .invalidExamples(resolveTarget(spec, 'Error'), { seed: 1 })
      .filter((example) => example.rule === 'range');
    expect(
      bodies.map((example) => ('body' in example ? (example.body as { error: number }).error : undefined)),
    ).toEqual([2147483648, -2147483649]);
  });

  it('writes the int64 overflow as an exact literal', () => {
    const overflow = generator
      .invalidExamples(resolveTarget(spec, 'NewPlant'), { seed: 1 })
      .find((example) => example.description.includes('one past the int64 maximum'));
    expect(overflow && 'body' in overflow ? stringifyJson(overflow.body) : '').toContain('"id":9223372036854775808');
  });

  it('cycles through the rules when a count is given, over fresh base examples', () => {
    const examples = generator.invalidExamples(resolveTarget(spec, 'NewPlant'), { seed: 2, count: 20 });
    expect(examples).toHaveLength(20);
    expect(new Set(examples.map((example) => example.rule))).toEqual(
      new Set(['required', 'type', 'range', 'malformed']),
    );
    expect(
      new Set(examples.map((example) => ('body' in example ? stringifyJson(example.body) : example.rawBody))).size,
    ).toBe(20);
  });

  it('leaves malformed JSON out when asked to', () => {
    const rules = generator
      .invalidExamples(resolveTarget(spec, 'NewPlant'), { seed: 1, malformed: false })
      .map((example) => example.rule);
    expect(rules).not.toContain('malformed');
  });

  it('is deterministic per seed', () => {
    const once = invalidExamples(spec, 'createPlant', { seed: 5, count: 12 });
    const again = createExampleGenerator(spec).invalidExamples(resolveTarget(spec, 'createPlant'), {
      seed: 5,
      count: 12,
    });
    expect(once.map((e) => stringifyJson(e as never))).toEqual(again.map((e) => stringifyJson(e as never)));
  });
});
