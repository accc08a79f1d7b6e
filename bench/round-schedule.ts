// The order of the side-by-side measurement. This machine's speed drifts by tens of percent over
// tens of seconds, so servers measured one after the other (all of one, then all of the next) are
// compared across different machines. Instead every scenario is measured in rounds, and in each
// round every server takes its share of the time back to back: a ratio compares loads run seconds
// apart. The order rotates from round to round (and on across scenarios), so that no server always
// goes first.
import type { ScenarioName } from './scenarios.ts';

export interface ScheduledRound<S extends string> {
  scenario: ScenarioName;
  /** 0-based within the scenario. */
  round: number;
  /** The servers in the order they are measured in this round. */
  order: S[];
  /** Warm-up before each server's measurement: the full one in a scenario's first round, a short one later. */
  warmupSeconds: number;
  durationSeconds: number;
  /** First id of every server's load in this round (decimal; each server has its own store). */
  idStart: string;
  /** The scenario's last round: each server's RSS is read after its load in it. */
  last: boolean;
}

export interface ScheduleSettings {
  rounds: number;
  /** Measured seconds per server and scenario, split evenly over the rounds. */
  durationSeconds: number;
  warmupSeconds: number;
}

/** Warm-up of a server's later rounds: its connections are new, its code is already hot. */
export const REWARM_SECONDS = 0.5;

// Ids of a scenario start in their own range, far from the others' and from the start-up probes'
// (negative); each round of it in its own sub-range, room for 10^10 requests a round and 100 rounds.
const SCENARIO_ID_RANGE = 1_000_000_000_000n;
const ROUND_ID_RANGE = 10_000_000_000n;
export const MAX_ROUNDS = Number(SCENARIO_ID_RANGE / ROUND_ID_RANGE);

const rotate = <T>(items: readonly T[], by: number): T[] => items.map((_, i) => items[(i + by) % items.length]);

export function roundSchedule<S extends string>(servers: readonly S[], scenarios: readonly ScenarioName[], settings: ScheduleSettings): ScheduledRound<S>[] {
  if (!(Number.isInteger(settings.rounds) && settings.rounds >= 1 && settings.rounds <= MAX_ROUNDS)) throw new Error(`rounds must be a whole number from 1 to ${MAX_ROUNDS}, got ${settings.rounds}`);
  const schedule: ScheduledRound<S>[] = [];
  for (const [index, scenario] of scenarios.entries()) {
    for (let round = 0; round < settings.rounds; round++) {
      schedule.push({
        scenario,
        round,
        order: rotate(servers, index * settings.rounds + round),
        warmupSeconds: round === 0 ? settings.warmupSeconds : Math.min(REWARM_SECONDS, settings.warmupSeconds),
        durationSeconds: settings.durationSeconds / settings.rounds,
        idStart: String(BigInt(index + 1) * SCENARIO_ID_RANGE + BigInt(round) * ROUND_ID_RANGE),
        last: round === settings.rounds - 1,
      });
    }
  }
  return schedule;
}

/**
 * First ids of the two paired loads (measure-paired.ts) of the scenario at `index` of `count`: past
 * every scenario's range (all of which the rounds may fill), one half-range per load.
 */
export function pairedIdStarts(index: number, count: number): [string, string] {
  const base = BigInt(count + 1 + index) * SCENARIO_ID_RANGE;
  return [String(base), String(base + SCENARIO_ID_RANGE / 2n)];
}
