// What the proxy says about an exchange that breaks the contract: a list of violations, each with
// the side it is on, a stable code, a JSON pointer and a message. The request side comes from the
// mock's own admission checks, the answer side from the runner's contract checks, so the proxy
// judges exactly as `mock` and `verify` do.
import { stringifyJson } from '../json/exact-json.ts';
import type { Admission } from '../mock/engine.ts';
import type { ValidationIssue } from '../validation/validator.ts';

export interface Violation {
  where: 'request' | 'response';
  code: string;
  /** JSON pointer into the body ('' for the whole body, or when the violation is not about the body). */
  pointer: string;
  message: string;
}

/** The header that carries an exchange's violations. */
export const VIOLATIONS_HEADER = 'plantstore-violations';

/**
 * Most bytes the header's value may take: Node's parser, nginx and most clients accept 8 KB for
 * all headers together (16 KB in Node since 14), so one header keeps well under that.
 */
export const MAX_VIOLATIONS_HEADER_BYTES = 4096;

/** The request violations of a refused admission (the mock's own checks). */
export function requestViolations(refusal: Extract<Admission, { ok: false }>): Violation[] {
  if (refusal.issues)
    return refusal.issues.map((issue) => ({
      where: 'request',
      code: issueCode(issue),
      pointer: issue.pointer,
      message: `request body ${issue.pointer || '(root)'}: ${issue.message}`,
    }));
  const message = refusal.reply.problems?.[0] ?? `refused with ${refusal.reply.response.status}`;
  return [{ where: 'request', code: refusal.code, pointer: '', message }];
}

/** The codes a reader looks for first, as the runner names them. */
export function issueCode(issue: ValidationIssue): string {
  if (issue.code === 'required') return 'missing-required-field';
  if (issue.code === 'type') return 'wrong-field-type';
  return 'schema-violation';
}

/**
 * The header's value: a JSON array, cut to whole violations that fit, with a last element saying
 * how many were left out (the journal keeps them all). Header values must be one line of visible
 * ASCII: the JSON escapes everything else.
 */
export function violationsHeader(violations: Violation[]): string {
  const parts: string[] = [];
  let size = 2;
  for (let i = 0; i < violations.length; i++) {
    const part = asciiJson(violations[i]);
    // Room for this one and for the note of what is left out after it.
    if (size + part.length + 1 + (i < violations.length - 1 ? 120 : 0) > MAX_VIOLATIONS_HEADER_BYTES) {
      const left = violations.length - i;
      parts.push(
        asciiJson({
          where: 'response',
          code: 'truncated',
          pointer: '',
          message: `${left} more violation${left === 1 ? '' : 's'}; see GET /__mock/requests`,
        }),
      );
      break;
    }
    parts.push(part);
    size += part.length + 1;
  }
  return `[${parts.join(',')}]`;
}

function asciiJson(value: unknown): string {
  let text = stringifyJson(value);
  // A long message is cut, so that one violation never fills the header alone.
  if (text.length > 1000) {
    const violation = value as Violation;
    text = stringifyJson({ ...violation, message: `${violation.message.slice(0, 900)}…` });
  }
  return text.replace(/[^\x20-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Counts of violations by operation and code, for GET /__mock/violations. */
export interface ViolationSummary {
  add(operationId: string | undefined, violations: Violation[]): void;
  /** { total, exchanges, byOperation: { createPlant: { "request/missing-required-field": 2 } } } */
  read(): {
    exchanges: number;
    exchangesWithViolations: number;
    total: number;
    byOperation: Record<string, Record<string, number>>;
  };
  clear(): void;
}

/** Operations outside the document are counted under this name. */
export const NO_OPERATION = '(no operation)';

export function createViolationSummary(): ViolationSummary {
  let exchanges = 0;
  let broken = 0;
  let total = 0;
  const counts = new Map<string, Map<string, number>>();
  return {
    add(operationId, violations) {
      exchanges++;
      if (violations.length === 0) return;
      broken++;
      total += violations.length;
      const name = operationId ?? NO_OPERATION;
      let byCode = counts.get(name);
      if (!byCode) counts.set(name, (byCode = new Map()));
      for (const violation of violations) {
        const key = `${violation.where}/${violation.code}`;
        byCode.set(key, (byCode.get(key) ?? 0) + 1);
      }
    },
    read: () => ({
      exchanges,
      exchangesWithViolations: broken,
      total,
      byOperation: Object.fromEntries(
        [...counts].map(([operation, byCode]) => [operation, Object.fromEntries(byCode)]),
      ),
    }),
    clear() {
      exchanges = 0;
      broken = 0;
      total = 0;
      counts.clear();
    },
  };
}
