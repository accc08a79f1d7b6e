// Reads a document from its files into one bundled object: every file it refers to pulled in,
// every `$ref` internal. A Swagger 2.0 document is converted to OpenAPI 3.0 on the way, by
// swagger2openapi (the converter Prism and Redocly's tools rely on). References never reach the
// network unless the user allows it.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PlantstoreError } from '../errors.ts';
import { escapePointerToken } from './json-pointer.ts';
import { type OpenApiDocument } from './loaded-spec.ts';

export interface ReadOptions {
  /** Follow `$ref`s to http(s) URLs (--remote-refs). */
  remoteRefs: boolean;
}

export interface ReadDocument {
  document: OpenApiDocument;
  /** Every local file the document was read from (the cache key). */
  files: string[];
  /** Notes for the user: a conversion from Swagger 2.0. */
  notes: string[];
}

/** Reads and bundles a document; a failure is one PlantstoreError naming the file and the place. */
export async function readDocument(file: string, options: ReadOptions): Promise<ReadDocument> {
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  const parser = new SwaggerParser();
  const resolveOptions = { resolve: { http: options.remoteRefs ? { timeout: 10_000 } : false } };
  let document: OpenApiDocument;
  try {
    document = (await parser.bundle(file, resolveOptions as never)) as unknown as OpenApiDocument;
  } catch (error) {
    throw (
      (await describeSyntaxError(error)) ??
      describeReadError(file, error, (parser as unknown as { schema?: unknown }).schema)
    );
  }
  const files = parser.$refs.paths().filter((path) => !/^https?:/i.test(path));
  const notes: string[] = [];
  if (typeof (document as { swagger?: unknown }).swagger === 'string') {
    document = await convertSwagger2(file, document);
    notes.push('a Swagger 2.0 document, converted to OpenAPI 3.0 with swagger2openapi');
  }
  return { document, files, notes };
}

async function convertSwagger2(file: string, document: OpenApiDocument): Promise<OpenApiDocument> {
  const { default: swagger2openapi } = await import('swagger2openapi');
  keepAllowEmptyValue(document);
  try {
    // patch: fix the small, well-known slips of 2.0 documents instead of refusing them.
    const { openapi } = await swagger2openapi.convertObj(document, {
      patch: true,
      warnOnly: true,
      resolve: false,
      direct: false,
    });
    return openapi as OpenApiDocument;
  } catch (error) {
    throw new PlantstoreError(
      'SPEC_INVALID',
      `${file}: cannot convert this Swagger 2.0 document to OpenAPI 3.0: ${firstLine(error)}`,
    );
  }
}

/**
 * Swagger 2.0's `allowEmptyValue: false` on a query or form field: OpenAPI 3.0 has no place for it
 * on a form field, and swagger2openapi drops it, so it is written as the `minLength: 1` it means
 * for a string (as Prism does). An omitted allowEmptyValue stays lenient, as most servers are.
 */
function keepAllowEmptyValue(document: OpenApiDocument): void {
  const mend = (list: unknown) => {
    if (!Array.isArray(list)) return;
    for (const parameter of list as Array<Record<string, unknown>>) {
      if (parameter === null || typeof parameter !== 'object' || parameter.allowEmptyValue !== false) continue;
      if (
        (parameter.in === 'formData' || parameter.in === 'query') &&
        parameter.type === 'string' &&
        parameter.minLength === undefined
      )
        parameter.minLength = 1;
    }
  };
  mend(Object.values((document as { parameters?: Record<string, unknown> }).parameters ?? {}));
  for (const item of Object.values(document.paths ?? {})) {
    if (item === null || typeof item !== 'object') continue;
    mend(item.parameters);
    for (const operation of Object.values(item))
      if (operation !== null && typeof operation === 'object') mend((operation as { parameters?: unknown }).parameters);
  }
}

type RefParserError = Error & {
  source?: string;
  path?: Array<string | number>;
  code?: string;
  errors?: RefParserError[];
};

/** One clear message for a read failure: the file (where the fault is), the pointer and the reason. */
export function describeReadError(file: string, error: unknown, root?: unknown): PlantstoreError {
  const err = ((error as RefParserError).errors?.[0] ?? error) as RefParserError;
  const message = firstLine(err);
  // A reference that resolves nowhere: the error names the target; the place that refers to it is found here.
  const missing = /Missing \$ref pointer "([^"]+)"/.exec(message)?.[1];
  if (missing !== undefined && !(Array.isArray(err.path) && err.path.length > 0)) {
    const place = referringPlace(root, missing);
    if (place !== undefined)
      return new PlantstoreError(
        'SPEC_INVALID',
        `${file}: ${place}: $ref "${missing}" resolves to nothing in the document`,
        ['Define the target there, or correct the reference.'],
      );
  }
  const remote = /https?:\/\/[^\s"']+/i.exec(message)?.[0];
  if (remote && /resolve|resolver|http/i.test(message)) {
    return new PlantstoreError('SPEC_REMOTE_REF', `${file}: the document refers to ${remote}, which is not fetched`, [
      'References to other servers are not followed unless you ask: pass --remote-refs to fetch them,',
      'or download the file and refer to it by a relative path.',
    ]);
  }
  const where = err.source ? resolve(decodeURI(err.source.replace(/^file:\/\//, ''))) : file;
  const pointer =
    Array.isArray(err.path) && err.path.length > 0
      ? `#/${err.path.map((p) => escapePointerToken(String(p))).join('/')}: `
      : '';
  return new PlantstoreError(
    /Unsupported|Unrecognized/.test(message) ? 'SPEC_UNSUPPORTED' : 'SPEC_INVALID',
    `${where}: ${pointer}${message}`,
  );
}

/**
 * A file that is not YAML or JSON at all: its name once, the line and column, and an excerpt with
 * a caret, from the `yaml` package (the parser's own message names the file twice and quotes nothing).
 */
async function describeSyntaxError(error: unknown): Promise<PlantstoreError | undefined> {
  const err = ((error as RefParserError).errors?.[0] ?? error) as RefParserError;
  if (err.name !== 'ParserError' || !err.source || /^https?:/i.test(err.source)) return undefined;
  const where = resolve(decodeURI(err.source.replace(/^file:\/\//, '')));
  let text: string;
  try {
    text = readFileSync(where, 'utf8');
  } catch {
    return undefined;
  }
  const { parseDocument } = await import('yaml');
  const [found] = parseDocument(text, { prettyErrors: true }).errors;
  const kind = /\.json$/i.test(where) ? 'JSON' : 'YAML';
  if (!found?.linePos) {
    return new PlantstoreError(
      'SPEC_INVALID',
      `${where}: not valid ${kind}: ${firstLine(err).replace(/^Error parsing .*?: /, '')}`,
    );
  }
  const [reason, excerpt = ''] = found.message.split(/ at line \d+, column \d+:\n\n/);
  const { line, col } = found.linePos[0];
  return new PlantstoreError(
    'SPEC_INVALID',
    `${where}:${line}:${col}: not valid ${kind}: ${reason}`,
    excerpt.replace(/\n$/, '').split('\n'),
  );
}

/** The JSON pointer of the first `$ref` in the document whose value is `target`. */
function referringPlace(root: unknown, target: string): string | undefined {
  const seen = new Set<object>();
  const walk = (node: unknown, pointer: string): string | undefined => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return undefined;
    seen.add(node);
    if ((node as { $ref?: unknown }).$ref === target) return pointer || '#';
    for (const [key, value] of Object.entries(node)) {
      const found = walk(value, `${pointer || '#'}/${escapePointerToken(key)}`);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(root, '');
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0];
}
