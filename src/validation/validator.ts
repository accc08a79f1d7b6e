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
import { listOperations } from '../spec/operations.ts';
import { bundledPointer, DIRECTIONAL, prepareForValidation, type Direction, type DirectionalRequired } from './schema-view.ts';

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
  /**
   * Registers the document with Ajv now (a large document's first request would otherwise pay
   * for it: ~0.5 s on GitHub's), so that a first request only compiles its own schemas.
   */
  prepare(): void;
}

const DOCUMENT_ID = 'plantstore:document';
const OK: ValidationResult = Object.freeze({ ok: true });
const ANYTHING: SchemaCheck = () => OK;

function createAjv(spec: LoadedSpec): Ajv {
  const view = prepareForValidation(spec.bundled);
  // No meta-schema check per compile (compiling the 2020-12 meta-schema costs ~60 ms a start):
  // the loader checks every schema once per document version (schemaWarnings), and its result is
  // cached with it.
  const options = { allErrors: true, strict: false, logger: false, validateFormats: true, validateSchema: false } as const;
  const ajv: Ajv = spec.dialect === '3.1' ? new Ajv2020(options) : new (ajvDraft04())(options);
  addFormats(ajv);
  // Exact int32/int64 over projected doubles (ajv-formats' int64 accepts any integer).
  ajv.addFormat('int32', { type: 'number', validate: isInt32 });
  ajv.addFormat('int64', { type: 'number', validate: isInt64 });
  // OpenAPI's own schema keywords, so Ajv knows them for what they are.
  ajv.addVocabulary(['xml', 'externalDocs', 'discriminator']);
  ajv.addKeyword({ keyword: DIRECTIONAL, type: 'object', schemaType: 'object', errors: true, validate: requiredInDirection });
  // Schemas are compiled by reference into the bundled document, so a component used by many
  // operations is compiled once, and circular references resolve.
  ajv.addSchema(view, DOCUMENT_ID, undefined, false);
  return ajv;
}

// The direction of the value being validated now. Validation is synchronous and never calls out,
// so one compiled schema serves requests and answers: the check sets this around each call.
let direction: Direction = 'neutral';

/** The DIRECTIONAL keyword: readOnly names are required in answers, writeOnly ones in requests. */
const requiredInDirection = Object.assign(
  (schema: DirectionalRequired, data: Record<string, unknown>): boolean => {
    const names = direction === 'request' ? schema.request : direction === 'response' ? schema.response : [...schema.request, ...schema.response];
    const missing = names.filter((name) => !Object.hasOwn(data, name));
    requiredInDirection.errors = missing.map((name) => ({ keyword: 'required', params: { missingProperty: name }, message: `must have required property '${name}'` }));
    return missing.length === 0;
  },
  { errors: [] as Array<Partial<ErrorObject>> },
);

/** Which view of the document a pointer is judged by: readOnly and writeOnly depend on the direction. */
function directionOf(pointer: string): Direction {
  if (pointer.includes('/requestBody/') || pointer.includes('/parameters/')) return 'request';
  if (pointer.includes('/responses/')) return 'response';
  return 'neutral';
}

/**
 * Checks every schema the toolkit uses against its dialect's meta-schema: each failure is one
 * warning (compiling the meta-schema costs ~40 ms, so the loader does this once per document
 * version, and the result is cached with the document). Compiling waits for first use.
 */
export function schemaWarnings(spec: LoadedSpec): string[] {
  const ajv = createAjv(spec);
  const view = spec.bundled;
  const warnings: string[] = [];
  const checked = new Set<unknown>();
  for (const pointer of schemaPointers(spec)) {
    const where = bundledPointer(view, pointer);
    const schema = where && getAtPointer(view, where);
    if (schema === undefined || typeof schema === 'boolean' || checked.has(schema)) continue;
    checked.add(schema);
    // A flaw such as a repeated enum item fails the meta-schema but compiles and checks as meant.
    if (!ajv.validateSchema(schema as object)) warnings.push(`${pointer}: ${ajv.errorsText(ajv.errors, { dataVar: 'schema' })}`);
  }
  return warnings;
}

/** Every schema the mock, the runner and the CLI may compile: components and each operation's. */
function schemaPointers(spec: LoadedSpec): string[] {
  const pointers = Object.keys(spec.document.components?.schemas ?? {}).map((name) => `#/components/schemas/${escapePointerToken(name)}`);
  for (const operation of listOperations(spec)) {
    for (const content of operation.requestBody?.contents ?? []) if (content.schema !== undefined) pointers.push(content.schemaPointer);
    for (const response of operation.responses) for (const content of response.contents) if (content.schema !== undefined) pointers.push(content.schemaPointer);
    for (const parameter of operation.parameters) if (parameter.schema !== undefined) pointers.push(parameter.schemaPointer);
  }
  return pointers;
}

/** Builds the validators of one loaded document. Each schema is compiled on first use and kept. */
export function createValidators(spec: LoadedSpec): Validators {
  let ajv: Ajv | undefined;
  const cache = new Map<string, SchemaCheck>();
  return {
    prepare() {
      ajv ??= createAjv(spec);
    },
    at(pointer) {
      let check = cache.get(pointer);
      if (!check) {
        ajv ??= createAjv(spec);
        check = compile(ajv, spec, pointer, directionOf(pointer));
        cache.set(pointer, check);
      }
      return check;
    },
  };
}

function compile(ajv: Ajv, spec: LoadedSpec, pointer: string, side: Direction): SchemaCheck {
  const normalized = pointer.startsWith('#') ? pointer : `#${pointer}`;
  if (getAtPointer(spec.document, normalized) === undefined) throw new PlantstoreError('SPEC_INVALID', `${spec.file}: ${pointer}: no schema there`);
  const where = bundledPointer(spec.bundled, normalized);
  let validate: ValidateFunction;
  try {
    if (where === undefined) throw new Error('not found in the bundled document');
    validate = ajv.compile({ $ref: `${DOCUMENT_ID}${where}` });
  } catch {
    // The loader warned about this schema (schemaWarnings): a schema that cannot be compiled
    // cannot refuse anything, and refusing everything would make the operation unusable.
    return ANYTHING;
  }
  return (value, plain) => {
    direction = side;
    let valid: boolean;
    try {
      valid = validate(plain ? value : toValidationView(value)) as boolean;
    } finally {
      direction = 'neutral';
    }
    return valid ? OK : { ok: false, issues: toIssues(validate.errors ?? []) };
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
