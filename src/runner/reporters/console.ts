// A short run: one line per case as it finishes, below a failure its diff and a curl command. A
// long run (PROGRESS_FROM cases or more): on a terminal one live progress line (cases done,
// distinct faults so far, time left) instead of a line per case; elsewhere (a CI log) the case
// lines without their details. Either way the run ends with its distinct faults, one line each
// with its count and the smallest request that shows it as curl, and a closing summary.
import type { CaseResult, VerifyReport } from '../report.ts';
import { coverageTotals } from '../run/coverage.ts';
import { faultOf, type Fault } from '../run/faults.ts';
import {
  answerLines,
  caseDetails,
  findingLines,
  requestLine,
  type DetailKind,
  type DetailLine,
} from './case-details.ts';
import type { Reporter, ReporterContext } from './reporter.ts';

/** Runs shorter than this many cases finish before a progress line would help. */
const PROGRESS_FROM = 20;

const COLORS: Record<DetailKind | 'PASS' | 'FAIL' | 'WARN' | 'SKIP', [number, number]> = {
  PASS: [32, 39],
  FAIL: [31, 39],
  WARN: [33, 39],
  SKIP: [90, 39],
  heading: [1, 22],
  step: [90, 39],
  failure: [31, 39],
  warning: [33, 39],
  expected: [32, 39],
  actual: [31, 39],
  curl: [90, 39],
};

export function createConsoleReporter(context: ReporterContext): Reporter {
  const paint = (kind: keyof typeof COLORS, text: string) =>
    context.color ? `\u001b[${COLORS[kind][0]}m${text}\u001b[${COLORS[kind][1]}m` : text;
  let progressShown = false;
  let passed = 0;
  let failed = 0;
  const seenFaults = new Set<string>();
  const started = Date.now();
  const clearProgress = () => {
    if (progressShown) context.write('\r\u001b[K');
    progressShown = false;
  };
  return {
    start(plan) {
      context.write(`plantstore verify: ${plan.total} case${plan.total === 1 ? '' : 's'} against ${plan.target}\n`);
    },
    caseFinished(result, done, total) {
      clearProgress();
      if (result.status === 'passed') passed++;
      if (result.status === 'failed') failed++;
      for (const step of result.steps)
        for (const finding of step.findings) {
          if (finding.severity !== 'failure') continue;
          const { operationId, check, signature } = faultOf(result, step, finding);
          seenFaults.add(`${operationId} | ${check} | ${signature}`);
        }
      const long = total >= PROGRESS_FROM;
      if (!(long && context.progress)) {
        context.write(caseLine(result, paint));
        if (result.status !== 'skipped' && !long) {
          for (const line of caseDetails(result)) context.write(`      ${paint(line.kind, line.text)}\n`);
        }
      }
      if (context.progress && long && done < total) {
        const left = ((Date.now() - started) / done) * (total - done);
        context.write(
          `[${done}/${total}] ${passed} passed, ${failed} failed, ${seenFaults.size} distinct ` +
            `fault${seenFaults.size === 1 ? '' : 's'}, about ${Math.ceil(left / 1000)} s left`,
        );
        progressShown = true;
      }
    },
    end(report) {
      clearProgress();
      const { summary } = report;
      const parts = [`${summary.passed} passed`, `${summary.failed} failed`];
      if (summary.warned > 0) parts.push(`${summary.warned} with warnings`);
      if (summary.skipped > 0) parts.push(`${summary.skipped} skipped`);
      const verdict = report.outcome === 'passed' ? paint('PASS', 'PASSED') : paint('FAIL', 'FAILED');
      for (const warning of report.warnings ?? []) context.write(`\n${paint('WARN', 'WARN')}  ${warning}\n`);
      writeFaults(report, context.write, paint);
      if (report.uncovered.length > 0) {
        context.write(
          `\n${report.uncovered.length} operation${report.uncovered.length === 1 ? '' : 's'} got no generated case:\n`,
        );
        for (const item of report.uncovered)
          context.write(
            `  ${paint('SKIP', 'NONE')}  ${item.method} ${item.path} (${item.operationId}): ${item.reason}\n`,
          );
      }
      context.write(
        `\n${verdict}: ${parts.join(', ')} of ${summary.total} (${(report.durationMs / 1000).toFixed(1)} s)\n`,
      );
      const closing = closingSummary(report);
      if (closing) context.write(`${closing}\n`);
      if (report.stopped !== undefined) context.write(`Stopped early, ${report.stopped}\n`);
      if (summary.warned > 0 && !report.strict)
        context.write(
          'Warnings are documented off-contract statuses (401, 404, 405, 415) and undeclared 4xx answers to ' +
            'invalid requests; --strict makes them failures.\n',
        );
    },
  };
}

function caseLine(
  result: CaseResult,
  paint: (kind: 'PASS' | 'FAIL' | 'WARN' | 'SKIP', text: string) => string,
): string {
  const label =
    result.status === 'failed' ? 'FAIL' : result.status === 'skipped' ? 'SKIP' : result.warnings > 0 ? 'WARN' : 'PASS';
  const why = result.status === 'skipped' ? `  (${result.skipReason ?? 'not run'})` : `  (${result.durationMs} ms)`;
  const where = result.source === 'generated' ? '' : `  ${result.source}`;
  return `${paint(label, label)}  ${result.name}${why}${where}\n`;
}

/**
 * The distinct faults, failures first: one line each with its count, then its first message and the smallest request
 * as curl.
 */
function writeFaults(
  report: VerifyReport,
  write: (chunk: string) => void,
  paint: (kind: keyof typeof COLORS, text: string) => string,
): void {
  const faults = report.faults ?? [];
  if (faults.length === 0) return;
  const failures = faults.filter((fault) => fault.severity === 'failure');
  const warnings = faults.length - failures.length;
  write(
    `\n${paint('heading', `Distinct faults: ${failures.length}`)}` +
      `${warnings > 0 ? ` (and ${warnings} distinct warning${warnings === 1 ? '' : 's'})` : ''}\n`,
  );
  const byId = new Map(report.cases.map((result) => [result.id, result]));
  for (const fault of faults) {
    const label = fault.severity === 'failure' ? paint('FAIL', 'FAIL') : paint('WARN', 'WARN');
    write(`${label}  ${faultTitle(fault)}  ×${fault.count}\n`);
    if (fault.severity !== 'failure') continue;
    // The first case that showed it: its request, this fault's finding (the others of the same
    // fault in that answer counted, not repeated), the diff, the answer and curl ...
    for (const line of faultLines(fault, byId.get(fault.example.caseId)))
      write(`      ${paint(line.kind, line.text)}\n`);
    // ... and the smallest request that still shows it, when shrinking made it smaller.
    if (fault.shrunk?.curl && fault.shrunk.curl !== fault.example.curl)
      write(`      ${paint('heading', 'smallest:')} ${paint('curl', fault.shrunk.curl)}\n`);
  }
}

function faultLines(fault: Fault, example: CaseResult | undefined): DetailLine[] {
  // A sequence is shown whole: the steps that passed are how the server got there.
  if (example && example.steps.length > 1) return caseDetails(example, 'failures');
  for (const step of example?.steps ?? []) {
    const mine = step.findings.filter((finding) => {
      if (finding.severity !== 'failure') return false;
      const { operationId, check, signature } = faultOf(example!, step, finding);
      return `${operationId} | ${check} | ${signature}` === fault.key;
    });
    if (mine.length === 0) continue;
    const lines: DetailLine[] = [{ kind: 'heading', text: requestLine(step) }, ...findingLines(mine[0])];
    if (mine.length > 1)
      lines.push({ kind: 'failure', text: `  (and ${mine.length - 1} more like it in this answer)` });
    if (step.response) lines.push(...answerLines(step.response));
    if (step.curl) lines.push({ kind: 'curl', text: step.curl });
    return lines;
  }
  return [{ kind: 'failure', text: fault.example.message }];
}

function faultTitle(fault: Fault): string {
  if (fault.operationId === '*')
    return (
      `${fault.check === 'off-contract-status' ? '' : `${fault.check}  `}${fault.signature}, on ` +
      `${fault.operations.length} operation${fault.operations.length === 1 ? '' : 's'}`
    );
  return `${fault.operationId}  ${fault.check}  ${fault.signature}`;
}

/** "3 distinct faults in 499 cases; operations reached 34 of 34; declared statuses reached 34 of 34; 12.3 s" */
function closingSummary(report: VerifyReport): string | undefined {
  if (!report.coverage || report.coverage.length === 0) return undefined;
  const faults = (report.faults ?? []).filter((fault) => fault.severity === 'failure').length;
  const totals = coverageTotals(report.coverage);
  return (
    `${faults} distinct fault${faults === 1 ? '' : 's'} in ${report.summary.total} cases; operations reached: ` +
    `${totals.reachedOperations} of ${totals.operations} declared; declared statuses reached: ` +
    `${totals.reachedStatuses} of ${totals.statuses}; ${(report.durationMs / 1000).toFixed(1)} s`
  );
}
