// The benchmark's flags: defaults, --quick, the generator's choice, and messages for bad values.
import { describe, expect, it } from 'vitest';
import { resolveBenchOptions, type BenchOptions } from '../../bench/lib/options.ts';
import { findWrk } from '../../bench/lib/load.ts';

const resolve = (...argv: string[]) => resolveBenchOptions(argv) as BenchOptions;

describe('resolveBenchOptions', () => {
  it('measures 5 s after a 2 s warm-up, pairs for 5 s, and runs the large part by default', () => {
    expect(resolve()).toMatchObject({
      durationSeconds: 5,
      warmupSeconds: 2,
      pairedSeconds: 5,
      connections: 50,
      startupSamples: 3,
      largeOnly: false,
      large: { runs: 3 },
      adapters: false,
    });
  });

  it("runs only issue 20's adapter comparison with --adapters, for --duration S per scenario", () => {
    expect(resolve('--adapters', '--duration', '3')).toMatchObject({
      adapters: true,
      durationSeconds: 3,
      warmupSeconds: 2,
    });
  });

  it('takes wrk when it is on PATH, autocannon otherwise, and either when asked', () => {
    expect(resolve().generator).toBe(findWrk() ? 'wrk' : 'autocannon');
    expect(resolve('--generator', 'autocannon').generator).toBe('autocannon');
  });

  it('makes --quick a smoke run of whole seconds', () => {
    expect(resolve('--quick')).toMatchObject({
      durationSeconds: 1,
      warmupSeconds: 1,
      pairedSeconds: 1,
      startupSamples: 1,
      large: { runs: 1 },
    });
  });

  it('leaves the large part out with --skip-large, and keeps only it with --large-only', () => {
    expect(resolve('--skip-large').large).toBeUndefined();
    expect(resolve('--large-only')).toMatchObject({ largeOnly: true, large: { runs: 3 } });
  });

  it('runs the MSW part by default, with --duration seconds of steady state, and only it with --msw-only', () => {
    expect(resolve()).toMatchObject({ mswOnly: false, msw: { runs: 5, warmupSeconds: 2, seconds: 5 } });
    expect(resolve('--quick').msw).toMatchObject({ runs: 1, warmupSeconds: 1, seconds: 1 });
    expect(resolve('--msw-only', '--duration', '3', '--msw-runs', '4')).toMatchObject({
      mswOnly: true,
      msw: { runs: 4, seconds: 3 },
    });
    expect(resolve('--skip-msw').msw).toBeUndefined();
  });

  it.each([
    [['--msw-only', '--skip-msw'], '--msw-only cannot go with --skip-msw'],
    [['--msw-only', '--large-only'], '--msw-only cannot go with --large-only'],
    [['--msw-runs', '0'], '--msw-runs must be a whole number from 1 to 50, got 0'],
    [['--duration', '0.5'], '--duration must be a whole number from 1 to 600, got 0.5'],
    [['--paired', '601'], '--paired must be a whole number from 0 to 600, got 601'],
    [['--generator', 'undici'], '--generator must be one of wrk, autocannon, got undici'],
    [['--large-only', '--skip-large'], '--large-only cannot go with --skip-large'],
    [['--adapters', '--large-only'], '--adapters cannot go with --large-only: each is a part of its own'],
    [['--laps', '3'], "Unknown option '--laps'"],
  ])('refuses %j: %s', (argv, message) => {
    expect(() => resolveBenchOptions(argv)).toThrow(message);
  });
});
