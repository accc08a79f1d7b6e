// The MSW part's printed report (measure.ts measures it): first answers and steady state per
// document, plantstore beside @mswjs/source with their ratio, what each answers, and the bundle.
import { table } from '../lib/table.ts';

export interface FirstAnswerSummary {
  name: string;
  runs: number;
  /** Medians over the runs that answered. */
  fromStartMs?: number;
  fromCreateMs?: number;
  statuses: Record<string, number>;
  failed?: string;
}

export interface SteadySummary {
  name: string;
  answersPerSecond?: number;
  p50Ms?: number;
  p99Ms?: number;
  statuses: Record<string, number>;
  failed?: string;
}

export interface MswDocumentReport {
  name: string;
  file: string;
  /** The request every measurement sends, as the tables name it. */
  request: string;
  preparedModuleBytes: number;
  /** How @mswjs/source did on the document as published, when the bench had to trim its server URL. */
  asPublished?: string;
  first: FirstAnswerSummary[];
  /** plantstore first, then @mswjs/source. */
  steady: SteadySummary[];
}

export interface MswReport {
  startedAt: string;
  wallSeconds: number;
  machine: { cores: number; node: string; loadAverageBefore: number[]; loadAverageAfter: number[] };
  settings: { runs: number; warmupSeconds: number; seconds: number };
  versions: Record<string, string>;
  documents: MswDocumentReport[];
  /** What bench/msw/bundle-size.ts printed, or why it did not run. */
  bundle: string;
}

const ms = (n: number | undefined, digits = 0) => (n === undefined ? '-' : n.toFixed(digits));
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? '-' : `${(a / b).toFixed(2)}x`;
export const statusText = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([status, n]) => `${n} x ${status}`)
    .join(', ');

function formatDocument(d: MswDocumentReport, runs: number): string[] {
  const ours = d.first.find((f) => f.name.startsWith('plantstore, prepared'));
  const theirs = d.first.find((f) => f.name.startsWith('@mswjs/source'));
  const first = d.first.map((f) => [
    f.name,
    ms(f.fromStartMs),
    ms(f.fromCreateMs),
    f.failed ? `failed: ${f.failed}` : statusText(f.statuses),
  ]);
  first.push([
    'prepared ÷ @mswjs/source',
    ratio(ours?.fromStartMs, theirs?.fromStartMs),
    ratio(ours?.fromCreateMs, theirs?.fromCreateMs),
    '',
  ]);
  const [a, b] = d.steady;
  const steady = d.steady.map((s) => [
    s.name,
    ms(s.answersPerSecond),
    ms(s.p50Ms, 3),
    ms(s.p99Ms, 3),
    s.failed ? `failed: ${s.failed}` : statusText(s.statuses),
  ]);
  steady.push([
    'plantstore ÷ @mswjs/source',
    ratio(a?.answersPerSecond, b?.answersPerSecond),
    ratio(a?.p50Ms, b?.p50Ms),
    ratio(a?.p99Ms, b?.p99Ms),
    '',
  ]);
  return [
    `${d.name} (${d.file}; prepared module ${(d.preparedModuleBytes / 1024).toFixed(0)} KB), ${d.request}`,
    table(
      [`first answer, median of ${runs} fresh process(es)`, 'from start ms', 'from create ms', 'answers'],
      first,
      1,
    ),
    table(['steady state, one request at a time', 'answers/s', 'p50 ms', 'p99 ms', 'answers'], steady, 1),
    ...(d.asPublished ? [`  note: ${d.asPublished}`] : []),
  ];
}

export function formatMswReport(report: MswReport): string {
  const load = (l: number[]) => l.map((n) => n.toFixed(2)).join(' ');
  const s = report.settings;
  return [
    `MSW handlers: plantstore/msw against @mswjs/source ${report.versions['@mswjs/source']} for the same document, in Node ${report.machine.node} with msw ${report.versions.msw} setupServer; ${report.machine.cores} cores, load average ${load(report.machine.loadAverageBefore)} before, ${load(report.machine.loadAverageAfter)} after`,
    '  not like for like: plantstore checks the bearer token and validates the request, stores a create and answers it read back from its store;',
    '  @mswjs/source answers an example generated from the response schema without looking at the request. The ratios price that difference in work,',
    '  they are no claim that one does the same job faster.',
    `  first answer: a fresh process per run; from start = from the process's start (every module loaded after it counts), from create = from the`,
    `  createHandlers / fromOpenApi call; to the first whole answer through fetch. Steady state: ${s.warmupSeconds} s warm-up, then ${s.seconds} s of requests one after`,
    '  another through fetch (no sockets: the in-process cost of an answer). plantstore runs compiled (tsc), as the package ships it.',
    '',
    ...report.documents.flatMap((d) => [...formatDocument(d, s.runs), '']),
    report.bundle,
    '',
    `figures: bench/results/msw.json  (whole part ${report.wallSeconds.toFixed(0)} s)`,
  ].join('\n');
}
