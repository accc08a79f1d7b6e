// Runs cases with at most `concurrency` in flight. Steps inside a case stay in order; cases are
// independent (each has its own {{uniqueId}}). With bail, no case starts after the first failure;
// cases already running finish, and the ones never started are reported as skipped.
import type { Case } from './fixture.ts';
import type { CaseResult } from './report.ts';

export interface RunCasesOptions {
  concurrency: number;
  bail: boolean;
  run(testCase: Case, index: number): Promise<CaseResult>;
  /** Called as each case finishes (or is skipped), in the order they finish. */
  onResult(result: CaseResult, done: number, total: number): void;
}

/** Runs every case; the results come back in case order. */
export async function runCases(cases: Case[], options: RunCasesOptions): Promise<CaseResult[]> {
  const results: CaseResult[] = new Array(cases.length);
  let next = 0;
  let done = 0;
  let stopped = false;
  const finish = (index: number, result: CaseResult) => {
    results[index] = result;
    done++;
    options.onResult(result, done, cases.length);
  };
  const worker = async () => {
    while (!stopped && next < cases.length) {
      const index = next++;
      const result = await options.run(cases[index], index);
      if (options.bail && result.status === 'failed') stopped = true;
      finish(index, result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, cases.length) }, worker));
  for (let index = 0; index < cases.length; index++) {
    if (results[index] === undefined) finish(index, skipped(cases[index]));
  }
  return results;
}

function skipped(testCase: Case): CaseResult {
  return { id: testCase.id, name: testCase.name, source: testCase.source, status: 'skipped', durationMs: 0, steps: [], failures: 0, warnings: 0, skipReason: 'not run: --bail stopped the run at the first failure' };
}
