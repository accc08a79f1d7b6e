// What a reporter is: the registry (index.ts) lists them, and each reporter implements this.
import type { CaseResult, VerifyReport } from '../report.ts';

export interface ReporterContext {
  write(chunk: string): void;
  /** Colours (a terminal that has not asked for NO_COLOR). */
  color: boolean;
  /** A live progress line (a terminal). */
  progress: boolean;
}

/** An operation of the document, as a report names it. */
export interface PlannedOperation {
  operationId: string;
  method: string;
  path: string;
}

export interface RunPlan {
  total: number;
  target: string;
  spec: string;
  /** The document's operations, in document order (the HTML report lists those no case reached). */
  operations?: PlannedOperation[];
}

/** Receives a run as it happens; everything it gets is already redacted. */
export interface Reporter {
  start?(plan: RunPlan): void;
  caseFinished?(result: CaseResult, done: number, total: number): void;
  end(report: VerifyReport): void;
}

export type ReporterFactory = (context: ReporterContext) => Reporter;
