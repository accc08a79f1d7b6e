// Everything one benchmark run measured, as written to bench/results/latest.json.
import type { BarLine } from './bar.ts';
import type { ExampleResult } from './examples.ts';
import type { LoadSettings } from '../lib/options.ts';
import type { PairedResult } from './paired.ts';
import type { ServerResult } from './measure.ts';
import type { ScenarioName } from '../lib/scenarios.ts';
import type { ServerName } from './servers.ts';
import type { VerifyResult } from './verify.ts';

export interface BenchReport {
  startedAt: string;
  wallSeconds: number;
  machine: {
    cores: number;
    cpu: string;
    node: string;
    platform: string;
    loadAverageBefore: number[];
    loadAverageAfter: number[];
  };
  settings: LoadSettings & { pinning: string };
  servers: Partial<Record<ServerName, ServerResult>>;
  /**
   * plantstore req/s divided by the other server's, per scenario, each measured alone on the core
   * one after the other; and the paired loads (mock and baseline at the same time on the same
   * core), which the machine's drift cannot move.
   */
  ratios: Partial<Record<ScenarioName, { vsPrism?: number; vsBaseline?: number; paired?: PairedResult }>>;
  examples?: ExampleResult;
  verify?: VerifyResult & { rawRequestsPerSecond?: number; ratioToRaw?: number };
  bar: BarLine[];
}

export function ratiosOf(
  servers: BenchReport['servers'],
  scenarios: readonly ScenarioName[],
  paired: Partial<Record<ScenarioName, PairedResult>> = {},
): BenchReport['ratios'] {
  const ratios: BenchReport['ratios'] = {};
  for (const name of scenarios) {
    const ours = servers.plantstore?.scenarios[name];
    if (ours === undefined) continue;
    const against = (other: ServerName) => {
      const theirs = servers[other]?.scenarios[name]?.requestsPerSecond;
      return theirs ? ours.requestsPerSecond / theirs : undefined;
    };
    ratios[name] = { vsPrism: against('prism'), vsBaseline: against('baseline'), paired: paired[name] };
  }
  return ratios;
}
