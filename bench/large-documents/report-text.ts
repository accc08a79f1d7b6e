// The large-document benchmark's printed report: per document, one line per server configuration,
// then plantstore / Prism ratios from the same run, then what missed the bars.
import { FIRST_ANSWER_BAR_MS, ratiosOf, type ConfigSummary, type RatioKey } from './summary.ts';

export interface DocumentReport {
  name: string;
  file: string;
  megabytes: number;
  operations: number;
  probe: string;
  sampled: string[];
  configs: Record<string, ConfigSummary>;
  /** SIGTERM sent while loading, per configuration: the median ms to exit (undefined: over the limit). */
  termWhileLoading: Record<string, { delayMs: number; termMs?: number; listening: boolean }>;
  ratios: Record<string, Partial<Record<RatioKey, number>>>;
}

export const CONFIG_TITLES: Record<string, string> = {
  'plantstore-cold': 'plantstore, cold cache',
  'plantstore-warm': 'plantstore, warm cache',
  prism: 'Prism 5.16',
};

const seconds = (ms: number | undefined, noAnswer: string) =>
  ms === undefined ? noAnswer : `${(ms / 1000).toFixed(2)} s`;
const millis = (ms: number | undefined) => (ms === undefined ? '-' : `${Math.round(ms)} ms`);
const times = (n: number | undefined) => (n === undefined ? '-' : `${n >= 10 ? n.toFixed(0) : n.toFixed(2)}x`);

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The table rows' "no answer" text for a configuration that timed out. */
const timedOut = (summary: ConfigSummary, timeoutS: number) =>
  summary.stalled.length > 0 ? `none in ${timeoutS} s` : '-';

export function formatDocument(report: DocumentReport, timeoutS: number): string {
  const rows = Object.entries(report.configs).map(([key, s]) => {
    const loading = report.termWhileLoading[key];
    return [
      CONFIG_TITLES[key] ?? key,
      String(s.runs),
      seconds(s.listeningMs, timedOut(s, timeoutS)),
      seconds(s.firstAnswerMs, timedOut(s, timeoutS)),
      `${millis(s.operationMedianMs)} / ${millis(s.operationMaxMs)}`,
      `${s.operationsAnswered}/${report.sampled.length}`,
      s.rssMb === undefined ? '-' : `${Math.round(s.rssMb)} MB`,
      s.termOverLimit > 0 ? `>5 s (${s.termOverLimit} of ${s.runs})` : millis(s.termAfterListeningMs),
      loading ? (loading.termMs === undefined ? '>5 s' : millis(loading.termMs)) : '-',
    ];
  });
  const header = [
    'server',
    'runs',
    'listening',
    'first answer',
    'op first answer med / max',
    'ops answered',
    'RSS after',
    'SIGTERM (up)',
    'SIGTERM (loading)',
  ];
  const ratioRows = Object.entries(report.ratios).map(([key, r]) => [
    `${CONFIG_TITLES[key] ?? key} ÷ Prism`,
    times(r.listeningMs),
    times(r.firstAnswerMs),
    times(r.operationMedianMs),
    times(r.operationMaxMs),
    times(r.rssMb),
    times(r.termAfterListeningMs),
  ]);
  const lines = [
    `${report.name}: ${report.file} (${report.megabytes.toFixed(1)} MB, ${report.operations} operations); probe ${report.probe}; ${report.sampled.length} GET operations sampled`,
    table(header, rows),
    '',
    table(['ratio', 'listening', 'first answer', 'op median', 'op max', 'RSS', 'SIGTERM (up)'], ratioRows),
  ];
  for (const [key, s] of Object.entries(report.configs)) {
    const title = CONFIG_TITLES[key] ?? key;
    for (const stalled of s.stalled) lines.push(`  ${title}: ${stalled}`);
    if (s.overBar.length > 0)
      lines.push(
        `  ${title}: first answers over ${FIRST_ANSWER_BAR_MS} ms: ${s.overBar
          .slice(0, 5)
          .map((o) => `${o.operation} ${Math.round(o.ms)} ms`)
          .join(', ')}${s.overBar.length > 5 ? `, and ${s.overBar.length - 5} more` : ''}`,
      );
    const statuses = Object.entries(s.statuses)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ');
    if (statuses) lines.push(`  ${title}: statuses of the sampled answers ${statuses}`);
  }
  for (const [key, loading] of Object.entries(report.termWhileLoading)) {
    if (loading.listening)
      lines.push(
        `  ${CONFIG_TITLES[key] ?? key}: already listening ${Math.round(loading.delayMs)} ms after spawn; "SIGTERM (loading)" is then not during loading`,
      );
  }
  return lines.join('\n');
}

/** Ratios for every plantstore configuration against Prism's. */
export function documentRatios(configs: Record<string, ConfigSummary>): DocumentReport['ratios'] {
  const prism = configs.prism;
  if (!prism) return {};
  return Object.fromEntries(
    Object.entries(configs)
      .filter(([key]) => key !== 'prism')
      .map(([key, s]) => [key, ratiosOf(s, prism)]),
  );
}
