// The large-document runs of one server configuration read as one line of figures (medians over
// runs), and two configurations compared as ratios. Pure: the table and the JSON come from here.
import { median } from '../lib/table.ts';
import type { RunResult } from './server-run.ts';

export { median };

/** The bar for the first answer to any operation. */
export const FIRST_ANSWER_BAR_MS = 200;

export interface ConfigSummary {
  runs: number;
  listeningMs?: number;
  firstAnswerMs?: number;
  /** Median over operations of each operation's first answer (itself the median over runs). */
  operationMedianMs?: number;
  operationMaxMs?: number;
  /** Operations answered in every run, and how many of them took over the bar (median over runs). */
  operationsAnswered: number;
  overBar: { operation: string; ms: number; status?: number }[];
  /** Statuses of the sampled operations' answers, counted over all runs. */
  statuses: Record<string, number>;
  rssMb?: number;
  termAfterListeningMs?: number;
  /** Runs that listened and then took over the limit to end on SIGTERM (the server was then killed). */
  termOverLimit: number;
  stalled: string[];
}

/** The median, or undefined for no values (what the tables print as "-"). */
/**
 * A measurement that timed out in some run has no meaningful median: a figure is given only when
 * every run produced one (a missing one reads as "no answer").
 */
const medianOfAll = (values: readonly (number | undefined)[]) =>
  values.some((v) => v === undefined) ? undefined : median(values);

export function summariseRuns(runs: readonly RunResult[]): ConfigSummary {
  const byOperation = new Map<string, { ms: (number | undefined)[]; status?: number }>();
  const statuses: Record<string, number> = {};
  for (const run of runs) {
    for (const answer of run.answers) {
      const entry = byOperation.get(answer.operation) ?? { ms: [] };
      entry.ms.push(answer.ms);
      entry.status ??= answer.status;
      byOperation.set(answer.operation, entry);
      const key = answer.status === undefined ? 'none' : String(answer.status);
      statuses[key] = (statuses[key] ?? 0) + 1;
    }
  }
  type Answered = { operation: string; ms: number; status?: number };
  const answered: Answered[] = [];
  for (const [operation, e] of byOperation) {
    const ms = e.ms.length === runs.length ? medianOfAll(e.ms) : undefined;
    if (ms !== undefined) answered.push({ operation, ms, status: e.status });
  }
  const times = answered.map((o) => o.ms);
  const listened = runs.filter((r) => r.listeningMs !== undefined);
  return {
    runs: runs.length,
    listeningMs: medianOfAll(runs.map((r) => r.listeningMs)),
    firstAnswerMs: medianOfAll(runs.map((r) => r.firstAnswerMs)),
    operationMedianMs: median(times),
    operationMaxMs: times.length > 0 ? Math.max(...times) : undefined,
    operationsAnswered: answered.length,
    overBar: answered.filter((o) => o.ms > FIRST_ANSWER_BAR_MS).sort((a, b) => b.ms - a.ms),
    statuses,
    rssMb: median(runs.map((r) => (r.rssBytes === undefined ? undefined : r.rssBytes / 1048576))),
    // A server that never listened got its SIGTERM while loading: not this figure.
    termAfterListeningMs: medianOfAll(listened.map((r) => r.termMs)),
    termOverLimit: listened.filter((r) => r.termMs === undefined).length,
    stalled: [...new Set(runs.flatMap((r) => (r.stalled ? [r.stalled] : [])))],
  };
}

/** a / b, or undefined when either is unknown (a time-out) or b is zero. */
export const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? undefined : a / b;

export type RatioKey =
  'listeningMs' | 'firstAnswerMs' | 'operationMedianMs' | 'operationMaxMs' | 'rssMb' | 'termAfterListeningMs';
export const RATIO_KEYS: readonly RatioKey[] = [
  'listeningMs',
  'firstAnswerMs',
  'operationMedianMs',
  'operationMaxMs',
  'rssMb',
  'termAfterListeningMs',
];

/** plantstore / Prism for every figure both have. */
export const ratiosOf = (mock: ConfigSummary, prism: ConfigSummary): Partial<Record<RatioKey, number>> =>
  Object.fromEntries(
    RATIO_KEYS.flatMap((key) => {
      const value = ratio(mock[key], prism[key]);
      return value === undefined ? [] : [[key, value]];
    }),
  );
