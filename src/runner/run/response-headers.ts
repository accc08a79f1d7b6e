// The headers a declared response names (OpenAPI `responses.<status>.headers`): a header that is
// there must be valid against its schema (read from its text as the mock reads a header
// parameter); a `required` one that is missing warns, and fails under --strict (many servers,
// and the mock, leave declared headers out). Content-Type is the media type's business and is
// ignored here, as OpenAPI says.
import { escapePointerToken, getAtPointer } from '../../document/json-pointer.ts';
import { findResponse, type Operation } from '../../document/operations.ts';
import { isPrimitiveSchema, readWireText } from '../wire-text.ts';
import { resolveSchema } from '../../document/schema-shape.ts';
import type { Validators } from '../../validation/validator.ts';
import type { Finding } from '../report.ts';

/** Checks the answer's headers against those its declared response names. */
export function checkResponseHeaders(
  operation: Operation,
  status: number,
  headers: Record<string, string>,
  document: unknown,
  validators: Validators,
  strict: boolean,
): Finding[] {
  const declared = findResponse(operation, status);
  if (!declared) return [];
  let base = `${operation.pointer}/responses/${escapePointerToken(declared.status)}`;
  let response = getAtPointer(document, base) as Record<string, unknown> | undefined;
  // A response may be a $ref to components/responses.
  if (response && typeof response.$ref === 'string' && response.$ref.startsWith('#')) {
    base = response.$ref.slice(1);
    response = getAtPointer(document, base) as Record<string, unknown> | undefined;
  }
  const named = response?.headers;
  if (named === null || typeof named !== 'object') return [];
  const findings: Finding[] = [];
  for (const [name, raw] of Object.entries(named as Record<string, unknown>)) {
    if (name.toLowerCase() === 'content-type') continue;
    let pointer = `${base}/headers/${escapePointerToken(name)}`;
    let header = raw as Record<string, unknown> | null;
    if (header && typeof header.$ref === 'string' && header.$ref.startsWith('#')) {
      pointer = header.$ref.slice(1);
      header = getAtPointer(document, pointer) as Record<string, unknown> | null;
    }
    if (header === null || typeof header !== 'object') continue;
    const value = headers[name.toLowerCase()];
    if (value === undefined) {
      if (header.required === true)
        findings.push({
          code: 'missing-response-header',
          severity: strict ? 'failure' : 'warning',
          message:
            `no ${name} header; the ${declared.status} answer declares it ` +
            `required${strict ? ' and --strict is on' : ''}`,
          header: name.toLowerCase(),
          expected: '(present)',
        });
      continue;
    }
    const schema = resolveSchema(header.schema, document);
    if (!schema) continue;
    // An array or object header (a style the runner does not read) is left to the server.
    if (!isPrimitiveSchema(schema)) continue;
    const read = readWireText(value, schema);
    let ok: boolean;
    try {
      ok = validators.at(`${pointer}/schema`)(read).ok;
    } catch {
      ok = false;
    }
    if (!ok)
      findings.push({
        code: 'invalid-response-header',
        severity: 'failure',
        message: `the ${name} header "${value.slice(0, 80)}" does not match its declared schema`,
        header: name.toLowerCase(),
        actual: value.slice(0, 120),
      });
  }
  return findings;
}
