// The one validator of the toolkit: the mock (requests), the runner (responses) and the CLI
// (payloads) all call it. Ajv compiles each schema once, at start-up, straight from the loaded
// document; values are judged with exact integers (see json/int64.ts).
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { PlantstoreError } from '../errors.ts';
import { type JsonValue } from '../json/exact-json.ts';
import { isInt32, isInt64, toValidationView } from '../json/int64.ts';
import { escapePointerToken, getAtPointer, type LoadedSpec } from '../spec/load-spec.ts';

// ajv-draft-04 and ajv-formats are CommonJS with a default export, which Node's ESM interop (and
// require) wraps once more. Ajv for JSON Schema draft 4, which OpenAPI 3.0 documents use, is
// loaded when one is: ~4.5 ms of start-up that a 3.1 document does not need.
const ajvDraft04 = (): new (options: object) => Ajv => {
  const loaded = createRequire(import.meta.url)('ajv-draft-04') as { default?: unknown };
  return (loaded.default ?? loaded) as new (options: object) => Ajv;
};
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

export interface ValidationIssue {
  /** The JSON Schema keyword that failed ('required', 'type', 'format', ...). */
  code: string;
  /** JSON pointer into the value ('' is the whole value, '/id' its id). */
  pointer: string;
  message: string;
}

export type ValidationResult = { ok: true } | { ok: false; issues: ValidationIssue[] };

/** `plain`: the caller knows the value holds no bigint (parseJson says so), which spares a walk over it. */
export type SchemaCheck = (value: JsonValue, plain?: boolean) => ValidationResult;

export interface Validators {
  /** The check for the schema at a pointer of the document, compiled on first use and kept. */
  at(pointer: string): SchemaCheck;
}

const DOCUMENT_ID = 'plantstore:document';
const OK: ValidationResult = Object.freeze({ ok: true });

function createAjv(spec: LoadedSpec): Ajv {
  // No meta-schema check per compile (compiling the 2020-12 meta-schema costs ~60 ms a start):
  // the loader runs checkSchemas once per document version, and its result is cached with it.
  const options = { allErrors: true, strict: false, logger: false, validateFormats: true, validateSchema: false } as const;
  const ajv: Ajv = spec.dialect === '3.1' ? new Ajv2020(options) : new (ajvDraft04())(options);
  addFormats(ajv);
  // Exact int32/int64 over projected doubles (ajv-formats' int64 accepts any integer).
  ajv.addFormat('int32', { type: 'number', validate: isInt32 });
  ajv.addFormat('int64', { type: 'number', validate: isInt64 });
  // OpenAPI's own schema keywords, so Ajv knows them for what they are.
  ajv.addVocabulary(['example', 'xml', 'externalDocs', 'discriminator', 'x-plantstore-id']);
  // Circular $refs stay as "#/components/..." strings; registering the document lets them resolve.
  ajv.addSchema(spec.document as object, DOCUMENT_ID, undefined, false);
  return ajv;
}

/**
 * Checks schemas against their dialect's meta-schema (compiling the meta-schema costs ~40 ms, so
 * the loader does this once per document version and the result is cached with the document).
 */
export function checkSchemas(spec: LoadedSpec, pointers: string[]): void {
  const ajv = createAjv(spec);
  for (const pointer of pointers) {
    const schema = getAtPointer(spec.document, pointer);
    if (schema === undefined || typeof schema === 'boolean') continue;
    if (!ajv.validateSchema(schema as object)) {
      throw new PlantstoreError('SPEC_INVALID', `${spec.file}: ${pointer}: invalid schema: ${ajv.errorsText(ajv.errors, { dataVar: 'schema' })}`);
    }
  }
}

/** Builds the validators of one loaded document. */
export function createValidators(spec: LoadedSpec): Validators {
  const ajv = createAjv(spec);
  const cache = new Map<string, SchemaCheck>();
  return {
    at(pointer) {
      let check = cache.get(pointer);
      if (!check) {
        check = compile(ajv, spec, pointer);
        cache.set(pointer, check);
      }
      return check;
    },
  };
}

function compile(ajv: Ajv, spec: LoadedSpec, pointer: string): SchemaCheck {
  const schema = getAtPointer(spec.document, pointer);
  if (schema === undefined) throw new PlantstoreError('SPEC_INVALID', `${spec.file}: ${pointer}: no schema there`);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}${pointer.startsWith('#') ? pointer : `#${pointer}`}` });
  } catch (error) {
    throw new PlantstoreError('SPEC_INVALID', `${spec.file}: ${pointer}: invalid schema: ${(error as Error).message}`);
  }
  return (value, plain) => {
    if (validate(plain ? value : toValidationView(value))) return OK;
    return { ok: false, issues: toIssues(validate.errors ?? []) };
  };
}

function toIssues(errors: ErrorObject[]): ValidationIssue[] {
  // One error (most refusals): nothing to drop as a repeat.
  if (errors.length === 1) return [toIssue(errors[0])];
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  // "must be integer" already says it; "must be int64" on the same value would only repeat it.
  // (Built on the first format error only: most refusals have none.)
  let typeFailed: Set<string> | undefined;
  for (const error of errors) {
    if (error.keyword === 'format') {
      typeFailed ??= new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
      if (typeFailed.has(error.instancePath)) continue;
    }
    const issue = toIssue(error);
    // The same issue twice (from two branches of a schema) is said once.
    const key = `${issue.pointer}\0${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

function toIssue(error: ErrorObject): ValidationIssue {
  const params = error.params as Record<string, unknown>;
  const at = (name: unknown) => `${error.instancePath}/${escapePointerToken(String(name))}`;
  switch (error.keyword) {
    case 'required':
      return { code: 'required', pointer: at(params.missingProperty), message: 'is required' };
    case 'additionalProperties':
      return { code: 'additionalProperties', pointer: at(params.additionalProperty), message: 'is not allowed' };
    case 'unevaluatedProperties':
      return { code: 'unevaluatedProperties', pointer: at(params.unevaluatedProperty), message: 'is not allowed' };
    case 'format': {
      const range = params.format === 'int64' ? ' (-9223372036854775808 to 9223372036854775807)' : params.format === 'int32' ? ' (-2147483648 to 2147483647)' : '';
      return { code: 'format', pointer: error.instancePath, message: `must be ${String(params.format)}${range}` };
    }
    default:
      return { code: error.keyword, pointer: error.instancePath, message: error.message ?? `fails ${error.keyword}` };
  }
}

/** One line per issue: "/id: must be integer". The whole value is written "(body)". */
export function formatIssues(issues: ValidationIssue[], root = '(body)'): string {
  if (issues.length === 1) return `${issues[0].pointer || root}: ${issues[0].message}`;
  return issues.map((issue) => `${issue.pointer || root}: ${issue.message}`).join('; ');
}
