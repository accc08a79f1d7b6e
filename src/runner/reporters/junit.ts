// JUnit XML (--junit FILE): one <testsuite> per fixture file (and one for generated cases), one
// <testcase> per case. Broken contracts and unmet expectations are <failure>s; answers that never
// arrived (refused, timed out, reset) are <error>s, as JUnit means "could not be evaluated".
// A case keeps one <failure> however many findings it has: GitLab's parser reads one per testcase
// (several become an array it does not show), and GitHub's report actions show the first. So the
// message counts the failures and names the first, and the text holds every finding of every step
// with its diff, the distinct fault it counts toward, the request sent, the answer and the curl line.
// Operations --generate gave no case are <skipped> test cases of a suite "not covered", so a CI
// page shows them next to the cases that ran.
import type { CaseResult, VerifyReport } from '../report.ts';
import { stringifyJson } from '../../json/exact-json.ts';
import { faultOf } from '../run/faults.ts';
import { answerLines, failedStep, findingLines, requestLine } from './case-details.ts';
import type { Reporter, ReporterContext } from './reporter.ts';

const TRANSPORT_CODES = new Set([
  'timeout',
  'connection-refused',
  'connection-reset',
  'unreachable',
  'tls-error',
  'invalid-http',
  'transport-error',
]);

export function createJunitReporter(context: ReporterContext): Reporter {
  return {
    end(report) {
      context.write(renderJunit(report));
    },
  };
}

/** The report as a JUnit XML document. */
export function renderJunit(report: VerifyReport): string {
  const suites = new Map<string, CaseResult[]>();
  for (const result of report.cases) suites.set(result.source, [...(suites.get(result.source) ?? []), result]);
  const counts = (cases: CaseResult[], notCovered = 0) => {
    const errors = cases.filter(isError).length;
    return (
      `tests="${cases.length + notCovered}" ` +
      `failures="${cases.filter((c) => c.status === 'failed').length - errors}" errors="${errors}" ` +
      `skipped="${cases.filter((c) => c.status === 'skipped').length + notCovered}" ` +
      `time="${seconds(cases.reduce((sum, c) => sum + c.durationMs, 0))}"`
    );
  };
  // A fault's smallest request belongs to the case that first showed it.
  const shrunk = new Map<string, string>();
  for (const fault of report.faults ?? [])
    if (fault.shrunk?.curl !== undefined) shrunk.set(fault.example.caseId, fault.shrunk.curl);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="plantstore verify ${attr(report.target)}" ${counts(report.cases, report.uncovered.length)} ` +
      `timestamp="${attr(report.startedAt)}">`,
  ];
  for (const [source, cases] of suites) {
    out.push(`  <testsuite name="${attr(source)}" ${counts(cases)} timestamp="${attr(report.startedAt)}">`);
    out.push(
      '    <properties>',
      `      <property name="target" value="${attr(report.target)}"/>`,
      `      <property name="spec" value="${attr(report.spec)}"/>`,
      `      <property name="seed" value="${report.seed}"/>`,
      `      <property name="strict" value="${report.strict}"/>`,
      '    </properties>',
    );
    for (const result of cases) out.push(...testcase(result, source, shrunk));
    out.push('  </testsuite>');
  }
  if (report.uncovered.length > 0) {
    out.push(
      `  <testsuite name="not covered" tests="${report.uncovered.length}" failures="0" errors="0" ` +
        `skipped="${report.uncovered.length}" time="0.000" timestamp="${attr(report.startedAt)}">`,
    );
    for (const item of report.uncovered) {
      out.push(
        `    <testcase name="${attr(`${item.operationId}: no generated case`)}" classname="not-covered" time="0.000">`,
        `      <skipped message="${attr(item.reason)}"/>`,
        '    </testcase>',
      );
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

function testcase(result: CaseResult, source: string, shrunk: Map<string, string>): string[] {
  const open =
    `    <testcase name="${attr(result.name)}" ` +
    `classname="${attr(source.replace(/\.(ya?ml|json)$/i, '').replaceAll('/', '.'))}" ` +
    `time="${seconds(result.durationMs)}"`;
  if (result.status === 'skipped')
    return [`${open}>`, `      <skipped message="${attr(result.skipReason ?? 'not run')}"/>`, '    </testcase>'];
  if (result.status === 'passed' && result.warnings === 0) return [`${open}/>`];
  const details = fullDetails(result, shrunk).join('\n');
  const lines = [`${open}>`];
  if (result.status === 'failed') {
    const step = failedStep(result)!;
    const first = step.findings.find((f) => f.severity === 'failure')!;
    const element = isError(result) ? 'error' : 'failure';
    // In a sequence the message names the step that broke; the details show every step before it.
    const named = result.steps.length > 1 ? `step ${step.name}: ${first.message}` : first.message;
    const message = result.failures > 1 ? `${result.failures} failures; the first: ${named}` : named;
    lines.push(`      <${element} message="${attr(message)}" type="${attr(first.code)}">${text(details)}</${element}>`);
  } else lines.push(`      <system-out>${text(details)}</system-out>`);
  lines.push('    </testcase>');
  return lines;
}

/**
 * The console's account of the case, and under each finding the distinct fault it counts toward; under each failing
 * step the request as sent (headers and body, credentials redacted) and, where shrinking ran, the smallest request.
 */
function fullDetails(result: CaseResult, shrunk: Map<string, string>): string[] {
  const out: string[] = [];
  const several = result.steps.length > 1;
  for (const step of result.steps) {
    const heading = `${several ? `step ${step.name}: ` : ''}${requestLine(step)}`;
    if (step.findings.length === 0) {
      // A failed sequence is shown whole: the steps that passed are how the server got there.
      if (several && result.status === 'failed') out.push(heading);
      continue;
    }
    out.push(heading);
    for (const finding of step.findings) {
      const fault = faultOf(result, step, finding);
      out.push(
        ...findingLines(finding).map((line) => `  ${line.text}`),
        `    fault: ${fault.operationId} | ${fault.check} | ${fault.signature}`,
      );
    }
    if (!step.findings.some((f) => f.severity === 'failure')) continue;
    if (step.request) {
      const headers = Object.entries(step.request.headers).map(([name, value]) => `${name}: ${value}`);
      if (headers.length > 0) out.push(`  request headers: ${headers.join('; ')}`);
      const body = step.request.body;
      if (body !== undefined) out.push(`  request body: ${typeof body === 'string' ? body : stringifyJson(body)}`);
    }
    if (step.response) out.push(...answerLines(step.response).map((line) => `  ${line.text}`));
    if (step.curl) out.push(`  ${step.curl}`);
  }
  const smallest = shrunk.get(result.id);
  if (smallest) out.push(`smallest: ${smallest}`);
  return out;
}

function isError(result: CaseResult): boolean {
  const first = result.steps.flatMap((s) => s.findings).find((f) => f.severity === 'failure');
  return result.status === 'failed' && first !== undefined && TRANSPORT_CODES.has(first.code);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

// XML 1.0 cannot hold most control characters at all, not even escaped; they become U+FFFD.
const NOT_XML = new RegExp(
  [
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.source,
    // A surrogate without its other half.
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.source,
    /(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.source,
  ].join('|'),
  'g',
);

function text(value: string): string {
  return value.replace(NOT_XML, '\uFFFD').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function attr(value: string): string {
  return text(value)
    .replaceAll('"', '&quot;')
    .replaceAll('\n', '&#10;')
    .replaceAll('\r', '&#13;')
    .replaceAll('\t', '&#9;');
}
