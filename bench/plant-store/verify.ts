// The conformance runner's rate: cases per second of `plantstore verify --generate N` against a
// fresh mock (each on its own core), read next to the load generator's raw req/s against the same mock.
// The runner does far more per case (build, check the contract, compare) and runs one case at a
// time by default, so the ratio says how much of the mock's capacity a verification uses.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LOAD_CORE } from '../lib/processes.ts';
import { runCli } from '../lib/plantstore-cli.ts';
import { startServer } from '../lib/server.ts';
import { SERVERS } from './servers.ts';

export interface VerifyResult {
  generate?: number;
  cases?: number;
  outcome?: string;
  /** The runner's own duration (its report's durationMs), without the CLI's start-up. */
  runnerMs?: number;
  wallMs?: number;
  casesPerSecond?: number;
  wallCasesPerSecond?: number;
  skipped?: string;
}

export async function measureVerify(generate: number, resultsDir: string): Promise<VerifyResult> {
  const mock = SERVERS.find((s) => s.name === 'plantstore');
  if (!mock) throw new Error('no plantstore server definition');
  const server = await startServer(mock, { logFile: join(resultsDir, 'logs', 'plantstore-verify.log') });
  const reportFile = join(resultsDir, 'verify-report.json');
  rmSync(reportFile, { force: true });
  try {
    const run = await runCli(
      [
        'verify',
        '--target',
        server.url,
        '--token',
        'bench-token',
        '--generate',
        String(generate),
        '--seed',
        '1',
        '--json',
        reportFile,
      ],
      { core: LOAD_CORE },
    );
    let report: { durationMs?: number; outcome?: string; cases?: unknown[] };
    try {
      report = JSON.parse(readFileSync(reportFile, 'utf8')) as typeof report;
    } catch {
      return {
        skipped: `skipped: verify wrote no JSON report (exit ${run.code}): ${run.stderr.trim().split('\n')[0] ?? ''}`,
      };
    }
    const cases = report.cases?.length ?? 0;
    const runnerMs = report.durationMs ?? run.wallMs;
    return {
      generate,
      cases,
      outcome: report.outcome,
      runnerMs,
      wallMs: run.wallMs,
      casesPerSecond: cases / (runnerMs / 1000),
      wallCasesPerSecond: cases / (run.wallMs / 1000),
    };
  } finally {
    await server.stop();
  }
}
