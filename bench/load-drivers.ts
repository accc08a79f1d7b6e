// The load generators the benchmark can drive a phase with, by name: `--generator` takes its
// choices from this map. undici and autocannon are imported only when chosen, so the default run
// never loads them.
import { runClosedLoop } from './http-load-client.ts';
import type { GeneratorName, PhasePlan, PhaseResult } from './load-phase.ts';

export const LOAD_DRIVERS: Record<GeneratorName, (plan: PhasePlan) => Promise<PhaseResult>> = {
  plantstore: (plan) => runClosedLoop(plan),
  undici: async (plan) => (await import('./undici-load.ts')).runUndici(plan),
  autocannon: async (plan) => (await import('./autocannon-load.ts')).runAutocannon(plan),
};

export const GENERATOR_NAMES = Object.keys(LOAD_DRIVERS) as GeneratorName[];
