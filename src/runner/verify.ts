// The conformance runner's entry point: load the document and the cases, send every request,
// judge every answer, hand the redacted results to the reporters, return the report.
import { existsSync, mkdirSync, statSync, writeFileSync, closeSync, openSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PlantstoreError } from '../errors.ts';
import { loadAuditedSpec } from '../example/load-audited-spec.ts';
import { listOperations } from '../document/operations.ts';
import { createRouter } from '../document/router.ts';
import { createValidators } from '../validation/validator.ts';
import { authSecrets, checkAuth } from './generate/credentials.ts';
import type { Case } from './fixture.ts';
import { generateCases } from './generate/generated-cases.ts';
import { createHttpClient, type HttpClient } from './run/http-client.ts';
import { loadFixtures } from './load-fixtures.ts';
import { createOutageWatch, OUTAGE_LIMIT } from './run/outage.ts';
import { LIVENESS_TIMEOUT_MS } from './defaults.ts';
import { createRedactor, credentialNames, isCredentialHeader, redactUrl, type Redactor } from './run/redact.ts';
import { summarize, type CaseResult, type UncoveredOperation, type VerifyReport } from './report.ts';
import { REPORTERS, type Reporter } from './reporters/index.ts';
import { runCase, type CaseContext } from './run/run-case.ts';
import { runCases } from './run/run-cases.ts';
import { coverageOf } from './run/coverage.ts';
import { groupFaults, type Fault } from './run/faults.ts';
import { shrinkFaults } from './run/shrink.ts';
import type { Operation } from '../document/operations.ts';
import { stringsIn, variablesIn } from './run/variables.ts';
import { documentHash } from '../document/document-hash.ts';
import { plantstoreVersion } from './plantstore-version.ts';
import { shardPositions, type ShardPart } from './shard.ts';
import { resolveVerifyOptions, type ReporterTarget, type VerifyInput } from './verify-options.ts';

/**
 * Verifies the server at `target` against the document: replays the fixtures, runs the generated
 * cases, and returns the report (it throws only for usage and configuration errors, and with
 * TARGET_UNREACHABLE when no connection to the target can be made).
 * @example const report = await verify({ target: 'http://127.0.0.1:4010', token: 'secret' }); report.outcome ===
 * 'passed';
 */
export async function verify(input: VerifyInput): Promise<VerifyReport> {
  const options = resolveVerifyOptions(input);
  const spec = await loadAuditedSpec(options.spec, { remoteRefs: options.remoteRefs });
  const operations = listOperations(spec);
  const validators = createValidators(spec);
  checkAuth(options.auth, spec.document.components?.securitySchemes ?? {});
  const generated = await generateCases(spec, operations, validators, {
    count: options.generate,
    seed: options.seed,
    auth: options.auth,
    hostile: options.hostile,
  });
  const all = [...(options.fixtures.length > 0 ? loadFixtures(options.fixtures) : []), ...generated.cases];
  const whole = select(all, options.filter);
  if (whole.length === 0)
    throw operations.length === 0 && options.fixtures.length === 0
      ? noOperation(spec.document)
      : nothingToRun(operations.length, generated.uncovered);
  // --shard i/n: this job's part; each case keeps its whole-run position (and so its {{uniqueId}}).
  const positions = options.shard ? shardPositions(whole, options.shard) : whole.map((_, position) => position);
  const cases = options.shard ? positions.map((position) => whole[position]) : whole;
  if (options.token === undefined) requireToken(cases);

  const credentialHeaders = Object.entries(options.headers)
    .filter(([name]) => isCredentialHeader(name))
    .map(([, value]) => value);
  // Credentials are redacted by place (run-case.ts); this catches long ones a server echoes back.
  const redact = createRedactor([
    options.token,
    ...credentialHeaders,
    ...authSecrets(options.auth),
    decodeURIComponent(options.targetUrl.password),
  ]);
  const names = credentialNames(operations.flatMap((operation) => operation.security.flat()));
  const outputs = options.reporters.map((target) => openReporter(target));
  const client = createHttpClient({
    timeoutMs: options.timeoutMs,
    maxResponseBytes: options.maxResponseBytes,
    ca: options.caPem,
  });
  await reachable(client, options.targetUrl, Math.min(options.timeoutMs, PROBE_TIMEOUT_MS), redact);
  const context: CaseContext = {
    target: options.targetUrl,
    client,
    route: createRouter(operations),
    validators,
    strict: options.strict,
    token: options.token,
    headers: options.headers,
    redact,
    credentialNames: names,
    operations: new Map(operations.map((operation) => [operation.id, operation])),
    document: spec.document,
    ...(options.maxResponseTimeMs > 0 && { maxResponseTimeMs: options.maxResponseTimeMs }),
  };
  const warnings = [...lookAlikePaths(operations), ...generated.warnings];
  const startedAt = new Date();
  const target = redact(redactUrl(options.targetUrl).href);
  for (const output of outputs)
    output.reporter.start?.({
      total: cases.length,
      target,
      spec: spec.file,
      operations: operations.map((op) => ({ operationId: op.id, method: op.method, path: op.path })),
    });

  let results: CaseResult[];
  const outage = createOutageWatch();
  let stopped: string | undefined;
  let timeLimited = false;
  // Time-outs in a row, in the order cases finish: at OUTAGE_LIMIT the server is asked whether it answers anything at
  // all.
  let timeoutsInARow = 0;
  const hungAlone = new Set<string>();
  const deadline = options.timeLimitMs > 0 ? startedAt.getTime() + options.timeLimitMs : Infinity;
  let faults: Fault[] = [];
  try {
    ({ results } = await runCases(cases, {
      concurrency: options.concurrency,
      bail: options.bail,
      stop: (result) => {
        if (Date.now() > deadline) {
          timeLimited = true;
          return `not run: --time-limit ${options.timeLimitMs / 1000} s was reached`;
        }
        const found = outage(result, hungAlone.has(result.id));
        stopped ??= found?.stopped;
        return found?.skip;
      },
      run: async (testCase, index) => {
        const result = await runSafely(testCase, context, options.uniqueIdBase + BigInt(positions[index]));
        timeoutsInARow = timedOut(result) ? timeoutsInARow + 1 : 0;
        if (
          timeoutsInARow >= OUTAGE_LIMIT &&
          (await stillAnswers(client, options.targetUrl, Math.min(options.timeoutMs, LIVENESS_TIMEOUT_MS)))
        ) {
          timeoutsInARow = 0;
          hungAlone.add(result.id);
          for (const finding of result.steps.flatMap((step) => step.findings))
            if (finding.code === 'timeout')
              finding.message += '; the server still answers other requests, so this input hung it';
        }
        return result;
      },
      onResult: (result, done, total) => {
        for (const output of outputs) output.reporter.caseFinished?.(result, done, total);
      },
    }));
    faults = groupFaults(results);
    if (options.shrink && stopped === undefined) {
      const byId = new Map(cases.map((testCase) => [testCase.id, testCase]));
      let shrinkIndex = 0;
      // Shrinking gets what is left of --time-limit, and at most as long again as the run took.
      const shrinkDeadline = Math.min(deadline, Date.now() + Math.max(Date.now() - startedAt.getTime(), 5000));
      await shrinkFaults(
        faults,
        byId,
        (testCase) => runSafely(testCase, context, options.uniqueIdBase + BigInt(whole.length + ++shrinkIndex)),
        shrinkDeadline,
      );
    }
  } finally {
    await client.close();
  }
  if (timeLimited)
    warnings.push(`--time-limit ${options.timeLimitMs / 1000} s cut the run: the cases not started are skipped`);
  const summary = summarize(results);
  const shard: ShardPart | undefined = options.shard && {
    ...options.shard,
    total: whole.length,
    positions,
    operations: operations.map((op) => ({ operationId: op.id, method: op.method, path: op.path })),
  };
  const report: VerifyReport = redact({
    reportVersion: 1,
    target,
    spec: spec.file,
    documentHash: documentHash(spec),
    plantstoreVersion: plantstoreVersion(),
    ...(shard && { shard }),
    seed: options.seed,
    strict: options.strict,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    outcome: summary.failed > 0 ? 'failed' : 'passed',
    summary,
    ...(stopped !== undefined && { stopped }),
    cases: results,
    uncovered: generated.uncovered,
    faults,
    coverage: coverageOf(operations, results),
    warnings,
  });
  for (const output of outputs) {
    output.reporter.end(report);
    output.close();
  }
  return report;
}

function timedOut(result: CaseResult): boolean {
  return result.steps.some((step) => step.findings.some((finding) => finding.code === 'timeout'));
}

/** Any answer at all to a plain GET of the target's base path: the server's loop still runs. */
async function stillAnswers(client: HttpClient, target: URL, timeoutMs: number): Promise<boolean> {
  const outcome = await client.send(
    target,
    { method: 'GET', path: target.pathname, query: '', headers: {}, body: '' },
    timeoutMs,
  );
  return outcome.ok || outcome.status !== undefined;
}

/**
 * Paths that differ only in their parameters' names (/countries/{country} and
 * /countries/{countries}) are one path to a server, which OpenAPI forbids. Both stay operations
 * of their own, judged as what each case was built for; the document's ambiguity is said once.
 */
function lookAlikePaths(operations: Operation[]): string[] {
  const byShape = new Map<string, Set<string>>();
  for (const operation of operations) {
    const shape = `${operation.method} ${operation.path.replace(/\{[^}]+\}/g, '{}')}`;
    byShape.set(shape, (byShape.get(shape) ?? new Set()).add(operation.path));
  }
  return [...byShape]
    .filter(([, paths]) => paths.size > 1)
    .map(
      ([shape, paths]) =>
        `${shape.split(' ')[0]} ${[...paths].join(' and ')} differ only in their parameters' names (OpenAPI ` +
        `forbids it): a server cannot tell them apart; each is judged as the operation its cases were built for`,
    );
}

/** The longest the reachability check waits for a connection (a few seconds, whatever --timeout is). */
const PROBE_TIMEOUT_MS = 5000;

// A server that is down is said once, before any case runs, instead of failing every case with
// the same refusal; it is an error of its own (exit 3 in the CLI), not a broken contract.
async function reachable(client: HttpClient, target: URL, timeoutMs: number, redact: Redactor): Promise<void> {
  const probe = await client.probe(target, timeoutMs);
  if (probe.ok) return;
  await client.close();
  throw new PlantstoreError(
    'TARGET_UNREACHABLE',
    redact(`cannot reach ${redactUrl(target).origin}: ${probe.message}`),
    [
      probe.code === 'tls-error'
        ? 'No case was run.'
        : 'No case was run. Start the server, or point --target at where it listens.',
    ],
  );
}

function select(cases: Case[], filter: string[]): Case[] {
  if (filter.length === 0) return cases;
  const needles = filter.map((f) => f.toLowerCase());
  const selected = cases.filter((c) =>
    needles.some((needle) => c.name.toLowerCase().includes(needle) || c.id.toLowerCase().includes(needle)),
  );
  if (selected.length === 0) {
    throw new PlantstoreError('USAGE', `no case matches --filter ${filter.map((f) => JSON.stringify(f)).join(', ')}`, [
      `There are ${cases.length} cases, e.g. ${cases
        .slice(0, 3)
        .map((c) => JSON.stringify(c.name))
        .join(', ')}.`,
    ]);
  }
  return selected;
}

// A run that checks nothing must not look like a pass (exit 0): it is a usage error, with the reasons.
function nothingToRun(operationCount: number, uncovered: UncoveredOperation[]): PlantstoreError {
  const shown = uncovered.slice(0, 10).map((u) => `${u.method} ${u.path} (${u.operationId}): ${u.reason}`);
  if (uncovered.length > shown.length) shown.push(`… and ${uncovered.length - shown.length} more`);
  return new PlantstoreError(
    'USAGE',
    `nothing to run: no fixtures, and none of the document's ${operationCount} ` +
      `operation${operationCount === 1 ? '' : 's'} got a generated case`,
    [...shown, 'Pass --fixtures PATH, or the credentials the operations need (--token, --auth NAME=VALUE).'],
  );
}

// A document of webhooks alone (OpenAPI 3.1) or of components alone describes no request the
// server answers: there is nothing to verify, which is said plainly rather than as a missing flag.
function noOperation(document: { webhooks?: Record<string, unknown> }): PlantstoreError {
  const webhooks = Object.keys(document.webhooks ?? {}).length;
  const what =
    webhooks > 0
      ? `only ${webhooks} webhook${webhooks === 1 ? '' : 's'}, requests the API sends rather than answers`
      : 'no webhooks either';
  return new PlantstoreError('USAGE', `nothing to verify: the document declares no operation under paths (${what})`, [
    'verify checks the answers a server gives to the operations under paths; add paths to the document, or pass ' +
      '--fixtures PATH.',
  ]);
}

// Asking for the token up front beats failing every authenticated case with the same message.
function requireToken(cases: Case[]): void {
  const users = cases.filter((c) => stringsIn(c.steps).some((text) => variablesIn(text).includes('token')));
  if (users.length === 0) return;
  throw new PlantstoreError(
    'USAGE',
    `${users.length} case${users.length === 1 ? ' uses' : 's use'} {{token}}, but no token was given`,
    [
      'Pass --token TOKEN (or set PLANTSTORE_TOKEN). The plantstore mock accepts any well-formed token, e.g. ' +
        '--token test-token.',
    ],
  );
}

async function runSafely(testCase: Case, context: CaseContext, uniqueId: bigint): Promise<CaseResult> {
  try {
    return await runCase(testCase, context, uniqueId);
  } catch (error) {
    // Only a runner bug gets here; the run goes on and the case says what happened.
    const message = context.redact(
      `plantstore bug while running this case (please report it): ${(error as Error).stack ?? String(error)}`,
    );
    return {
      id: testCase.id,
      name: testCase.name,
      source: testCase.source,
      status: 'failed',
      durationMs: 0,
      steps: [{ name: 'request', durationMs: 0, findings: [{ code: 'runner-bug', severity: 'failure', message }] }],
      failures: 1,
      warnings: 0,
    };
  }
}

export function openReporter(target: ReporterTarget): { reporter: Reporter; close(): void } {
  const factory = REPORTERS[target.name];
  if (!factory)
    throw new PlantstoreError(
      'USAGE',
      `unknown reporter '${target.name}'; reporters: ${Object.keys(REPORTERS).join(', ')}`,
    );
  if ('stream' in target) {
    const tty = target.stream.isTTY === true;
    return {
      reporter: factory({
        write: (chunk) => target.stream.write(chunk),
        color: target.color ?? tty,
        progress: target.progress ?? tty,
      }),
      close() {},
    };
  }
  // A report file is written whole when the run ends; its folder is made now (a missing one is
  // created, as `mkdir -p` would), so a bad path fails before any request.
  const file = resolve(target.file);
  const flag = `--${target.name} ${target.file}`;
  if (existsSync(file) && statSync(file).isDirectory())
    throw new PlantstoreError('USAGE', `${flag}: is a folder, not a file`, [
      `Name the report file, e.g. --${target.name} ` +
        `${join(target.file, `verify.${target.name === 'junit' ? 'xml' : target.name}`)}`,
    ]);
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOTDIR' || code === 'EEXIST'
        ? 'a part of the path is a file'
        : code === 'EACCES' || code === 'EPERM'
          ? 'permission denied'
          : (error as Error).message;
    throw new PlantstoreError('USAGE', `${flag}: cannot create the report's folder ${dirname(target.file)} (${why})`);
  }
  // Kept as chunks and written one by one: Stripe's report (3,400 cases with their answers) is
  // longer than the longest string V8 can hold.
  const chunks: string[] = [];
  return {
    reporter: factory({ write: (chunk) => void chunks.push(chunk), color: false, progress: false }),
    close: () => {
      const fd = openSync(file, 'w');
      try {
        for (const chunk of chunks) writeSync(fd, chunk);
      } finally {
        closeSync(fd);
      }
    },
  };
}
