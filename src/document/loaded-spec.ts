// What a loaded document is: the type every part of the toolkit starts from, apart from the
// loader itself, so that the modules the loader uses can name it without importing the loader.
export { DEFAULT_SPEC_PATH } from '../platform/host.ts';

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
  /**
   * Every local file it was read from, the root included (`mock --watch` watches them); absent for a document not read
   * from files.
   */
  files?: string[];
  /** '3.0' or '3.1': decides the JSON Schema dialect of its schemas. */
  dialect: '3.0' | '3.1';
  /**
   * The dereferenced document. $refs are inlined, except circular ones, which stay as `$ref`
   * strings pointing into `bundled` (so schemas stay a tree, never an object cycle).
   */
  document: OpenApiDocument;
  /**
   * The same document bundled: one object, every `$ref` kept and internal. The validator
   * compiles from it, so a schema referred to from many places is compiled once.
   */
  bundled: OpenApiDocument;
  /** What the document gets wrong that the toolkit works around (one line each); `--strict` refuses them. */
  warnings: string[];
  /** Schema `type`s that name no JSON type (schema-types.ts): the operations that reach them answer 500. */
  badTypes?: Array<{ pointer: string; type: string }>;
  /** Prism's choice of status for forced answers, worked out ahead of time (see forced-response.ts). */
  forcedChoices?: ForcedChoiceTable;
}

/**
 * Prism's choice of status for a forced answer, per operation (`"POST /plants"`), worked out
 * ahead of time for hosts that cannot load Prism (a browser): with no code asked, the status or
 * Prism's refusal; per declared code; and per class (`"4"`) for every code the operation does
 * not declare. `asked` is the asked code itself, as Prism answers through a range or `default`.
 */
export type ForcedChoiceTable = Record<
  string,
  { none: number | { refused: string }; codes: Record<string, ForcedCode>; classes: Record<string, ForcedCode> }
>;
export type ForcedCode = number | 'asked' | 'refused';
