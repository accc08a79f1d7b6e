// What a run reached: every declared operation, with its declared statuses, each marked reached
// (an answer with that status, judged without a failure), failed (an answer with that status
// and a failure), or not reached. Statuses the server answered but the operation does not
// declare are listed apart. Every declared operation is in the table, reached or not.
import type { Operation } from '../../document/operations.ts';
import type { CaseResult, CellState, OperationCoverage } from '../report.ts';

export type { CellState, OperationCoverage } from '../report.ts';

/** The coverage table of a run, in document order. */
export function coverageOf(operations: Operation[], results: CaseResult[]): OperationCoverage[] {
  const table = new Map<string, OperationCoverage>();
  for (const operation of operations) {
    const statuses: Record<string, CellState> = {};
    for (const response of operation.responses) statuses[response.status] = 'not-reached';
    table.set(operation.id, {
      operationId: operation.id,
      method: operation.method,
      path: operation.path,
      statuses,
      undeclared: [],
      requests: 0,
    });
  }
  for (const result of results) {
    for (const step of result.steps) {
      const row = step.operationId === undefined ? undefined : table.get(step.operationId);
      if (!row || !step.response) continue;
      row.requests++;
      const status = step.response.status;
      const cell = declaredCell(row.statuses, status);
      if (cell === undefined) {
        if (!row.undeclared.includes(status)) row.undeclared.push(status);
        continue;
      }
      const failed = step.findings.some((finding) => finding.severity === 'failure');
      if (failed) row.statuses[cell] = 'failed';
      else if (row.statuses[cell] === 'not-reached') row.statuses[cell] = 'reached';
    }
  }
  return [...table.values()];
}

/** The declared status an answer counts for: its code, else its class (4XX), else default. */
function declaredCell(statuses: Record<string, CellState>, status: number): string | undefined {
  const code = String(status);
  if (code in statuses) return code;
  const range = `${code[0]}XX`;
  const found = Object.keys(statuses).find((key) => key.toUpperCase() === range);
  if (found) return found;
  return 'default' in statuses ? 'default' : undefined;
}

/** Totals for the closing summary: operations declared and reached, declared statuses and those reached. */
export function coverageTotals(table: OperationCoverage[]): {
  operations: number;
  reachedOperations: number;
  statuses: number;
  reachedStatuses: number;
} {
  let statuses = 0;
  let reachedStatuses = 0;
  for (const row of table) {
    const cells = Object.values(row.statuses);
    statuses += cells.length;
    reachedStatuses += cells.filter((cell) => cell !== 'not-reached').length;
  }
  return {
    operations: table.length,
    reachedOperations: table.filter((row) => row.requests > 0).length,
    statuses,
    reachedStatuses,
  };
}
