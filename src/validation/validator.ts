// The one validator of the toolkit: the mock (requests), the runner (responses) and the CLI
// (payloads) all call it. Ajv compiles each schema once, on first use, straight from the loaded
// document, or the compiled code is read from the cache (compiled-cache.ts); values are judged
// with exact integers (see json/int64.ts).
import { _, stringify, type KeywordCxt } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { Ajv, ErrorObject, Format, ValidateFunction } from 'ajv';
import { PlantstoreError } from '../errors.ts';
import { type JsonValue } from '../json/exact-json.ts';
import { isInt32, isInt64, toValidationView } from '../json/int64.ts';
import { escapePointerToken, getAtPointer } from '../document/json-pointer.ts';
import { type LoadedSpec } from '../document/loaded-spec.ts';
import { listOperations } from '../document/operations.ts';
import {
  bundledPointer,
  DIRECTIONAL,
  prepareForValidation,
  type Direction,
  type DirectionalRequired,
} from './schema-view.ts';
import { canCache, readCompiled, writeCompiled } from './compiled-cache.ts';
import { requireAjvDraft04 } from '../platform/host.ts';
import { standaloneModule } from './standalone-module.ts';

// ajv-draft-04 and ajv-formats are CommonJS with a default export, which Node's ESM interop (and
// require) wraps once more. Ajv for JSON Schema draft 4, which OpenAPI 3.0 documents use, is
// loaded when one is: start-up that a 3.1 document does not need (docs/performance.md §10.9).
const ajvDraft04 = (): new (options: object) => Ajv => {
  const loaded = requireAjvDraft04() as { default?: unknown };
  return (loaded.default ?? loaded) as new (options: object) => Ajv;
};
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv,
) => Ajv;

// ajv-formats' formats, with exact int32/int64 over projected doubles (its int64 accepts any
// integer). Compiled code requires them, and the DIRECTIONAL keyword's check, by these names,
// so that code read back from the cache finds the very same functions.
const FORMATS: Record<string, Format> = {
  ...(fullFormats as Record<string, Format>),
  int32: { type: 'number', validate: isInt32 },
  int64: { type: 'number', validate: isInt64 },
};
const RUNTIME = { 'plantstore:formats': FORMATS, 'plantstore:directional': { missingInDirection } };

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
   * for it; docs/performance.md §10.16), so that a first request only compiles its own schemas.
   */
  prepare(): void;
  /**
   * Writes the code of every schema compiled so far to the cache, for the next start to read
   * instead of compiling, in short steps (one per `next()`, so that a caller can yield between
   * them); returns false when there is nothing new to write or no cache. Call it once the schemas
   * that matter are compiled (the mock does at the end of its warm-up).
   */
  save(): Generator<void, boolean>;
  /** Whether the validators were read from the cache of compiled validators (nothing to compile). */
  readonly cached: boolean;
}

const DOCUMENT_ID = 'plantstore:document';
const OK: ValidationResult = Object.freeze({ ok: true });
const ANYTHING: SchemaCheck = () => OK;

function createAjv(spec: LoadedSpec, source = false): Ajv {
  const view = prepareForValidation(spec.bundled);
  // No meta-schema check per compile (compiling the 2020-12 meta-schema is a visible share of a
  // start; fast path: see docs/performance.md §10.10):
  // the loader checks every schema once per document version (schemaWarnings), and its result is
  // cached with it.
  // A large document (Stripe's, GitHub's) reaches hundreds of components from one answer schema:
  // Ajv's inlining and code optimisation then double the compile time of a first request
  // (docs/performance.md §10.16). A small one keeps them: its few schemas compile at once,
  // and inlined code validates a little faster on the hot path.
  const large = Object.keys(spec.document.paths ?? {}).length > 100;
  // `source` keeps each function's code, for the cache (compiled-cache.ts) to write.
  const code = { source, formats: _`require("plantstore:formats")`, ...(large ? { optimize: false } : {}) };
  const options = {
    allErrors: true,
    strict: false,
    logger: false as const,
    validateFormats: true,
    validateSchema: false,
    code,
    ...(large ? { inlineRefs: false } : {}),
  };
  const ajv: Ajv = spec.dialect === '3.1' ? new Ajv2020(options) : new (ajvDraft04())(options);
  addFormats(ajv);
  for (const name of ['int32', 'int64']) ajv.addFormat(name, FORMATS[name]);
  // OpenAPI's own schema keywords, so Ajv knows them for what they are.
  ajv.addVocabulary(['xml', 'externalDocs', 'discriminator']);
  ajv.addKeyword({
    keyword: DIRECTIONAL,
    type: 'object',
    schemaType: 'object',
    error: {
      message: 'must have required property',
      params: ({ params }) => _`{missingProperty: ${params.missingProperty}}`,
    },
    code: requiredInDirection,
  });
  // Schemas are compiled by reference into the bundled document, so a component used by many
  // operations is compiled once, and circular references resolve.
  ajv.addSchema(view, DOCUMENT_ID, undefined, false);
  return ajv;
}

// The direction of the value being validated now. Validation is synchronous and never calls out,
// so one compiled schema serves requests and answers: the check sets this around each call.
let direction: Direction = 'neutral';

/** The names of the DIRECTIONAL keyword missing from an object in the current direction. */
function missingInDirection(request: string[], response: string[], data: Record<string, unknown>): string[] {
  const names = direction === 'request' ? request : direction === 'response' ? response : [...request, ...response];
  return names.filter((name) => !Object.hasOwn(data, name));
}

/**
 * The DIRECTIONAL keyword: readOnly names are required in answers, writeOnly ones in requests.
 * Generated code (not a `validate` function), so that Ajv can write it out for the cache; the
 * names are written into the code rather than read from the schema, which would copy the schema in.
 */
function requiredInDirection(cxt: KeywordCxt): void {
  const { gen, data } = cxt;
  const schema = cxt.schema as DirectionalRequired;
  const check = gen.scopeValue('func', {
    ref: missingInDirection,
    code: _`require("plantstore:directional").missingInDirection`,
  });
  const missing = gen.const(
    'missing',
    _`${check}(${stringify(schema.request)}, ${stringify(schema.response)}, ${data})`,
  );
  gen.forOf('name', missing, (name) => cxt.error(false, { missingProperty: name }));
}

/** Which view of the document a pointer is judged by: readOnly and writeOnly depend on the direction. */
function directionOf(pointer: string): Direction {
  if (pointer.includes('/requestBody/') || pointer.includes('/parameters/')) return 'request';
  if (pointer.includes('/responses/')) return 'response';
  return 'neutral';
}

/**
 * Checks every schema the toolkit uses against its dialect's meta-schema: each failure is one
 * warning (compiling the meta-schema is costly, docs/performance.md §10.10, so the loader does
 * this once per document version, and the result is cached with the document). Compiling waits for
 * first use.
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
    if (!ajv.validateSchema(schema as object))
      warnings.push(`${pointer}: ${ajv.errorsText(ajv.errors, { dataVar: 'schema' })}`);
  }
  return warnings;
}

/** Every schema the mock, the runner and the CLI may compile: components and each operation's. */
function schemaPointers(spec: LoadedSpec): string[] {
  const pointers = Object.keys(spec.document.components?.schemas ?? {}).map(
    (name) => `#/components/schemas/${escapePointerToken(name)}`,
  );
  for (const operation of listOperations(spec)) {
    for (const content of operation.requestBody?.contents ?? [])
      if (content.schema !== undefined) pointers.push(content.schemaPointer);
    for (const response of operation.responses)
      for (const content of response.contents) if (content.schema !== undefined) pointers.push(content.schemaPointer);
    for (const parameter of operation.parameters)
      if (parameter.schema !== undefined) pointers.push(parameter.schemaPointer);
  }
  return pointers;
}

/**
 * Builds the validators of one loaded document. Each schema is compiled on first use and kept,
 * or read from the cache of compiled validators when this version of the document has one.
 */
export function createValidators(spec: LoadedSpec): Validators {
  let ajv: Ajv | undefined;
  const cache = new Map<string, SchemaCheck>();
  const saved = readCompiled(spec, RUNTIME);
  // Only a process that compiled everything it knows writes the cache: code read from it cannot be written out again.
  const compiled = new Set<string>();
  // Keeping each function's code costs memory: only where there is a cache to write it to.
  const newAjv = () => createAjv(spec, saved === undefined && canCache(spec));
  const validateAt = (where: string): ValidateFunction | undefined => {
    const found = saved?.get(where);
    if (found) return found;
    ajv ??= newAjv();
    const validate = ajv.getSchema(`${DOCUMENT_ID}${where}`);
    if (validate) compiled.add(where);
    return validate;
  };
  return {
    prepare() {
      // A cached document's validators need no Ajv: it is made on the first schema the cache lacks.
      if (saved === undefined) ajv ??= newAjv();
    },
    at(pointer) {
      let check = cache.get(pointer);
      if (!check) {
        check = compile(spec, pointer, directionOf(pointer), validateAt);
        cache.set(pointer, check);
      }
      return check;
    },
    *save() {
      if (saved !== undefined || ajv === undefined || compiled.size === 0 || !ajv.opts.code.source) return false;
      let code: string;
      try {
        code = yield* standaloneModule(
          ajv,
          Object.fromEntries([...compiled].map((where) => [where, `${DOCUMENT_ID}${where}`])),
        );
      } catch {
        return false; // a schema Ajv cannot write out: the next start compiles, as without a cache
      }
      yield;
      return writeCompiled(spec, code);
    },
    cached: saved !== undefined,
  };
}

function compile(
  spec: LoadedSpec,
  pointer: string,
  side: Direction,
  validateAt: (where: string) => ValidateFunction | undefined,
): SchemaCheck {
  const normalized = pointer.startsWith('#') ? pointer : `#${pointer}`;
  if (getAtPointer(spec.document, normalized) === undefined)
    throw new PlantstoreError('SPEC_INVALID', `${spec.file}: ${pointer}: no schema there`);
  const where = bundledPointer(spec.bundled, normalized);
  let validate: ValidateFunction | undefined;
  try {
    if (where === undefined) throw new Error('not found in the bundled document');
    validate = validateAt(where);
    if (validate === undefined) throw new Error('not found in the bundled document');
  } catch {
    // The loader warned about this schema (schemaWarnings): a schema that cannot be compiled
    // cannot refuse anything, and refusing everything would make the operation unusable.
    return ANYTHING;
  }
  const check = validate;
  return (value, plain) => {
    direction = side;
    let valid: boolean;
    try {
      valid = check(plain ? value : toValidationView(value)) as boolean;
    } finally {
      direction = 'neutral';
    }
    return valid ? OK : { ok: false, issues: toIssues(check.errors ?? []) };
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
    case DIRECTIONAL:
      return { code: 'required', pointer: at(params.missingProperty), message: 'is required' };
    case 'additionalProperties':
      return { code: 'additionalProperties', pointer: at(params.additionalProperty), message: 'is not allowed' };
    case 'unevaluatedProperties':
      return { code: 'unevaluatedProperties', pointer: at(params.unevaluatedProperty), message: 'is not allowed' };
    case 'format': {
      const range =
        params.format === 'int64'
          ? ' (-9223372036854775808 to 9223372036854775807)'
          : params.format === 'int32'
            ? ' (-2147483648 to 2147483647)'
            : '';
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
