// The reporter registry: every way a report can be rendered, by name. The CLI's --reporter
// choices are this map's keys; --junit, --json and --html are the file forms of three of them.
import type { ReporterFactory } from './reporter.ts';
import { createConsoleReporter } from './console.ts';
import { createHtmlReporter } from './html.ts';
import { createJsonReporter } from './json.ts';
import { createJunitReporter } from './junit.ts';

export type { PlannedOperation, Reporter, ReporterContext, ReporterFactory, RunPlan } from './reporter.ts';

export const REPORTERS = {
  console: createConsoleReporter,
  junit: createJunitReporter,
  json: createJsonReporter,
  html: createHtmlReporter,
} satisfies Record<string, ReporterFactory>;

export type ReporterName = keyof typeof REPORTERS;

export const REPORTER_NAMES = Object.keys(REPORTERS) as ReporterName[];
