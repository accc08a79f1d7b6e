// The corpus harness's command line (scripts/corpus/options.ts): the sample's seed and the stages
// a run leaves out.
import { describe, expect, it } from 'vitest';
import { resolveOptions, UsageError } from '../../scripts/corpus/options.ts';
import { SAMPLE_SEED } from '../../scripts/corpus/sources.ts';

describe('the corpus options', () => {
  it('draws the fixed sample and runs every stage by default', () => {
    expect(resolveOptions([], '/root')).toMatchObject({
      seed: SAMPLE_SEED,
      prism: true,
      msw: true,
      state: true,
      verify: true,
    });
  });

  it('takes another seed and leaves out the state stage and self-verify on request', () => {
    expect(resolveOptions(['--seed', '27', '--no-state', '--no-verify'], '/root')).toMatchObject({
      seed: 27,
      state: false,
      verify: false,
    });
  });

  it.each(['-1', '1.5', 'x', '4294967296'])('refuses --seed %s with the usage', (seed) => {
    expect(() => resolveOptions([`--seed=${seed}`], '/root')).toThrow(UsageError);
    expect(() => resolveOptions([`--seed=${seed}`], '/root')).toThrow(/--seed must be a whole number/);
  });
});
