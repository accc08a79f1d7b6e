// The browser's load-document.ts: documents come prepared (`plantstore msw`), never as paths.
import type { LoadedSpec } from '../document/loaded-spec.ts';
import { PlantstoreError } from '../errors.ts';
import { specOfObject } from './prepared.ts';
import type { DocumentSource } from './load-document.ts';

export async function loadDocument(source: DocumentSource): Promise<LoadedSpec> {
  if (typeof source === 'string')
    throw new PlantstoreError('SPEC_NOT_FOUND', `${source}: a browser cannot read a document file`, [
      'Write a module with the document loaded ahead of time, and import it: plantstore msw --spec FILE --out ' +
        'src/mocks/plantstore.js',
    ]);
  return specOfObject(source);
}
