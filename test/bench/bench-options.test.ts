// The benchmark's one command line: suites by name, shared settings, and messages for bad values.
import { describe, expect, it } from 'vitest';
import { optionsFor, resolveBenchOptions, type BenchOptions } from '../../bench/lib/options.ts';

const resolve = (...argv: string[]) => resolveBenchOptions(argv) as BenchOptions;

describe('resolveBenchOptions', () => {
  it('runs the Plant Store, MSW and the large documents by default, 5 s loads after a 2 s warm-up', () => {
    expect(resolve()).toMatchObject({
      suites: ['plant-store', 'msw', 'large-documents'],
      durationSeconds: 5,
      warmupSeconds: 2,
      runs: undefined,
      operations: 20,
      timeoutSeconds: 60,
    });
  });

  it('runs the suites named, once each, in the order given', () => {
    expect(resolve('proxy', 'redis', 'proxy', '--seconds', '2').suites).toEqual(['proxy', 'redis']);
    expect(resolve('proxy', '--seconds', '2').durationSeconds).toBe(2);
  });

  it('makes --quick a smoke run of whole seconds, one start or round of everything', () => {
    expect(resolve('--quick')).toMatchObject({ durationSeconds: 1, warmupSeconds: 1, runs: 1 });
  });

  it('gives each suite its own connections unless --connections says otherwise', () => {
    expect(optionsFor(resolve(), 'plant-store').connections).toBe(48);
    expect(optionsFor(resolve(), 'proxy').connections).toBe(16);
    expect(optionsFor(resolve(), 'redis').connections).toBe(32);
    expect(optionsFor(resolve('--connections', '8'), 'proxy').connections).toBe(8);
  });

  it('takes a git revision to load beside the mock with --against', () => {
    expect(resolve('plant-store', '--against', 'main').against).toBe('main');
  });

  it.each([
    [['adapters'], 'unknown suite adapters; the suites: plant-store, msw, large-documents, proxy, redis'],
    [['--seconds', '0.5'], '--seconds must be a whole number from 1 to 600, got 0.5'],
    [['--runs', '0'], '--runs must be a whole number from 1 to 50, got 0'],
    [['--duration', '3'], "Unknown option '--duration'"],
  ])('refuses %j: %s', (argv, message) => {
    expect(() => resolveBenchOptions(argv)).toThrow(message);
  });
});
