// `plantstore msw`: the module a page imports instead of a document file. The document is read,
// checked and bundled here, in Node, with Prism's forced-answer choices worked out (a browser can
// load neither the loader nor Prism), so the page only dereferences it and builds the engine.
import { basename } from 'node:path';
import type { LoadedSpec } from '../document/loaded-spec.ts';
import { listOperations } from '../document/operations.ts';
import { forcedChoiceTable } from '../mock/answer/forced-response.ts';
import { PREPARED_FORMAT, type PreparedDocument } from './prepared.ts';

/** The prepared form of a loaded document. */
export async function prepareDocument(spec: LoadedSpec): Promise<PreparedDocument> {
  return {
    plantstorePrepared: PREPARED_FORMAT,
    source: basename(spec.file),
    dialect: spec.dialect,
    bundled: spec.bundled,
    warnings: spec.warnings,
    forcedChoices: await forcedChoiceTable(spec, listOperations(spec)),
  };
}

export interface ModuleText {
  /** The ES module: the prepared document and a createHandlers bound to it. */
  js: string;
  /** Its types, for TypeScript projects that import it. */
  dts: string;
}

/** The module `plantstore msw --out` writes; `importFrom` is where it finds createHandlers. */
export function preparedModule(prepared: PreparedDocument, command: string, importFrom = 'plantstore/msw'): ModuleText {
  const from = JSON.stringify(importFrom);
  const header = `// Written by \`${command}\`. Do not edit: run the command again when the document changes.\n`;
  const js = `${header}import { createHandlers as create } from ${from};

/** ${prepared.source}, loaded and checked ahead of time, for the browser and for test runners. */
export const document = ${JSON.stringify(prepared)};

/** MSW request handlers that answer for this document as \`plantstore mock\` does. */
export const createHandlers = (options = {}) => create({ ...options, spec: document });
`;
  const dts = `${header}import type { CreateHandlersOptions, PlantstoreHandlers, PreparedDocument } from ${from};

export declare const document: PreparedDocument;
export declare function createHandlers(options?: Omit<CreateHandlersOptions, 'spec'>): Promise<PlantstoreHandlers>;
`;
  return { js, dts };
}
