// A server configuration's large-document starts read as medians, with time-outs never hidden in them.
import { describe, expect, it } from 'vitest';
import { summarise, type RunResult } from '../../bench/large-documents/large-documents.ts';

const run = (listeningMs: number | undefined, answerMs: (number | undefined)[], extra: Partial<RunResult> = {}) => ({
  listeningMs,
  firstAnswerMs: listeningMs === undefined ? undefined : listeningMs + 10,
  answers: answerMs.map((ms, i) => ({ operation: `GET /${i}`, ms, status: ms === undefined ? undefined : 200 })),
  rssBytes: 100 * 1048576,
  termMs: 40,
  ...extra,
});

describe('summarise', () => {
  it('takes the median over starts of every figure, and of every answered operation', () => {
    const summary = summarise([run(100, [5, 7]), run(300, [9, 250]), run(200, [6, 8])]);
    expect(summary).toMatchObject({ listening: 200, firstAnswer: 210, opMedian: 7.5, opMax: 250, rssMb: 100 });
    expect(summary.overAim).toBe(1);
    expect(summary.termUp).toBe(40);
  });

  it('gives no figure for a measurement that timed out in any start, and says why', () => {
    const summary = summarise([run(100, [5]), run(undefined, [], { stalled: 'no answer to GET / within 60 s' })]);
    expect(summary.listening).toBeUndefined();
    expect(summary.firstAnswer).toBeUndefined();
    expect(summary.stalled).toEqual(['no answer to GET / within 60 s']);
  });

  it('leaves a SIGTERM sent to a server that never listened out of "SIGTERM up", and keeps one over the limit', () => {
    expect(summarise([run(undefined, [], { termMs: 5 }), run(100, [], { termMs: Infinity })]).termUp).toBe(Infinity);
    expect(summarise([run(undefined, [], { termMs: 5 })]).termUp).toBeUndefined();
  });

  it('counts only answered operations', () => {
    expect(summarise([run(100, [5, undefined])])).toMatchObject({ opMedian: 5, opMax: 5 });
  });
});
