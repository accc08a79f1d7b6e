// The printed table: one row per document, then the totals against the bars.
import type { DocumentResult, Miss, ServerResult } from './run-document.ts';
import { stateCell, stateTotalsOf, type StateTotals } from './state-report.ts';

const pct = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);
const ms = (value: number | undefined) => (value === undefined ? '-' : String(Math.round(value)));
const probes = (s: ServerResult | undefined) => (s === undefined ? '-' : s.loaded ? `${s.correct}/${s.total}` : '-');

export const HEADER = [
  'document',
  'ops',
  'loaded',
  'start ms',
  'probes ok',
  'self-verify',
  'state',
  'sigterm ms',
  'prism loaded',
  'prism start',
  'prism probes',
  'prism state',
  'msw agree',
];

export function row(r: DocumentResult): string[] {
  const verify =
    r.selfVerify === undefined
      ? '-'
      : r.selfVerify.out !== undefined
        ? 'out'
        : `${r.selfVerify.exitCode === 0 ? 'pass' : 'FAIL'} ${r.selfVerify.passed}/${r.selfVerify.cases}`;
  const sigterm =
    r.sigterm === undefined
      ? '-'
      : `${r.sigterm.ok ? '' : 'FAIL '}${ms(r.sigterm.loadingMs)}/${ms(r.sigterm.listeningMs)}`;
  return [
    r.name,
    r.harnessError ? '?' : String(r.operations),
    r.plantstore.loaded ? 'yes' : 'NO',
    ms(r.plantstore.startMs),
    probes(r.plantstore),
    verify,
    stateCell(r.plantstore.state),
    sigterm,
    r.prism === undefined ? '-' : r.prism.loaded ? 'yes' : 'no',
    ms(r.prism?.startMs),
    probes(r.prism),
    stateCell(r.prism?.state),
    r.msw === undefined ? '-' : r.msw.error !== undefined ? 'ERROR' : `${r.msw.agreed}/${r.msw.probed}`,
  ];
}

export function formatTable(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '))
    .join('\n');
}

/** The most frequent miss codes, each with one example, as indented lines. */
export function topReasons(misses: Miss[], count: number): string[] {
  const byCode = new Map<string, Miss[]>();
  for (const miss of misses) byCode.set(miss.code, [...(byCode.get(miss.code) ?? []), miss]);
  return [...byCode.entries()]
    .sort((a, b) => b[1].length - a[1].length)
    .slice(0, count)
    .map(([code, list]) => `    ${list.length} × ${code}, e.g. ${list[0].operation}: ${list[0].detail}`.slice(0, 260));
}

export interface Totals {
  documents: number;
  loaded: number;
  probesCorrect: number;
  probesNotFound: number;
  probes: number;
  verifyPassedWithCases: number;
  /** Documents verify rightly says it has nothing to check (no operation): out of the self-verify bar. */
  verifyOut: number;
  sigtermOk: number;
  prismLoaded: number;
  prismDocuments: number;
  prismCorrect: number;
  prismProbes: number;
  /** The same figures restricted to documents both servers loaded. */
  bothLoaded: { documents: number; plantstoreCorrect: number; prismCorrect: number; probes: number };
  /**
   * The MSW stage: documents it ran on, those it could not set up, probes owed (a document it could not set up owes
   * all its operations') and agreements.
   */
  msw: { documents: number; errors: number; probes: number; agreed: number; bothValid: number; unhandled: number };
  /** The state stage, against plantstore and against Prism. */
  state: StateTotals;
  prismState: StateTotals;
}

export function totalsOf(results: DocumentResult[]): Totals {
  const t: Totals = {
    documents: results.length,
    loaded: 0,
    probesCorrect: 0,
    probesNotFound: 0,
    probes: 0,
    verifyPassedWithCases: 0,
    verifyOut: 0,
    sigtermOk: 0,
    prismLoaded: 0,
    prismDocuments: 0,
    prismCorrect: 0,
    prismProbes: 0,
    bothLoaded: { documents: 0, plantstoreCorrect: 0, prismCorrect: 0, probes: 0 },
    msw: { documents: 0, errors: 0, probes: 0, agreed: 0, bothValid: 0, unhandled: 0 },
    state: stateTotalsOf(results.map((r) => r.plantstore.state)),
    prismState: stateTotalsOf(results.map((r) => r.prism?.state)),
  };
  for (const r of results) {
    // A document that does not load still owes its operations' probes: they count as missed.
    const owed = r.harnessError ? 0 : r.operations;
    if (r.plantstore.loaded) t.loaded++;
    t.probesCorrect += r.plantstore.correct;
    t.probesNotFound += r.plantstore.notFound;
    t.probes += owed;
    if (r.selfVerify?.exitCode === 0 && r.selfVerify.cases > 0) t.verifyPassedWithCases++;
    if (r.selfVerify?.out !== undefined) t.verifyOut++;
    if (r.sigterm?.ok) t.sigtermOk++;
    if (r.msw) {
      t.msw.documents++;
      if (r.msw.error !== undefined) t.msw.errors++;
      t.msw.probes += r.operations;
      t.msw.agreed += r.msw.agreed;
      t.msw.bothValid += r.msw.bothValid;
      t.msw.unhandled += r.msw.disagreements.filter((d) => d.reason.startsWith('unhandled')).length;
    }
    if (r.prism) {
      t.prismDocuments++;
      if (r.prism.loaded) t.prismLoaded++;
      t.prismCorrect += r.prism.correct;
      t.prismProbes += owed;
      if (r.prism.loaded && r.plantstore.loaded) {
        t.bothLoaded.documents++;
        t.bothLoaded.plantstoreCorrect += r.plantstore.correct;
        t.bothLoaded.prismCorrect += r.prism.correct;
        t.bothLoaded.probes += owed;
      }
    }
  }
  return t;
}

export function formatTotals(t: Totals): string[] {
  const lines = [
    `documents: ${t.documents}`,
    `loaded by plantstore: ${t.loaded}/${t.documents} (bar: all)`,
    `probes answered correctly: ${t.probesCorrect}/${t.probes} = ${pct(t.probesCorrect, t.probes)} (bar: >= 98%; a document that does not load misses all its probes; ${t.probesNotFound} of them a declared 404 for a resource not held)`,
    `self-verify passed with > 0 cases: ${t.verifyPassedWithCases}/${t.documents - t.verifyOut} (bar: all; ${t.verifyOut} out: no operation to verify, verify says so with exit 2)`,
    `SIGTERM within 1 s, loading and listening: ${t.sigtermOk}/${t.documents} (bar: all)`,
  ];
  if (t.prismDocuments > 0) {
    lines.push(
      `prism loaded: ${t.prismLoaded}/${t.prismDocuments}; probes answered correctly: ${t.prismCorrect}/${t.prismProbes} = ${pct(t.prismCorrect, t.prismProbes)}`,
    );
    const b = t.bothLoaded;
    lines.push(
      `on the ${b.documents} documents both loaded: plantstore ${pct(b.plantstoreCorrect, b.probes)}, prism ${pct(b.prismCorrect, b.probes)} of ${b.probes} probes`,
    );
  }
  if (t.msw.documents > 0) {
    const m = t.msw;
    lines.push(
      `msw handlers agree with the engine: ${m.agreed}/${m.probes} = ${pct(m.agreed, m.probes)} of probes on ${m.documents - m.errors}/${m.documents} documents (${m.bothValid} with different bodies both judged correct; ${m.unhandled} unhandled; ${m.errors} documents the stage could not set up)`,
    );
  }
  return lines;
}

/** Each MSW disagreement and set-up error, one indented line each. */
export function mswLines(results: DocumentResult[]): string[] {
  return results.flatMap((r) => [
    ...(r.msw?.error !== undefined ? [`    ${r.name}: (set-up) ${r.msw.error}`] : []),
    ...(r.msw?.disagreements ?? []).map((d) =>
      `    ${r.name}: ${d.operation}: engine ${d.engineStatus ?? '-'}, msw ${d.mswStatus ?? '-'}: ${d.reason}`.slice(
        0,
        300,
      ),
    ),
  ]);
}
