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
    throw (await describeSyntaxError(error)) ?? describeReadError(file, error);
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
  try {
    // patch: fix the small, well-known slips of 2.0 documents instead of refusing them.
    const { openapi } = await swagger2openapi.convertObj(document, { patch: true, warnOnly: true, resolve: false, direct: false });
    return openapi as OpenApiDocument;
  } catch (error) {
    throw new PlantstoreError('SPEC_INVALID', `${file}: cannot convert this Swagger 2.0 document to OpenAPI 3.0: ${firstLine(error)}`);
  }
}

type RefParserError = Error & { source?: string; path?: Array<string | number>; code?: string; errors?: RefParserError[] };

/** One clear message for a read failure: the file (where the fault is), the pointer and the reason. */
export function describeReadError(file: string, error: unknown): PlantstoreError {
  const err = ((error as RefParserError).errors?.[0] ?? error) as RefParserError;
  const message = firstLine(err);
  const remote = /https?:\/\/[^\s"']+/i.exec(message)?.[0];
  if (remote && /resolve|resolver|http/i.test(message)) {
    return new PlantstoreError('SPEC_REMOTE_REF', `${file}: the document refers to ${remote}, which is not fetched`, [
      'References to other servers are not followed unless you ask: pass --remote-refs to fetch them,',
      'or download the file and refer to it by a relative path.',
    ]);
  }
  const where = err.source ? resolve(decodeURI(err.source.replace(/^file:\/\//, ''))) : file;
  const pointer = Array.isArray(err.path) && err.path.length > 0 ? `#/${err.path.map((p) => escapePointerToken(String(p))).join('/')}: ` : '';
  return new PlantstoreError(/Unsupported|Unrecognized/.test(message) ? 'SPEC_UNSUPPORTED' : 'SPEC_INVALID', `${where}: ${pointer}${message}`);
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
    return new PlantstoreError('SPEC_INVALID', `${where}: not valid ${kind}: ${firstLine(err).replace(/^Error parsing .*?: /, '')}`);
  }
  const [reason, excerpt = ''] = found.message.split(/ at line \d+, column \d+:\n\n/);
  const { line, col } = found.linePos[0];
  return new PlantstoreError('SPEC_INVALID', `${where}:${line}:${col}: not valid ${kind}: ${reason}`, excerpt.replace(/\n$/, '').split('\n'));
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0];
}
