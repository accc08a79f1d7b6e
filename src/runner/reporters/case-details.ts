// The readable account of a case that did not simply pass, shared by the console and JUnit:
// per step, the request line, each finding, a "- expected / + actual" diff where a finding has
// both sides, the answer that failed (status, headers, the body cut short), and the curl command
// that reproduces the request (token as $PLANTSTORE_TOKEN).
// A failed sequence is shown whole: the steps that passed are how the server got there.
import { stringifyJson, type JsonValue } from '../../json/exact-json.ts';
import type { CaseResult, Finding, PlainResponse, StepResult } from '../report.ts';

export type DetailKind = 'heading' | 'step' | 'failure' | 'warning' | 'expected' | 'actual' | 'curl';

export interface DetailLine {
  kind: DetailKind;
  text: string;
}

/** The lines that explain a case's failures and warnings (none for a clean pass). */
export function caseDetails(result: CaseResult, include: 'failures' | 'all' = 'all'): DetailLine[] {
  const lines: DetailLine[] = [];
  const several = result.steps.length > 1;
  const whole = several && result.status === 'failed';
  for (const step of result.steps) {
    const shown = step.findings.filter((f) => include === 'all' || f.severity === 'failure');
    if (shown.length === 0) {
      if (whole) lines.push({ kind: 'step', text: `step ${step.name}: ${requestLine(step)}` });
      continue;
    }
    lines.push({ kind: 'heading', text: `${several ? `step ${step.name}: ` : ''}${requestLine(step)}` });
    for (const finding of shown) lines.push(...findingLines(finding));
    const failed = shown.some((f) => f.severity === 'failure');
    if (failed && step.response) lines.push(...answerLines(step.response));
    if (step.curl && failed) lines.push({ kind: 'curl', text: step.curl });
  }
  return lines;
}

/** The step that failed a case, or undefined when none did. */
export function failedStep(result: CaseResult): StepResult | undefined {
  return result.steps.find((step) => step.findings.some((f) => f.severity === 'failure'));
}

/** "POST /plants -> 400 (createPlant, 3 ms)" */
export function requestLine(step: StepResult): string {
  if (!step.request) return '(request not sent)';
  const query = step.request.query ? `?${step.request.query}` : '';
  const answer = step.response ? `${step.response.status}` : 'no answer';
  const about = [step.operationId, `${Math.round(step.durationMs)} ms`].filter(Boolean).join(', ');
  return `${step.request.method} ${step.request.path}${query} -> ${answer} (${about})`;
}

/** Longest answer body shown under a failure (the JSON report keeps more). */
const BODY_SHOWN = 300;

/** A finding's line, and its expected/actual diff when it has both sides. */
export function findingLines(finding: Finding): DetailLine[] {
  const kind = finding.severity === 'failure' ? 'failure' : 'warning';
  const lines: DetailLine[] = [
    { kind, text: `${finding.severity === 'failure' ? 'x' : '!'} ${finding.code}: ${finding.message}` },
  ];
  const label = diffLabel(finding);
  if (label !== undefined) {
    lines.push({ kind: 'expected', text: `- expected ${label}: ${show(finding.expected, 'none')}` });
    lines.push({
      kind: 'actual',
      text:
        `+ actual   ${label}: ` +
        `${show(finding.actual, label.startsWith('header') ? 'none' : label === 'body' ? 'empty' : 'missing')}`,
    });
  }
  return lines;
}

/** What a two-sided finding compares, or undefined when it has no diff to show. */
function diffLabel(finding: Finding): string | undefined {
  // The actual side may be absent: a header or a body that is not there.
  if (!('expected' in finding)) return undefined;
  switch (finding.code) {
    case 'unexpected-status':
      return 'status';
    case 'unexpected-header':
      return finding.header === undefined ? 'header' : `header ${finding.header}`;
    case 'unexpected-body':
      // A pointer places the difference inside the body; without one the whole body is at issue (empty, not JSON).
      return finding.pointer === undefined ? 'body' : `body ${finding.pointer || '(root)'}`;
    case 'undeclared-content-type':
      return 'content-type';
    case 'limit-ignored':
      return 'list';
    default:
      return undefined;
  }
}

/** The answer that failed a step: its status and headers on one line, its body cut short on the next. */
export function answerLines(response: PlainResponse): DetailLine[] {
  const headers = Object.entries(response.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('; ');
  return [
    { kind: 'step', text: `answer: ${response.status}${headers ? `, ${cut(headers, BODY_SHOWN)}` : ''}` },
    { kind: 'step', text: `answer body: ${show(response.body, 'empty', BODY_SHOWN)}` },
  ];
}

function show(value: JsonValue | undefined, absent: string, limit = 200): string {
  if (value === undefined || value === null) return value === null ? 'null' : `(${absent})`;
  return cut(typeof value === 'string' ? value : stringifyJson(value), limit);
}

function cut(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length} characters)` : text;
}
