// A server configuration's large-document runs read as medians, with time-outs never hidden in them.
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../bench/large-documents/server-run.ts';
import { median, ratiosOf, summariseRuns } from '../../bench/large-documents/summary.ts';

const run = (
  listeningMs: number | undefined,
  answers: RunResult['answers'],
  extra: Partial<RunResult> = {},
): RunResult => ({
  listeningMs,
  firstAnswerMs: listeningMs === undefined ? undefined : listeningMs + 10,
  answers,
  rssBytes: 100 * 1048576,
  termMs: 40,
  ...extra,
});

describe('median', () => {
  it.each([
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    [[undefined, 5], 5],
    [[], undefined],
  ])('of %j is %j', (values, expected) => {
    expect(median(values)).toBe(expected);
  });
});

describe('summariseRuns', () => {
  it('takes the median over runs of every figure, then over operations', () => {
    const summary = summariseRuns([
      run(1000, [
        { operation: 'GET /a', ms: 10, status: 200 },
        { operation: 'GET /b', ms: 300, status: 200 },
      ]),
      run(3000, [
        { operation: 'GET /a', ms: 30, status: 200 },
        { operation: 'GET /b', ms: 100, status: 404 },
      ]),
      run(
        2000,
        [
          { operation: 'GET /a', ms: 20, status: 200 },
          { operation: 'GET /b', ms: 250, status: 200 },
        ],
        { rssBytes: 300 * 1048576 },
      ),
    ]);
    expect(summary).toMatchObject({
      runs: 3,
      listeningMs: 2000,
      firstAnswerMs: 2010,
      operationMaxMs: 250,
      operationsAnswered: 2,
      rssMb: 100,
      termAfterListeningMs: 40,
      termOverLimit: 0,
      stalled: [],
    });
    expect(summary.operationMedianMs).toBe((20 + 250) / 2);
    expect(summary.statuses).toEqual({ 200: 5, 404: 1 });
  });

  it('names every operation whose first answer took over 200 ms, slowest first', () => {
    const summary = summariseRuns([
      run(1000, [
        { operation: 'GET /a', ms: 210 },
        { operation: 'GET /b', ms: 900 },
        { operation: 'GET /c', ms: 20 },
      ]),
    ]);
    expect(summary.overBar.map((o) => o.operation)).toEqual(['GET /b', 'GET /a']);
  });

  it('gives no figure for a measurement that timed out in any run, and says why', () => {
    const summary = summariseRuns([
      run(1000, [{ operation: 'GET /a', ms: 10 }]),
      run(undefined, [], { stalled: 'no answer to GET /a within 90 s of spawn', termMs: undefined }),
    ]);
    expect(summary.listeningMs).toBeUndefined();
    expect(summary.firstAnswerMs).toBeUndefined();
    expect(summary.operationsAnswered).toBe(0);
    expect(summary.stalled).toEqual(['no answer to GET /a within 90 s of spawn']);
  });

  it('counts a SIGTERM over the limit after listening, and leaves out one sent to a server that never listened', () => {
    const summary = summariseRuns([
      run(1000, [{ operation: 'GET /a' }], { stalled: 'no answer to GET /a within 20 s', termMs: undefined }),
      run(undefined, [], { stalled: 'no answer to GET /a within 90 s of spawn', termMs: 30 }),
    ]);
    expect(summary.termAfterListeningMs).toBeUndefined();
    expect(summary.termOverLimit).toBe(1);
    expect(summariseRuns([run(undefined, [], { termMs: 30 })]).termOverLimit).toBe(0);
  });

  it('counts an operation without an answer as status "none"', () => {
    expect(summariseRuns([run(1000, [{ operation: 'GET /a' }])]).statuses).toEqual({ none: 1 });
  });
});

describe('ratiosOf', () => {
  it('divides plantstore by Prism for the figures both have, and leaves out the rest', () => {
    const mock = summariseRuns([run(1000, [{ operation: 'GET /a', ms: 10 }])]);
    const prism = summariseRuns([
      run(4000, [], { stalled: 'no answer to GET /a within 20 s', rssBytes: 400 * 1048576 }),
    ]);
    const ratios = ratiosOf(mock, prism);
    expect(ratios.listeningMs).toBe(0.25);
    expect(ratios.rssMb).toBe(0.25);
    expect(ratios.operationMedianMs).toBeUndefined();
  });
});
