// Absent items: a read, replace, merge or remove whose key matches no stored record. Where the
// operation declares a 404 (or a 4XX, or a default beside its successes) the item gets it; where
// it declares none, the mock keeps to the document and answers its lowest 2xx as Prism would,
// unless --absent-items 404 asks for the undeclared 404.
import { withArticle } from '../../document/english.ts';
import type { Operation } from '../../document/operations.ts';
import type { ResourceBinding } from '../../document/resources.ts';
import type { AbsentItemMode } from '../options.ts';

const ITEM_ROLES = new Set(['read', 'replace', 'merge', 'remove']);

/**
 * Whether the operation declares a response an absent item fits: 404, 4XX, or `default` when
 * the operation also declares a success (a lone `default` is the success itself, as in
 * Petstore's `logoutUser`, and saying "not found" with it would be saying "done").
 */
export function declaresNotFound(operation: Operation): boolean {
  const statuses = operation.responses.map((r) => r.status);
  if (statuses.includes('404') || statuses.includes('4XX')) return true;
  return statuses.includes('default') && statuses.some((s) => s.startsWith('2'));
}

/** How an operation answers an absent item: with a 404 (declared, or asked for) or from the document. */
export function absentAnswer(operation: Operation, mode: AbsentItemMode): '404' | 'document' {
  return mode === '404' || declaresNotFound(operation) ? '404' : 'document';
}

/** One start-up warning per item operation that will answer an absent item from the document. */
export function absentItemWarnings(bindings: Map<Operation, ResourceBinding>, mode: AbsentItemMode): string[] {
  const warnings: string[] = [];
  for (const [operation, binding] of bindings) {
    if (!ITEM_ROLES.has(binding.role) || absentAnswer(operation, mode) === '404') continue;
    warnings.push(
      `${operation.id} (${operation.method} ${operation.path}) declares no 404: ${withArticle(binding.noun)} that ` +
        `is not stored gets its lowest 2xx from the document ` +
        `(its example, else a generated body), as Prism answers; declare a 404 there, or ask for an undeclared 404 ` +
        `(--absent-items 404; absentItems: '404' in the library and the MSW handlers)`,
    );
  }
  return warnings;
}
