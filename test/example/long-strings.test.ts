// Strings with a large maxLength (Stripe's 5,000 on nearly every one) are generated at most 100
// characters long, and arrays at most 20 items, never below their minimum, while invalid examples
// still break the declared maxLength itself.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExampleGenerator } from '../../src/example/index.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { resolveTarget } from '../../src/document/resolve-target.ts';

const spec = await loadSpec(resolve('test/documents/runner-corpus-shapes.yaml'));

describe('strings with a large maxLength', () => {
  it.each([1, 2, 3, 4, 5])('are generated short, and never below their minLength (seed %i)', (seed) => {
    const [note] = createExampleGenerator(spec).examples(resolveTarget(spec, 'Note'), { seed, count: 1 }) as Array<{
      text: string;
      code: string;
      marks: number[];
    }>;
    expect(note.text.length).toBeLessThanOrEqual(100);
    expect(note.marks.length).toBeGreaterThanOrEqual(1);
    expect(note.marks.length).toBeLessThanOrEqual(20);
    expect(note.code.length).toBeGreaterThanOrEqual(300);
    expect(note.code.length).toBeLessThanOrEqual(5000);
  });

  it('are broken at their declared maxLength by invalid examples', () => {
    const invalid = createExampleGenerator(spec).invalidExamples(resolveTarget(spec, 'Note'), {
      seed: 1,
      malformed: false,
    });
    expect(invalid.map((example) => example.description)).toContain(
      '/text: out of range: 5001 characters, above maxLength 5000',
    );
  });
});
