// The browser's load-document.ts: documents come prepared (`plantstore msw`), never as paths.
import type { LoadedSpec } from '../document/loaded-spec.ts';
import { PlantstoreError } from '../errors.ts';
import { isLoadedSpec, isPrepared, specOfPrepared } from './prepared.ts';
import type { DocumentSource } from './load-document.ts';

export async function loadDocument(source: DocumentSource): Promise<LoadedSpec> {
  if (typeof source === 'string')
    throw new PlantstoreError('SPEC_NOT_FOUND', `${source}: a browser cannot read a document file`, [
      'Write a module with the document loaded ahead of time, and import it: plantstore msw --spec FILE --out src/mocks/plantstore.js',
    ]);
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
