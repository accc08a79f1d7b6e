// The console reporter: on long runs in a terminal one progress line instead of the case lines,
// cleared at the end; the case lines and no progress line when the output is not a terminal.
import { describe, expect, it } from 'vitest';
import { REPORTERS, type VerifyReport } from '../../src/runner/index.ts';
import type { CaseResult } from '../../src/runner/report.ts';

const result = (index: number): CaseResult => ({
  id: `c${index}`,
  name: `case ${index}`,
  source: 'generated',
  status: 'passed',
  durationMs: 1,
  steps: [],
  failures: 0,
  warnings: 0,
});
const cases = Array.from({ length: 25 }, (_, i) => result(i + 1));
const report: VerifyReport = {
  reportVersion: 1,
  target: 'http://h/',
  spec: 's',
  seed: 1,
  strict: false,
  startedAt: '',
  durationMs: 10,
  outcome: 'passed',
  summary: { total: 25, passed: 25, failed: 0, skipped: 0, warned: 0 },
  cases,
  uncovered: [],
};

function render(progress: boolean): string {
  let out = '';
  const reporter = REPORTERS.console({ write: (chunk) => (out += chunk), color: false, progress });
  reporter.start?.({ total: 25, target: 'http://h/', spec: 's' });
  cases.forEach((c, i) => reporter.caseFinished?.(c, i + 1, 25));
  reporter.end(report);
  return out;
}

describe('the console reporter', () => {
  it('shows one live progress line on a terminal instead of a line per case, and clears it', () => {
    const out = render(true);
    expect(out).toMatch(/\[24\/25\] 24 passed, 0 failed, 0 distinct faults, about \d+ s left/);
    expect(out).toContain('\r\u001b[K');
    expect(out.split('\n').filter((line) => line.includes('PASS  case'))).toHaveLength(0);
    expect(out.endsWith('\n')).toBe(true);
  });

  it('writes no progress line when the output is not a terminal', () => {
    const out = render(false);
    expect(out).not.toContain('\r');
    expect(out.split('\n').filter((line) => line.startsWith('PASS  case'))).toHaveLength(25);
  });
});
