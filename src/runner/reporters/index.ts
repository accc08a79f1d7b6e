// The reporter registry: every way a report can be rendered, by name. The CLI's --reporter
// choices are this map's keys; --junit, --json, --html and --exchanges are the file forms of four of them.
import type { ReporterFactory } from './reporter.ts';
import { createConsoleReporter } from './console.ts';
import { createHtmlReporter } from './html.ts';
import { createJsonReporter } from './json.ts';
import { createJunitReporter } from './junit.ts';
import { createNdjsonReporter } from './ndjson.ts';

export type { PlannedOperation, Reporter, ReporterContext, ReporterFactory, RunPlan } from './reporter.ts';

export const REPORTERS = {
  console: createConsoleReporter,
  junit: createJunitReporter,
  json: createJsonReporter,
  html: createHtmlReporter,
  ndjson: createNdjsonReporter,
} satisfies Record<string, ReporterFactory>;

export type ReporterName = keyof typeof REPORTERS;

export const REPORTER_NAMES = Object.keys(REPORTERS) as ReporterName[];
