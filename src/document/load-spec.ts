import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PlantstoreError } from '../errors.ts';
import { noteDerivedCache, readCachedSpec, writeCachedSpec } from './spec-cache.ts';
import { badTypes, badTypeWarnings, brokenOperations, type BadType } from './schema-types.ts';
import { DEFAULT_SPEC_PATH, type LoadedSpec, type OpenApiDocument } from './loaded-spec.ts';
import type { Operation } from './operations.ts';
import type { Validators } from '../validation/validator.ts';

export interface LoadOptions {
  /** Follow `$ref`s to http(s) URLs (`--remote-refs`); off, such a reference fails the load. */
  remoteRefs?: boolean;
  /** Refuse the document for any warning, not only for what the official OpenAPI schema refuses. */
  strict?: boolean;
  /**
   * More checks on a first (uncached) load, whose warnings are cached with the rest. The loader
   * sits below the generator, so the generator's audit comes in here (example/load-audited-spec.ts).
   */
  audit?: LoadAudit;
}

/** Warnings about the operations of a loaded document, given its compiled validators. */
export type LoadAudit = (
  spec: LoadedSpec,
  operations: Operation[],
  validators: Validators,
) => string[] | Promise<string[]>;

/**
 * Loads, validates and dereferences an OpenAPI 3.0 or 3.1 document, or a Swagger 2.0 one
 * (converted to 3.0); YAML or JSON, $refs across files. Fails with a PlantstoreError naming the
 * file, the JSON pointer and the reason; what the document gets wrong but can be worked around is
 * listed in `warnings` instead.
 * @example const spec = await loadSpec('openapi/plant-store.yaml');
 */
export async function loadSpec(path: string = DEFAULT_SPEC_PATH, options: LoadOptions = {}): Promise<LoadedSpec> {
  const file = resolve(path);
  if (!existsSync(file)) {
    throw new PlantstoreError('SPEC_NOT_FOUND', `${file}: no such file`, [
      'Pass an OpenAPI 3.0 or 3.1 document, or a Swagger 2.0 one (YAML or JSON), with --spec FILE.',
    ]);
  }
  const cacheKey = `${file}${options.remoteRefs ? '\0remote' : ''}${options.audit ? '\0audited' : ''}`;
  const cached = readCachedSpec(cacheKey);
  let bundled: OpenApiDocument;
  let bundledText: string;
  let warnings: string[];
  let typos: BadType[] = [];
  let files: string[] | undefined;
  if (cached) {
    bundledText = cached.documentText;
    bundled = JSON.parse(bundledText) as OpenApiDocument;
    warnings = cached.warnings;
    typos = cached.badTypes ?? [];
    files = cached.files;
  } else {
    const [{ readDocument }, { officialVerdict }, { mendDocument }] = await Promise.all([
      import('./read-document.ts'),
      import('./official-schema.ts'),
      import('./lenient.ts'),
    ]);
    const read = await readDocument(file, { remoteRefs: options.remoteRefs === true });
    bundled = read.document;
    files = read.files;
    const version = String(bundled.openapi ?? '');
    if (!/^3\.[01]\./.test(version)) {
      throw new PlantstoreError(
        'SPEC_UNSUPPORTED',
        `${file}: OpenAPI ${version || '(no version)'} is not supported; ` +
          'use an OpenAPI 3.0 or 3.1 document, or Swagger 2.0',
      );
    }
    // What Prism reads past is mended first, with a warning each; the official schema judges the rest.
    const mended = mendDocument(bundled);
    typos = badTypes(bundled);
    const verdict = await officialVerdict(bundled, [...mended.tolerated, ...typos.map((typo) => typo.pointer)]);
    if (verdict.errors.length > 0)
      throw new PlantstoreError('SPEC_INVALID', `${file}: not a valid OpenAPI document`, verdict.errors.slice(0, 20));
    warnings = [...read.notes, ...mended.warnings, ...verdict.warnings];
    bundledText = JSON.stringify(bundled);
  }
  const dialect = String(bundled.openapi).startsWith('3.1') ? '3.1' : '3.0';
  // Dereferencing changes the object it is given; the bundled form is kept for the validator.
  const { dereferenceBundled } = await import('./dereference.ts');
  const document = dereferenceBundled(JSON.parse(bundledText) as OpenApiDocument);
  const spec: LoadedSpec = { file, dialect, document, bundled, warnings, files: files ?? [file], badTypes: typos };
  if (!cached) {
    const [{ schemaWarnings, createValidators }, { listOperations }, { auditExamples }] = await Promise.all([
      import('../validation/validator.ts'),
      import('./operations.ts'),
      import('./example-audit.ts'),
    ]);
    // The validators turn the bundled form they are given into Ajv's view, in place (no examples,
    // no extensions): the audit gets a copy, so that spec.bundled stays the document as read, as
    // a load from the cache gives it (`plantstore msw` writes it out).
    const audited: LoadedSpec = { ...spec, bundled: JSON.parse(bundledText) as OpenApiDocument };
    const operations = listOperations(audited);
    const broken = brokenOperations(operations, typos, document);
    const typoWarnings = badTypeWarnings(typos, broken);
    const validators = createValidators(audited);
    spec.warnings = [
      ...warnings,
      ...typoWarnings,
      ...schemaWarnings(audited),
      ...auditExamples(operations, validators),
      ...(options.audit
        ? await options.audit(
            audited,
            operations.filter((operation) => !broken.has(operation)),
            validators,
          )
        : []),
    ];
    const version = writeCachedSpec(cacheKey, files ?? [], dialect, bundledText, spec.warnings, typos);
    if (version !== undefined) noteDerivedCache(spec, cacheKey, version);
  } else {
    noteDerivedCache(spec, cacheKey, cached.version);
  }
  if (options.strict && spec.warnings.length > 0) {
    throw new PlantstoreError(
      'SPEC_INVALID',
      `${file}: the document has ${spec.warnings.length} problem(s), refused under --strict`,
      spec.warnings.slice(0, 20),
    );
  }
  return spec;
}
