// Runs cases with at most `concurrency` in flight. Steps inside a case stay in order; cases are
// independent (each has its own {{uniqueId}}). With bail, no case starts after the first failure;
// cases already running finish, and the ones never started are reported as skipped. `stop` ends a
// run the same way, with its own reason (a server that stopped answering: outage.ts).
import type { Case } from '../fixture.ts';
import type { CaseResult } from '../report.ts';

export interface RunCasesOptions {
  concurrency: number;
  bail: boolean;
  run(testCase: Case, index: number): Promise<CaseResult>;
  /** Looks at each finished case; a reason stops the run, and the cases not started are skipped with it. */
  stop?(result: CaseResult): string | undefined;
  /** Called as each case finishes (or is skipped), in the order they finish. */
  onResult(result: CaseResult, done: number, total: number): void;
}

export interface RunCasesResult {
  /** In case order. */
  results: CaseResult[];
  /** Why cases were skipped (--bail, or the `stop` hook's reason); undefined when every case ran. */
  stopped?: string;
}

/** Runs every case (or until stopped). */
export async function runCases(cases: Case[], options: RunCasesOptions): Promise<RunCasesResult> {
  const results: CaseResult[] = new Array(cases.length);
  let next = 0;
  let done = 0;
  let stopped: string | undefined;
  const finish = (index: number, result: CaseResult) => {
    results[index] = result;
    done++;
    options.onResult(result, done, cases.length);
  };
  const worker = async () => {
    while (!stopped && next < cases.length) {
      const index = next++;
      const result = await options.run(cases[index], index);
      stopped ??= options.stop?.(result) ?? (options.bail && result.status === 'failed' ? BAILED : undefined);
      finish(index, result);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, cases.length) }, worker));
  for (let index = 0; index < cases.length; index++) {
    if (results[index] === undefined) finish(index, skipped(cases[index], stopped ?? BAILED));
  }
  return { results, stopped };
}

const BAILED = 'not run: --bail stopped the run at the first failure';

function skipped(testCase: Case, reason: string): CaseResult {
  return {
    id: testCase.id,
    name: testCase.name,
    source: testCase.source,
    status: 'skipped',
    durationMs: 0,
    steps: [],
    failures: 0,
    warnings: 0,
    skipReason: reason,
  };
}
