// The reporter registry: every way a report can be rendered, by name. The CLI's --reporter
// choices are this map's keys; --junit, --json and --html are the file forms of three of them.
import type { CaseResult, VerifyReport } from '../report.ts';
import { createConsoleReporter } from './console.ts';
import { createHtmlReporter } from './html.ts';
import { createJsonReporter } from './json.ts';
import { createJunitReporter } from './junit.ts';

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

export const REPORTERS = {
  console: createConsoleReporter,
  junit: createJunitReporter,
  json: createJsonReporter,
  html: createHtmlReporter,
} satisfies Record<string, ReporterFactory>;

export type ReporterName = keyof typeof REPORTERS;

export const REPORTER_NAMES = Object.keys(REPORTERS) as ReporterName[];
