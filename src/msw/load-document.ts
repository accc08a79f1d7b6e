// The document createHandlers is given: a path (read by the loader, in Node), a document already
// loaded (loadSpec), or the prepared module `plantstore msw` writes. The browser's twin takes
// only the last two: there are no files to read.
import { loadAuditedSpec } from '../example/load-audited-spec.ts';
import type { LoadedSpec } from '../document/loaded-spec.ts';
import { specOfObject, type PreparedDocument } from './prepared.ts';

export type DocumentSource = string | LoadedSpec | PreparedDocument;

export async function loadDocument(source: DocumentSource): Promise<LoadedSpec> {
  if (typeof source === 'string') return loadAuditedSpec(source);
  return specOfObject(source);
}
