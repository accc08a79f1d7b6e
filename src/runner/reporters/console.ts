// One line per case as it finishes; below a failure, its diff and a curl command. On a terminal
// a progress line sits under the case lines during long runs and is cleared at the end.
import type { CaseResult } from '../report.ts';
import { caseDetails, type DetailKind } from './case-details.ts';
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
  const paint = (kind: keyof typeof COLORS, text: string) => (context.color ? `\u001b[${COLORS[kind][0]}m${text}\u001b[${COLORS[kind][1]}m` : text);
  let progressShown = false;
  let passed = 0;
  let failed = 0;
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
      context.write(caseLine(result, paint));
      if (result.status !== 'skipped') {
        for (const line of caseDetails(result)) context.write(`      ${paint(line.kind, line.text)}\n`);
      }
      if (context.progress && total >= PROGRESS_FROM && done < total) {
        context.write(`[${done}/${total}] ${passed} passed, ${failed} failed`);
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
      if (report.uncovered.length > 0) {
        context.write(`\n${report.uncovered.length} operation${report.uncovered.length === 1 ? '' : 's'} got no generated case:\n`);
        for (const item of report.uncovered) context.write(`  ${paint('SKIP', 'NONE')}  ${item.method} ${item.path} (${item.operationId}): ${item.reason}\n`);
      }
      context.write(`\n${verdict}: ${parts.join(', ')} of ${summary.total} (${(report.durationMs / 1000).toFixed(1)} s)\n`);
      if (report.stopped !== undefined) context.write(`Stopped early, ${report.stopped}\n`);
      if (summary.warned > 0 && !report.strict)
        context.write(
          'Warnings are documented off-contract statuses (401, 404, 405, 415) and undeclared 4xx answers to invalid requests; --strict makes them failures.\n',
        );
    },
  };
}

function caseLine(result: CaseResult, paint: (kind: 'PASS' | 'FAIL' | 'WARN' | 'SKIP', text: string) => string): string {
  const label = result.status === 'failed' ? 'FAIL' : result.status === 'skipped' ? 'SKIP' : result.warnings > 0 ? 'WARN' : 'PASS';
  const why = result.status === 'skipped' ? `  (${result.skipReason ?? 'not run'})` : `  (${result.durationMs} ms)`;
  const where = result.source === 'generated' ? '' : `  ${result.source}`;
  return `${paint(label, label)}  ${result.name}${why}${where}\n`;
}
