// The hostile values: every class the runner reaches for, picked by the declared type, in a
// budget that still reaches every place and class first, and the same for the same seed.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import { createValidators } from '../../src/validation/validator.ts';
import { generateCases } from '../../src/runner/generate/generated-cases.ts';
import {
  HOSTILE_BODIES,
  hostileBodyText,
  hostileValues,
  pickRoundRobin,
} from '../../src/runner/generate/hostile-values.ts';

const labels = (schema: Record<string, unknown>, repeatable = false) => hostileValues(schema, repeatable).flat();

describe('hostile values by declared type', () => {
  it('give a bounded integer its bounds and one step past them, then the numbers servers overflow on', () => {
    const values = labels({ type: 'integer', minimum: 1, maximum: 5 });
    expect(values.filter((v) => v.kind === 'bounds').map((v) => v.text)).toEqual(['1', '0', '5', '6']);
    const numbers = values.filter((v) => v.kind === 'numbers').map((v) => v.text);
    for (const text of [
      '0',
      '-1',
      '2147483648',
      '9007199254740993',
      '9223372036854775808',
      '100000000000000000000',
      '1e309',
      'NaN',
    ])
      expect(numbers).toContain(text);
    expect(numbers.some((text) => /^\d{30,}$/.test(text))).toBe(true);
  });

  it('confuse types: a number where text goes, true, null, [], {}, an array for a scalar', () => {
    const string = labels({ type: 'string' });
    expect(string.filter((v) => v.kind === 'numbers').map((v) => v.text)).toContain('99999999999');
    expect(string.filter((v) => v.kind === 'confusion').map((v) => v.json)).toEqual(
      expect.arrayContaining(['true', 'null', '[]', '{}', '[1,2]']),
    );
    expect(
      labels({ type: 'integer' })
        .filter((v) => v.kind === 'confusion')
        .map((v) => v.json),
    ).toContain('"abc"');
  });

  it('repeat a query key, and only a query key', () => {
    expect(labels({ type: 'string' }, true).some((v) => v.kind === 'repeated-key')).toBe(true);
    expect(labels({ type: 'string' }, false).some((v) => v.kind === 'repeated-key')).toBe(false);
  });

  it('send strings that are empty, very long, odd unicode, and break SQL, paths and templates', () => {
    const strings = labels({ type: 'string' });
    const texts = strings.map((v) => v.text);
    expect(texts).toContain('');
    expect(texts.some((text) => text.length >= 10_000)).toBe(true);
    expect(texts.some((text) => /\p{M}/u.test(text))).toBe(true); // combining marks
    expect(texts.some((text) => /\p{Extended_Pictographic}/u.test(text))).toBe(true); // emoji
    expect(texts.some((text) => text.includes('\u202e'))).toBe(true); // right-to-left override
    expect(texts.some((text) => text.includes('\u0000'))).toBe(true);
    expect(strings.filter((v) => v.kind === 'breakers').map((v) => v.text)).toEqual(
      expect.arrayContaining(["' OR '1'='1", '../../../../etc/passwd', '{{7*7}}${7*7}<%= 7*7 %>']),
    );
  });

  it('send near-misses of a declared format', () => {
    expect(
      labels({ type: 'string', format: 'date' })
        .filter((v) => v.kind === 'formats')
        .map((v) => v.text),
    ).toContain('2024-02-30');
    expect(labels({ type: 'string', format: 'uuid' }).some((v) => v.kind === 'formats')).toBe(true);
    expect(labels({ type: 'string', format: 'email' }).map((v) => v.text)).toContain('a@b@c.com');
  });

  it('keep bodies that are no JSON, of the wrong media type, or nested past any parser', () => {
    expect(HOSTILE_BODIES.map((body) => body.label)).toEqual(
      expect.arrayContaining(['a body that is not JSON', 'a JSON body sent as text/plain', 'a deeply nested body']),
    );
    const deep = hostileBodyText(HOSTILE_BODIES.find((body) => body.label === 'a deeply nested body')!)!;
    expect(deep.startsWith('[[[[')).toBe(true);
    expect(deep.length).toBe(20_000);
  });
});

describe('the hostile budget', () => {
  it('reaches every place and every class before any class gets its second value', () => {
    const place = (name: string) => [
      [`${name} a1`, `${name} a2`],
      [`${name} b1`, `${name} b2`],
    ];
    expect(pickRoundRobin([place('p'), place('q')], 4, (items) => items)).toEqual(['p a1', 'q a1', 'p b1', 'q b1']);
  });

  it('builds the same hostile cases for the same seed, other ones for another seed, and none for --hostile 0', async () => {
    const spec = await loadSpec('test/documents/hostile-history.yaml');
    const operations = listOperations(spec);
    const validators = createValidators(spec);
    const hostile = async (seed: number, budget: number) =>
      (await generateCases(spec, operations, validators, { count: 1, seed, auth: {}, hostile: budget })).cases
        .filter((c) => c.id.includes('/hostile-'))
        .map((c) => `${c.id} ${JSON.stringify(c.steps[0].request)}`);
    const first = await hostile(7, 12);
    expect(first.length).toBeGreaterThan(20);
    expect(await hostile(7, 12)).toEqual(first);
    expect(await hostile(8, 12)).not.toEqual(first);
    expect(await hostile(7, 0)).toEqual([]);
    // At most the budget per operation.
    const perOperation = new Map<string, number>();
    for (const line of first) perOperation.set(line.split('/')[1], (perOperation.get(line.split('/')[1]) ?? 0) + 1);
    expect(Math.max(...perOperation.values())).toBeLessThanOrEqual(12);
  });
});
