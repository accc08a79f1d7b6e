// The readable account of a case that did not simply pass, shared by the console and JUnit:
// per step, the request line, each finding, a "- expected / + actual" diff where a finding has
// both sides, and the curl command that reproduces the request (token as $PLANTSTORE_TOKEN).
// A failed sequence is shown whole: the steps that passed are how the server got there.
import { stringifyJson, type JsonValue } from '../../json/exact-json.ts';
import type { CaseResult, Finding, StepResult } from '../report.ts';

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
    if (step.curl && shown.some((f) => f.severity === 'failure')) lines.push({ kind: 'curl', text: step.curl });
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

function findingLines(finding: Finding): DetailLine[] {
  const kind = finding.severity === 'failure' ? 'failure' : 'warning';
  const lines: DetailLine[] = [{ kind, text: `${finding.severity === 'failure' ? 'x' : '!'} ${finding.code}: ${finding.message}` }];
  const hasBoth = 'expected' in finding && 'actual' in finding && (finding.code.startsWith('unexpected-') || finding.code === 'undeclared-content-type');
  if (hasBoth) {
    const label = finding.pointer !== undefined ? `body ${finding.pointer || '(root)'}` : finding.code === 'unexpected-status' ? 'status' : finding.code === 'unexpected-header' ? 'header' : 'content-type';
    lines.push({ kind: 'expected', text: `- expected ${label}: ${show(finding.expected)}` });
    lines.push({ kind: 'actual', text: `+ actual   ${label}: ${show(finding.actual)}` });
  }
  return lines;
}

function show(value: JsonValue | undefined): string {
  if (value === undefined) return '(missing)';
  const text = typeof value === 'string' ? value : stringifyJson(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
