// What `verify` and `merge-reports` share: the reporters their flags ask for, and the exit code a
// whole run earns (a merged run exits as the unsharded run would have).
import type { ReporterTarget } from '../runner/index.ts';
import type { ReporterName } from '../runner/reporters/index.ts';
import { EXIT_UNREACHABLE } from './report-fatal.ts';

export interface ReportFlags {
  reporter: string;
  junit?: string;
  json?: string;
  html?: string;
  exchanges?: string;
}

/** The console reporter on stdout, and one file reporter per --junit, --json, --html and --exchanges. */
export function reportersFor(flags: ReportFlags, progress: boolean): ReporterTarget[] {
  const color = process.stdout.isTTY === true && !process.env.NO_COLOR;
  const reporters: ReporterTarget[] = [
    { name: flags.reporter as ReporterName, stream: process.stdout, color, progress },
  ];
  if (flags.junit) reporters.push({ name: 'junit', file: flags.junit });
  if (flags.json) reporters.push({ name: 'json', file: flags.json });
  if (flags.html) reporters.push({ name: 'html', file: flags.html });
  if (flags.exchanges) reporters.push({ name: 'ndjson', file: flags.exchanges });
  return reporters;
}

/** 0 every case passed; 1 a case failed; 3 the server stopped answering part-way. */
export function exitCodeOfRun(report: { stopped?: unknown; outcome: string }): number {
  if (report.stopped !== undefined) return EXIT_UNREACHABLE;
  return report.outcome === 'passed' ? 0 : 1;
}
