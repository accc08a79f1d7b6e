// Distinct faults: the findings of a run grouped by operation, check and signature, so that a
// reader sees one line per thing to fix instead of one per case. The signature is what tells
// two faults of one check apart: a 5xx's status and the error's first line, a schema finding's
// pointer (array indices folded, so one array's wrong-typed elements are one fault), a hostile
// case's target and value class for an answer that never came. Undeclared 404s (random ids)
// are one warning for the whole run.
import type { JsonValue } from '../../json/exact-json.ts';
import type { CaseResult, Fault, Finding, StepResult } from '../report.ts';

export type { Fault } from '../report.ts';

const TRANSPORT = new Set(['timeout', 'connection-reset', 'invalid-http', 'transport-error', 'body-too-large']);
const KEPT_IDS = 5;
const UNSUPPORTED_METHOD = 'generated/unsupported-method/';
const NOT_FOLLOWED: Record<string, string> = {
  'another status': "a link's source answered another status than the link is on",
  'no value': "an exchange without the value a link's expression reads",
  'no item': 'a create whose answer named no item (no id field, no Location)',
};

/** The fault a finding of a step belongs to (its key parts), in a case with an optional probe. */
export function faultOf(
  result: Pick<CaseResult, 'id' | 'probe'>,
  step: StepResult,
  finding: Finding,
): { operationId: string; check: string; signature: string } {
  const operationId = step.operationId ?? result.probe ?? `${step.request?.method ?? '?'} ${step.request?.path ?? '?'}`;
  // The undeclared-method case is one check, whatever of 405 and Allow it missed; a server's
  // router answers every path alike, so it is one fault for the run, naming the paths.
  if (result.id.startsWith(UNSUPPORTED_METHOD))
    return {
      operationId: '*',
      check: 'unsupported-method',
      signature:
        `answered ` + `${step.response?.status ?? finding.code}${step.response?.headers.allow ? '' : ' without Allow'}`,
    };
  // What a run could not follow is the exchange's doing, mostly random ids: one warning for the run per reason.
  if (finding.code === 'not-followed')
    return { operationId: '*', check: finding.code, signature: NOT_FOLLOWED[String(finding.actual)] ?? 'not followed' };
  if (finding.code === 'off-contract-status' && finding.actual === 404)
    return {
      operationId: '*',
      check: finding.code,
      signature: '404 where no 404 is declared (usually an id that does not exist)',
    };
  if (finding.code === 'server-error')
    return {
      operationId,
      check: finding.code,
      signature: `${step.response?.status ?? finding.actual} ${errorLine(step.response?.body)}`.trim(),
    };
  if (finding.code === 'slow-response')
    return { operationId, check: finding.code, signature: `slower than ${String(finding.expected)} ms` };
  if (TRANSPORT.has(finding.code))
    return { operationId, check: finding.code, signature: result.probe ?? caseFamily(result.id) };
  if (finding.pointer !== undefined)
    return { operationId, check: finding.code, signature: finding.pointer.replace(/\/\d+(?=\/|$)/g, '/*') || '(root)' };
  if (finding.code === 'unexpected-status') {
    // Named as Schemathesis names these checks; one fault per input place, whatever value class showed it.
    const target = (result.probe ?? caseFamily(result.id)).split(':')[0];
    const expected = String(finding.expected);
    const got = Number(finding.actual);
    const family = caseFamily(result.id);
    const check =
      family === 'no-credentials' || family === 'wrong-credentials' || family === 'wrong-api-key'
        ? 'auth-ignored'
        : result.id.startsWith('generated/links/') && step.name === 'linked' && expected === '2xx' && got >= 400
          ? // Schemathesis's name: what a POST made, the GET its link points to cannot find.
            'resource-unavailable'
          : expected === '4xx' && got < 400
            ? 'invalid-data-accepted'
            : expected === '2xx' && got >= 400 && got < 500
              ? 'valid-data-rejected'
              : finding.code;
    return { operationId, check, signature: `expected ${expected}, got ${got} · ${target}` };
  }
  if (finding.header !== undefined) return { operationId, check: finding.code, signature: finding.header };
  if (finding.actual !== undefined && typeof finding.actual !== 'object')
    return { operationId, check: finding.code, signature: String(finding.actual) };
  return { operationId, check: finding.code, signature: finding.message.split('\n')[0].slice(0, 100) };
}

/** Groups a run's findings into distinct faults, failures first, then by count. */
export function groupFaults(results: CaseResult[]): Fault[] {
  const faults = new Map<string, Fault & { seen: Set<string> }>();
  for (const result of results) {
    for (const step of result.steps) {
      for (const finding of step.findings) {
        const { operationId, check, signature } = faultOf(result, step, finding);
        const key = `${operationId} | ${check} | ${signature}`;
        let fault = faults.get(key);
        if (!fault) {
          fault = {
            key,
            severity: finding.severity,
            operationId,
            check,
            signature,
            count: 0,
            caseIds: [],
            operations: [],
            example: {
              caseId: result.id,
              message: finding.message,
              request: step.request,
              curl: step.curl,
              status: step.response?.status,
            },
            seen: new Set(),
          };
          faults.set(key, fault);
        }
        if (finding.severity === 'failure' && fault.severity !== 'failure') {
          fault.severity = 'failure';
          fault.example = {
            caseId: result.id,
            message: finding.message,
            request: step.request,
            curl: step.curl,
            status: step.response?.status,
          };
        }
        if (!fault.seen.has(result.id)) {
          fault.seen.add(result.id);
          fault.count++;
          if (fault.caseIds.length < KEPT_IDS) fault.caseIds.push(result.id);
        }
        const op = step.operationId ?? result.probe ?? '?';
        if (!fault.operations.includes(op)) fault.operations.push(op);
      }
    }
  }
  return [...faults.values()]
    .map(({ seen: _seen, ...fault }) => fault)
    .sort((a, b) => (a.severity === b.severity ? b.count - a.count : a.severity === 'failure' ? -1 : 1));
}

/** The case's kind without its number: generated/getPlant/invalid-query-limit-2 -> invalid-query-limit. */
function caseFamily(id: string): string {
  return (id.split('/').pop() ?? id).replace(/-\d+$/, '');
}

/** The first line of an error body: a JSON error's message, or the text's first line without markup. */
function errorLine(body: JsonValue | undefined): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'object' && !Array.isArray(body)) {
    for (const field of ['message', 'error', 'title', 'detail']) {
      const value = (body as Record<string, JsonValue>)[field];
      if (typeof value === 'string' && value.trim() !== '') return cut(value);
      if (value !== null && typeof value === 'object' && !Array.isArray(value) && typeof value.message === 'string')
        return cut(value.message);
    }
    return '';
  }
  const text = String(body)
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '');
  return text === undefined ? '' : cut(text);
}

function cut(text: string): string {
  const line = text.split('\n')[0].trim();
  return line.length > 100 ? `${line.slice(0, 100)}…` : line;
}
