// Step 3: plantstore's own verifier against the mock it just probed, as a user would run it:
// `plantstore verify --target URL --spec FILE --generate 1`, judged by its exit code and the number
// of cases in its JSON report. It gets the probes' token and credentials for every security scheme
// (--auth), as a user of a secured API would give them.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnTracked, stop } from './processes.ts';
import { PROBE_TOKEN } from './probe-request.ts';

export interface SelfVerifyResult {
  exitCode: number | null;
  cases: number;
  passed: number;
  failed: number;
  /** First failing cases' findings, or why there is no report. */
  problems: string[];
  /**
   * Set when verify said, with exit 2, that the document has nothing to verify (webhooks only): out of the bar, with
   * this reason.
   */
  out?: string;
}

// verify's own words for a document without operations (src/runner/verify.ts).
const NOTHING_TO_VERIFY = /^plantstore: (nothing to verify: .*)$/m;

export async function selfVerify(
  root: string,
  file: string,
  url: string,
  timeoutMs: number,
  auth: string[] = [],
): Promise<SelfVerifyResult> {
  const dir = mkdtempSync(join(tmpdir(), 'corpus-verify-'));
  const report = join(dir, 'report.json');
  const args = [
    join(root, 'bin', 'plantstore.js'),
    'verify',
    '--target',
    url,
    '--spec',
    file,
    '--generate',
    '1',
    '--json',
    report,
    '--timeout',
    '10000',
    '--token',
    PROBE_TOKEN,
    ...auth,
  ];
  const child = spawnTracked(process.execPath, args, root);
  let stderr = '';
  child.stdout!.resume();
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < 20_000) stderr += chunk.toString('utf8');
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stop(child, 2000);
  }, timeoutMs);
  const exitCode = await new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  clearTimeout(timer);
  const result: SelfVerifyResult = { exitCode, cases: 0, passed: 0, failed: 0, problems: [] };
  if (timedOut) result.problems.push(`verify did not finish within ${timeoutMs / 1000} s`);
  try {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    result.cases = json.summary?.total ?? 0;
    result.passed = json.summary?.passed ?? 0;
    result.failed = json.summary?.failed ?? 0;
    for (const c of json.cases ?? []) {
      if (c.status !== 'failed' || result.problems.length >= 5) continue;
      const finding = (c.steps ?? [])
        .flatMap((s: { findings?: { severity: string; code: string; message: string }[] }) => s.findings ?? [])
        .find((f: { severity: string }) => f.severity === 'failure');
      result.problems.push(`${c.name}: ${finding ? `${finding.code}: ${finding.message}` : 'failed'}`.slice(0, 300));
    }
  } catch {
    const out = exitCode === 2 ? NOTHING_TO_VERIFY.exec(stderr)?.[1] : undefined;
    if (out !== undefined) result.out = out;
    else if (!timedOut)
      result.problems.push(
        `no JSON report: ${stderr.split('\n').find((l) => l.trim()) ?? `exit ${exitCode}`}`.slice(0, 300),
      );
  }
  rmSync(dir, { recursive: true, force: true });
  return result;
}
