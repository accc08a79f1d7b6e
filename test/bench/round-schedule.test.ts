// The interleaved measurement: every server in every round, the first place rotating, the
// duration split evenly, the full warm-up once per scenario, and fresh ids in every round.
import { describe, expect, it } from 'vitest';
import { MAX_ROUNDS, pairedIdStarts, REWARM_SECONDS, roundSchedule } from '../../bench/round-schedule.ts';
import type { ScenarioName } from '../../bench/scenarios.ts';

const SERVERS = ['plantstore', 'prism', 'baseline'] as const;
const SCENARIOS: ScenarioName[] = ['valid', 'invalid-body'];

describe('roundSchedule', () => {
  const schedule = roundSchedule(SERVERS, SCENARIOS, { rounds: 3, durationSeconds: 5, warmupSeconds: 2 });

  it('measures every server once in every round of every scenario', () => {
    expect(schedule.map((r) => [r.scenario, r.round])).toEqual([['valid', 0], ['valid', 1], ['valid', 2], ['invalid-body', 0], ['invalid-body', 1], ['invalid-body', 2]]);
    for (const round of schedule) expect([...round.order].sort()).toEqual([...SERVERS].sort());
  });

  it('rotates the order so that each server goes first once in three rounds', () => {
    expect(schedule.slice(0, 3).map((r) => r.order)).toEqual([
      ['plantstore', 'prism', 'baseline'],
      ['prism', 'baseline', 'plantstore'],
      ['baseline', 'plantstore', 'prism'],
    ]);
  });

  it('keeps rotating across scenarios when there are fewer rounds than servers', () => {
    const quick = roundSchedule(SERVERS, ['valid', 'valid-int64', 'invalid-body'], { rounds: 1, durationSeconds: 1, warmupSeconds: 0.5 });
    expect(quick.map((r) => r.order[0])).toEqual(['plantstore', 'prism', 'baseline']);
  });

  it('splits the duration over the rounds and warms up fully only in the first', () => {
    const valid = schedule.filter((r) => r.scenario === 'valid');
    expect(valid.reduce((s, r) => s + r.durationSeconds, 0)).toBeCloseTo(5);
    expect(valid.map((r) => r.warmupSeconds)).toEqual([2, REWARM_SECONDS, REWARM_SECONDS]);
    expect(valid.map((r) => r.last)).toEqual([false, false, true]);
  });

  it('starts every round\'s ids in a range of its own', () => {
    const starts = schedule.map((r) => BigInt(r.idStart)).sort((a, b) => (a < b ? -1 : 1));
    for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(10_000_000_000n);
    expect(starts[0]).toBeGreaterThan(0n);
  });

  it.each([0, 1.5, 101])('refuses %s rounds', (rounds) => {
    expect(() => roundSchedule(SERVERS, SCENARIOS, { rounds, durationSeconds: 5, warmupSeconds: 2 })).toThrow(/rounds must be a whole number from 1 to 100/);
  });
});

describe('pairedIdStarts', () => {
  const ALL: ScenarioName[] = ['valid', 'valid-int64', 'invalid-body', 'missing-token'];
  // Every id a round can take: from its start, up to the next round's start.
  const full = roundSchedule(['plantstore'], ALL, { rounds: MAX_ROUNDS, durationSeconds: 100, warmupSeconds: 0 });
  const roundIds = full.map((r) => [BigInt(r.idStart), BigInt(r.idStart) + 10_000_000_000n] as const);
  const paired = ALL.flatMap((_, i) => pairedIdStarts(i, ALL.length)).map(BigInt);

  it('starts every paired load past every id of the rounds, even with the most rounds', () => {
    const lastRoundEnd = roundIds.reduce((max, [, end]) => (end > max ? end : max), 0n);
    for (const start of paired) expect(start).toBeGreaterThanOrEqual(lastRoundEnd);
  });

  it('gives each of the two loads of each scenario a range of its own, with room for 10^11 requests', () => {
    const sorted = [...paired].sort((a, b) => (a < b ? -1 : 1));
    expect(new Set(sorted).size).toBe(ALL.length * 2);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i] - sorted[i - 1]).toBeGreaterThanOrEqual(100_000_000_000n);
  });
});
