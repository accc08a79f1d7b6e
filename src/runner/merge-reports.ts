// `plantstore merge-reports`: the JSON reports of the n shards of one run (verify --shard i/n)
// joined into the report the whole run would have made, in the whole run's case order. Parts that
// do not make one run are refused, each with the file to look at: a shard missing or given twice,
// or one run with another seed, document, plantstore version or --strict.
import { readFileSync } from 'node:fs';
import { PlantstoreError } from '../errors.ts';
import { parseJson } from '../json/exact-json.ts';
import { groupFaults } from './run/faults.ts';
import { summarize, type CaseResult, type OperationCoverage, type VerifyReport } from './report.ts';
import type { PlannedOperation } from './reporters/index.ts';
import type { ShardPart } from './shard.ts';
import { openReporter } from './verify.ts';
import type { ReporterTarget } from './verify-options.ts';

type ShardReport = VerifyReport & { shard: ShardPart };

/** The merged run, and the document's operations (for the HTML report's list of those no case reached). */
export interface MergedRun {
  report: VerifyReport;
  operations: PlannedOperation[];
}

/**
 * Reads the shards' JSON reports and joins them; throws SHARD_MISMATCH when they are not the n
 * parts of one run.
 * @example const { report } = mergeReports(['shard-1.json', 'shard-2.json']); report.outcome;
 */
export function mergeReports(files: string[]): MergedRun {
  if (files.length === 0)
    throw mismatch('no report to merge', [
      'Pass the --json report of every shard: plantstore merge-reports reports/*.json',
    ]);
  const parts = files.map((file) => ({ file, report: readShard(file) }));
  const [first] = parts;
  const same = (what: string, read: (report: ShardReport) => unknown) => {
    for (const part of parts.slice(1))
      if (read(part.report) !== read(first.report))
        throw mismatch(
          `${part.file} was run with ${what} ${String(read(part.report))}, ${first.file} with ${what} ` +
            `${String(read(first.report))}`,
          [
            'Every shard of a run must use the same document, seed, options and plantstore version; ' +
              'run them again alike.',
          ],
        );
  };
  same('a shard count of', (r) => r.shard.count);
  same('seed', (r) => r.seed);
  same('the document of hash', (r) => r.documentHash);
  same('plantstore', (r) => r.plantstoreVersion);
  same('--strict', (r) => r.strict);
  same('a case count of', (r) => r.shard.total);

  const { count, total } = first.report.shard;
  const byIndex = new Map<number, string>();
  for (const { file, report } of parts) {
    const twice = byIndex.get(report.shard.index);
    if (twice !== undefined)
      throw mismatch(`shard ${report.shard.index}/${count} is given twice: ${twice} and ${file}`);
    byIndex.set(report.shard.index, file);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0)
    throw mismatch(
      `${missing.map((index) => `shard ${index}/${count}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} ` +
        `missing: got ${[...byIndex.keys()].sort((a, b) => a - b).join(', ')} of ${count}`,
      ['Pass the --json report of every shard; a shard job that failed to write one must be run again.'],
    );

  const cases = new Array<CaseResult | undefined>(total);
  for (const { file, report } of parts) {
    const { positions } = report.shard;
    if (positions.length !== report.cases.length)
      throw mismatch(`${file}: its shard lists ${positions.length} positions for ${report.cases.length} cases`);
    positions.forEach((position, i) => {
      if (!Number.isInteger(position) || position < 0 || position >= total || cases[position] !== undefined)
        throw mismatch(
          `${file}: case ${report.cases[i].id} claims position ${position}, which is out of range or another shard's`,
        );
      cases[position] = report.cases[i];
    });
  }
  const gaps = cases.reduce((n, c) => n + (c === undefined ? 1 : 0), 0);
  if (gaps > 0) throw mismatch(`the shards hold ${total - gaps} of the run's ${total} cases`);

  const results = cases as CaseResult[];
  const starts = parts.map(({ report }) => Date.parse(report.startedAt));
  const start = Math.min(...starts);
  const end = Math.max(...parts.map(({ report }, i) => starts[i] + report.durationMs));
  const summary = summarize(results);
  const stopped = parts.find(({ report }) => report.stopped !== undefined)?.report.stopped;
  const targets = [...new Set(parts.map(({ report }) => report.target))];
  const { shard: _shard, ...head } = first.report;
  const report: VerifyReport = {
    ...head,
    // Each job of a matrix may test its own server: all of them are named.
    target: targets.join(', '),
    startedAt: new Date(start).toISOString(),
    durationMs: end - start,
    outcome: summary.failed > 0 ? 'failed' : 'passed',
    summary,
    ...(stopped !== undefined && { stopped }),
    cases: results,
    uncovered: first.report.uncovered,
    ...mergedFindings(
      parts.map(({ report }) => report),
      results,
    ),
  };
  if (stopped === undefined) delete report.stopped;
  return { report, operations: first.report.shard.operations };
}

/** Renders the merged run to each reporter (the console, --junit/--json/--html files), as verify does. */
export function writeMerged({ report, operations }: MergedRun, reporters: ReporterTarget[]): void {
  const outputs = reporters.map((target) => openReporter(target));
  for (const output of outputs) {
    output.reporter.start?.({ total: report.cases.length, target: report.target, spec: report.spec, operations });
    output.reporter.end(report);
    output.close();
  }
}

function readShard(file: string): ShardReport {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw mismatch(
      `cannot read ${file}: ` +
        `${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
  const parsed = parseJson(text);
  const report = parsed.ok ? (parsed.value as unknown as Partial<ShardReport>) : undefined;
  if (!report || typeof report !== 'object' || report.reportVersion !== 1 || !Array.isArray(report.cases))
    throw mismatch(`${file} is not a plantstore verify --json report${parsed.ok ? '' : ` (${parsed.message})`}`);
  if (report.shard === undefined)
    throw mismatch(`${file} is the report of a whole run, not of a shard`, [
      'Run each job with verify --shard i/n --json FILE, then merge those files.',
    ]);
  return report as ShardReport;
}

const mismatch = (message: string, details: string[] = []) =>
  new PlantstoreError('SHARD_MISMATCH', `merge-reports: ${message}`, details);

/**
 * The distinct faults of the whole run (each part's shrunk request kept), its coverage table and warnings, from the
 * parts'.
 */
function mergedFindings(
  reports: VerifyReport[],
  results: CaseResult[],
): Pick<VerifyReport, 'faults' | 'coverage' | 'warnings'> {
  const shrunk = new Map(
    reports.flatMap((report) =>
      (report.faults ?? []).filter((fault) => fault.shrunk).map((fault) => [fault.key, fault.shrunk!]),
    ),
  );
  const faults = groupFaults(results).map((fault) =>
    shrunk.has(fault.key) ? { ...fault, shrunk: shrunk.get(fault.key) } : fault,
  );
  const rank = { 'not-reached': 0, reached: 1, failed: 2 } as const;
  const coverage = new Map<string, OperationCoverage>();
  for (const row of reports.flatMap((report) => report.coverage ?? [])) {
    const seen = coverage.get(row.operationId);
    if (!seen) {
      coverage.set(row.operationId, { ...row, statuses: { ...row.statuses }, undeclared: [...row.undeclared] });
      continue;
    }
    seen.requests += row.requests;
    for (const [status, state] of Object.entries(row.statuses))
      if (rank[state] > rank[seen.statuses[status] ?? 'not-reached']) seen.statuses[status] = state;
    for (const status of row.undeclared) if (!seen.undeclared.includes(status)) seen.undeclared.push(status);
  }
  const warnings = [...new Set(reports.flatMap((report) => report.warnings ?? []))];
  return { faults, coverage: [...coverage.values()], warnings };
}
