import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PlantstoreError } from '../errors.ts';
import { readCachedSpec, writeCachedSpec } from './spec-cache.ts';

/** The built-in Plant Store document: the default wherever a command takes --spec. */
export const DEFAULT_SPEC_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'openapi', 'plant-store.yaml');

export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  security?: Array<Record<string, string[]>>;
  webhooks?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
};

/** A validated, dereferenced document: what every product of the toolkit starts from. */
export interface LoadedSpec {
  /** Absolute path of the root file. */
  file: string;
  /** '3.0' or '3.1': decides the JSON Schema dialect of its schemas. */
  dialect: '3.0' | '3.1';
  /**
   * The dereferenced document. $refs are inlined, except circular ones, which stay as `$ref`
   * strings pointing into this same document (so schemas stay a tree, never an object cycle).
   */
  document: OpenApiDocument;
}

/**
 * Loads, validates and dereferences an OpenAPI 3.0 or 3.1 document (YAML or JSON, $refs across
 * files). Fails with a PlantstoreError naming the file, the JSON pointer and the reason.
 * @example const spec = await loadSpec('openapi/plant-store.yaml');
 */
export async function loadSpec(path: string = DEFAULT_SPEC_PATH): Promise<LoadedSpec> {
  const file = resolve(path);
  if (!existsSync(file)) {
    throw new PlantstoreError('SPEC_NOT_FOUND', `${file}: no such file`, ['Pass an OpenAPI 3.0 or 3.1 document (YAML or JSON) with --spec FILE.']);
  }
  const cached = readCachedSpec(file);
  if (cached) return { file, dialect: cached.dialect, document: cached.document as OpenApiDocument };
  // Imported here, not at the top: a cache hit never pays for loading it.
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  const parser = new SwaggerParser();
  let document: OpenApiDocument;
  try {
    document = (await parser.validate(file, { dereference: { circular: 'ignore' } })) as OpenApiDocument;
  } catch (error) {
    throw describeLoadError(file, error);
  }
  const version = String(document.openapi ?? '');
  if (!/^3\.[01]\./.test(version)) {
    throw new PlantstoreError('SPEC_UNSUPPORTED', `${file}: OpenAPI ${version || (document as { swagger?: string }).swagger || '(unknown)'} is not supported; use an OpenAPI 3.0 or 3.1 document`);
  }
  const dialect = version.startsWith('3.1') ? '3.1' : '3.0';
  const spec: LoadedSpec = { file, dialect, document };
  await checkAllSchemas(spec);
  writeCachedSpec(file, parser.$refs.paths(), dialect, document);
  return spec;
}

/** Every schema of the document must be a valid schema of its dialect (swagger-parser checks 3.1 schemas only loosely). */
async function checkAllSchemas(spec: LoadedSpec): Promise<void> {
  const [{ checkSchemas }, { listOperations }] = await Promise.all([import('../validation/validator.ts'), import('./operations.ts')]);
  const pointers = Object.keys(spec.document.components?.schemas ?? {}).map((name) => `#/components/schemas/${escapePointerToken(name)}`);
  for (const operation of listOperations(spec)) {
    for (const content of operation.requestBody?.contents ?? []) pointers.push(content.schemaPointer);
    for (const response of operation.responses) for (const content of response.contents) pointers.push(content.schemaPointer);
    for (const parameter of operation.parameters) pointers.push(parameter.schemaPointer);
  }
  checkSchemas(spec, pointers);
}

type AjvLikeIssue = { instancePath?: string; message?: string; params?: Record<string, unknown> };

function describeLoadError(file: string, error: unknown): PlantstoreError {
  const err = error as Error & { details?: AjvLikeIssue[]; source?: string; path?: string[]; code?: string };
  if (Array.isArray(err.details) && err.details.length > 0) {
    const lines = err.details.map((issue) => {
      const extra = issue.params?.unevaluatedProperty ?? issue.params?.additionalProperty;
      return `#${issue.instancePath ?? ''}: ${issue.message ?? 'is invalid'}${extra ? ` ('${String(extra)}')` : ''}`;
    });
    return new PlantstoreError('SPEC_INVALID', `${file}: not a valid OpenAPI document`, lines);
  }
  // json-schema-ref-parser errors carry the file (source) and the pointer (path) where they arose.
  const where = err.source ? resolve(err.source.replace(/^file:\/\//, '')) : file;
  const pointer = Array.isArray(err.path) && err.path.length > 0 ? `#/${err.path.map((p) => escapePointerToken(String(p))).join('/')}: ` : '';
  const reason = String(err.message ?? error).split('\n')[0];
  return new PlantstoreError('SPEC_INVALID', `${where}: ${pointer}${reason}`);
}

/** Escapes one JSON pointer token (RFC 6901). */
export function escapePointerToken(token: string): string {
  // Nearly every token ("id", "name") has nothing to escape: no new strings for those.
  if (!token.includes('~') && !token.includes('/')) return token;
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Reads the value at a JSON pointer ('#/a/b' or '/a/b') in a document. */
export function getAtPointer(root: unknown, pointer: string): unknown {
  const path = pointer.replace(/^#/, '');
  if (path === '') return root;
  let node: unknown = root;
  for (const raw of path.slice(1).split('/')) {
    const token = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
