// `plantstore validate`: a payload's text judged against a schema name or operationId by the
// shared validator, with integers parsed exactly (as the mock parses request bodies).
import { parseJson } from '../json/exact-json.ts';
import type { LoadedSpec } from '../document/loaded-spec.ts';
import { resolveTarget } from '../document/resolve-target.ts';
import { createValidators, type ValidationIssue, type Validators } from './validator.ts';

export type PayloadVerdict =
  | { kind: 'valid'; target: string }
  | { kind: 'invalid'; target: string; issues: ValidationIssue[] }
  | { kind: 'malformed'; message: string; line?: number; column?: number };

/** How the whole value is named in issue lines (its JSON pointer is empty). */
export const ROOT_LABEL = '(root)';

/**
 * Validates JSON text against a components.schemas name or an operationId's request body.
 * @example validatePayload(spec, 'NewPlant', '{"name":"Fern"}') // { kind: 'invalid', issues: [/id: is required] }
 */
export function validatePayload(
  spec: LoadedSpec,
  name: string,
  text: string,
  validators: Validators = createValidators(spec),
): PayloadVerdict {
  // Resolve first: an unknown name is a usage error even when the payload is also broken.
  const target = resolveTarget(spec, name);
  const parsed = parseJson(text);
  if (!parsed.ok) return { kind: 'malformed', message: parsed.message, line: parsed.line, column: parsed.column };
  const result = validators.at(target.pointer)(parsed.value);
  const label = target.kind === 'operation' ? `${name} request body` : name;
  return result.ok ? { kind: 'valid', target: label } : { kind: 'invalid', target: label, issues: result.issues };
}

/** One line per violation, "JSON pointer: message", the whole value written as (root). */
export function formatIssueLines(issues: ValidationIssue[]): string {
  return issues.map((issue) => `${issue.pointer || ROOT_LABEL}: ${issue.message}\n`).join('');
}
