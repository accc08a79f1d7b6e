// Path, query and header parameters: required ones must be there, and each value, read as the
// type its schema says (the wire only carries text), must be valid against that schema.
import { exactInteger, type JsonValue } from '../json/exact-json.ts';
import type { Operation } from '../spec/operations.ts';
import { formatIssues, type Validators } from '../validation/validator.ts';
import type { MockRequest } from './http-types.ts';
import { resolveSchema } from '../spec/schema-shape.ts';

export type ParameterResult = { ok: true; values: Record<string, JsonValue> } | { ok: false; message: string };

const NONE: ParameterResult = Object.freeze({ ok: true, values: Object.freeze({}) as Record<string, JsonValue> });

/** Reads and checks the declared parameters of a request. */
export function readParameters(operation: Operation, pathParams: Record<string, string>, request: MockRequest, validators: Validators, document: unknown): ParameterResult {
  if (operation.parameters.length === 0) return NONE;
  const query = new URLSearchParams(request.query);
  const values: Record<string, JsonValue> = {};
  const problems: string[] = [];
  for (const param of operation.parameters) {
    const text = param.in === 'path' ? pathParams[param.name] : param.in === 'query' ? (query.get(param.name) ?? undefined) : param.in === 'header' ? request.headers[param.name.toLowerCase()] : undefined;
    if (text === undefined) {
      if (param.required) problems.push(`${param.in} parameter "${param.name}" is required`);
      continue;
    }
    const value = coerce(text, resolveSchema(param.schema, document)?.type);
    if (param.schema !== undefined) {
      const result = validators.at(param.schemaPointer)(value);
      if (!result.ok) {
        problems.push(`${param.in} parameter "${param.name}": ${formatIssues(result.issues, 'value')}`);
        continue;
      }
    }
    values[param.name] = value;
  }
  return problems.length > 0 ? { ok: false, message: problems.join('; ') } : { ok: true, values };
}

function coerce(text: string, type: unknown): JsonValue {
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('integer') || types.includes('number')) {
    if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) {
      const exact = exactInteger(text);
      if (exact !== undefined) return Number.isSafeInteger(Number(exact)) ? Number(exact) : exact;
      return Number(text);
    }
  }
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}
