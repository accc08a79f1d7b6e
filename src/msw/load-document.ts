// The document createHandlers is given: a path (read by the loader, in Node), a document already
// loaded (loadSpec), or the prepared module `plantstore msw` writes. The browser's twin takes
// only the last two: there are no files to read.
import { loadAuditedSpec } from '../example/load-audited-spec.ts';
import type { LoadedSpec } from '../document/loaded-spec.ts';
import { PlantstoreError } from '../errors.ts';
import { isLoadedSpec, isPrepared, specOfPrepared, type PreparedDocument } from './prepared.ts';

export type DocumentSource = string | LoadedSpec | PreparedDocument;

export async function loadDocument(source: DocumentSource): Promise<LoadedSpec> {
  if (typeof source === 'string') return loadAuditedSpec(source);
  if (isPrepared(source)) return specOfPrepared(source);
  if (!isLoadedSpec(source))
    throw new PlantstoreError(
      'SPEC_INVALID',
      'createHandlers needs `spec`: a document path, a loadSpec result or a prepared module',
      [
        "For example: createHandlers({ spec: 'openapi/plant-store.yaml' }), or a module written by plantstore msw --spec FILE --out FILE.",
      ],
    );
  return source;
}
