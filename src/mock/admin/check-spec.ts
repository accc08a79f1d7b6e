// `plantstore spec --check`: what a loaded document offers, and what it leaves out that clients
// and the mock will trip over (an auth-protected operation without a 401, no 4xx at all, a body
// without a schema). Warnings never fail the check: the document itself is valid.
import { absentItemWarnings } from '../answer/absent-items.ts';
import type { AbsentItemMode } from '../options.ts';
import type { LoadedSpec } from '../../document/loaded-spec.ts';
import { listOperations, type Operation } from '../../document/operations.ts';
import { schemaNames } from '../../document/resolve-target.ts';
import { bindResources, buildResourceMap, type ResourceBinding } from '../../document/resources.ts';
import { collectionLines } from '../../document/resource-report.ts';

export interface SpecSummary {
  file: string;
  title: string;
  openapi: string;
  operations: Array<{ method: string; path: string; id: string }>;
  schemas: string[];
  securitySchemes: Array<{ name: string; description: string }>;
  warnings: string[];
  /** One line per collection: kept by the mock, or answered from the document and why. */
  collections: string[];
  verdict: string;
}

/**
 * Every warning about a document, as `spec --check` lists them and the mock prints them at
 * start-up: the loader's, what the operations leave out, and the absent items answered from the
 * document (under the mock's --absent-items mode). One list, so that the two never disagree.
 */
export function documentWarnings(
  spec: LoadedSpec,
  absentItems: AbsentItemMode = 'document',
  operations: Operation[] = listOperations(spec),
  bindings: Map<Operation, ResourceBinding> = bindResources(operations, spec.document),
): string[] {
  const schemes = Object.keys(spec.document.components?.securitySchemes ?? {});
  return [
    ...spec.warnings,
    ...operations.flatMap((operation) => warningsOf(operation, schemes)),
    ...absentItemWarnings(bindings, absentItems),
  ];
}

const hasEntries = (value: unknown) => value !== null && typeof value === 'object' && Object.keys(value).length > 0;

/**
 * Why a loaded document cannot be mocked, with its pointer, or undefined. A document of schemas
 * alone still serves `example` and `validate`, so the loader takes it; the mock refuses it.
 */
export function unmockable(spec: LoadedSpec): string | undefined {
  if (hasEntries(spec.document.webhooks) || listOperations(spec).length > 0) return undefined;
  return '#/paths: the document declares no operations and no webhooks, so there is nothing to mock';
}

/** The one-line verdict on a loaded document, the same from `spec --check` and the mock. */
export function verdictOf(spec: LoadedSpec, warnings: number): string {
  const { openapi, info } = spec.document;
  const count = warnings === 0 ? 'no warnings' : `${warnings} warning${warnings === 1 ? '' : 's'}`;
  const mockable =
    unmockable(spec) === undefined ? 'can be mocked' : 'declares no operations and no webhooks, so it cannot be mocked';
  return (
    `${spec.file}: loads as an OpenAPI ${openapi} document (${info.title} ${info.version}) ` +
    `and ${mockable}; ${count}`
  );
}

/** Summarizes a loaded (hence mockable) document and lists its warnings. */
export function checkSpec(spec: LoadedSpec, absentItems: AbsentItemMode = 'document'): SpecSummary {
  const { document } = spec;
  const operations = listOperations(spec);
  const schemes = (document.components?.securitySchemes ?? {}) as Record<
    string,
    { type?: string; scheme?: string; in?: string; name?: string }
  >;
  const map = buildResourceMap(operations, document);
  const warnings = documentWarnings(spec, absentItems, operations, map.bindings);
  return {
    file: spec.file,
    title: `${document.info.title} ${document.info.version}`,
    openapi: document.openapi,
    operations: operations.map(({ method, path, id }) => ({ method, path, id })),
    schemas: schemaNames(spec),
    securitySchemes: Object.entries(schemes).map(([name, s]) => ({
      name,
      description: [s.type, s.scheme ?? (s.in ? `in ${s.in} as ${s.name}` : undefined)].filter(Boolean).join(' '),
    })),
    warnings,
    verdict: verdictOf(spec, warnings.length),
    collections: collectionLines(map.resources),
  };
}

function warningsOf(operation: Operation, schemeNames: string[]): string[] {
  const name = operation.id;
  const statuses = operation.responses.map((r) => r.status);
  const declares = (status: string) =>
    statuses.includes(status) || statuses.includes(`${status[0]}XX`) || statuses.includes('default');
  const warnings: string[] = [];
  if (/^[A-Z]+ \//.test(name))
    warnings.push(`${name}: no operationId; example and validate name operations by operationId`);
  const requiresAuth =
    operation.security.length > 0 && operation.security.every((alternative) => alternative.length > 0);
  if (requiresAuth && !declares('401')) warnings.push(`${name}: no 401 declared although the operation requires auth`);
  if (!statuses.some((status) => status.startsWith('4') || status === 'default'))
    warnings.push(`${name}: no 4xx response declared, so clients cannot know the shape of an error`);
  if (!statuses.some((status) => status.startsWith('2'))) warnings.push(`${name}: no 2xx response declared`);
  for (const alternative of operation.security) {
    for (const scheme of alternative)
      if (!schemeNames.includes(scheme.name))
        warnings.push(`${name}: security scheme '${scheme.name}' is not defined in components.securitySchemes`);
  }
  for (const content of operation.requestBody?.contents ?? []) {
    if (content.schema === undefined) warnings.push(`${name}: request body ${content.mediaType} has no schema`);
  }
  for (const response of operation.responses) {
    for (const content of response.contents)
      if (content.schema === undefined)
        warnings.push(`${name}: response ${response.status} ${content.mediaType} has no schema`);
  }
  return warnings;
}

/** The summary as the lines `spec --check` prints. */
export function formatSpecSummary(summary: SpecSummary): string {
  const lines = [summary.verdict, `operations (${summary.operations.length}):`];
  for (const op of summary.operations) lines.push(`  ${op.method.padEnd(7)} ${op.path}  ${op.id}`);
  lines.push(`schemas (${summary.schemas.length}): ${summary.schemas.join(', ') || '(none)'}`);
  lines.push(
    `security schemes (${summary.securitySchemes.length}): ` +
      `${summary.securitySchemes.map((s) => `${s.name} (${s.description})`).join(', ') || '(none)'}`,
  );
  lines.push(
    `collections the mock keeps state for (${summary.collections.filter((c) => / kept/.test(c)).length} of ` +
      `${summary.collections.length}; spec --resources for the whole map):`,
  );
  for (const line of summary.collections) lines.push(`  ${line}`);
  lines.push(summary.warnings.length === 0 ? 'warnings: none' : `warnings (${summary.warnings.length}):`);
  for (const warning of summary.warnings) lines.push(`  ${warning}`);
  return `${lines.join('\n')}\n`;
}
