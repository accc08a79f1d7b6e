// A document loaded ahead of time, for hosts that cannot read files or load Prism (a browser):
// what `plantstore msw` writes into its module, and what createHandlers takes instead of a path.
import { dereferenceBundled } from '../document/dereference.ts';
import type { ForcedChoiceTable, LoadedSpec, OpenApiDocument } from '../document/loaded-spec.ts';
import { PlantstoreError } from '../errors.ts';

/** Bumped when the shape changes: a module written by another version is refused with what to do. */
export const PREPARED_FORMAT = 1;

export interface PreparedDocument {
  plantstorePrepared: typeof PREPARED_FORMAT;
  /** Where it was read from, for messages. */
  source: string;
  dialect: '3.0' | '3.1';
  /** The document bundled (every `$ref` internal); dereferenced when handlers are made. */
  bundled: OpenApiDocument;
  warnings: string[];
  forcedChoices: ForcedChoiceTable;
}

export const isPrepared = (value: unknown): value is PreparedDocument =>
  typeof value === 'object' && value !== null && 'plantstorePrepared' in value;

/** A document loaded by loadSpec (what createHandlers reads of it), as opposed to anything else a caller passed. */
const isLoadedSpec = (value: unknown): value is LoadedSpec =>
  typeof value === 'object' && value !== null && 'document' in value && 'bundled' in value && 'dialect' in value;

/** The document a `spec` that is not a path stands for: a prepared module's, or a loadSpec result as it is. */
export function specOfObject(source: unknown): LoadedSpec {
  if (isPrepared(source)) return specOfPrepared(source);
  if (!isLoadedSpec(source))
    throw new PlantstoreError(
      'SPEC_INVALID',
      'createHandlers needs `spec`: a document path, a loadSpec result or a prepared module',
      [
        "For example: createHandlers({ spec: 'openapi/plant-store.yaml' }), or a module written by plantstore msw " +
          '--spec FILE --out FILE.',
      ],
    );
  return source;
}

/** The loaded document a prepared one stands for. */
export function specOfPrepared(prepared: PreparedDocument): LoadedSpec {
  if (prepared.plantstorePrepared !== PREPARED_FORMAT)
    throw new PlantstoreError('SPEC_INVALID', `${prepared.source}: written by another version of plantstore`, [
      'Write the module again with this version: plantstore msw --spec FILE --out FILE.',
    ]);
  // Dereferencing changes the object it is given, and the validators turn `bundled` into Ajv's
  // view in place: each gets its own copy, so the module's document serves every createHandlers.
  const document = dereferenceBundled(structuredClone(prepared.bundled));
  return {
    file: prepared.source,
    dialect: prepared.dialect,
    document,
    bundled: structuredClone(prepared.bundled),
    warnings: prepared.warnings,
    forcedChoices: prepared.forcedChoices,
  };
}
