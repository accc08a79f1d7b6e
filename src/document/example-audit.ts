// Examples that break their own schema (real documents have them: a relative URL under
// `format: uri`, a missing required field). The mock never serves one, since an honest mock
// never answers what the contract forbids; the loader lists them once, as warnings.
import type { Validators } from '../validation/validator.ts';
import { formatIssues } from '../validation/validator.ts';
import { escapePointerToken } from './json-pointer.ts';
import type { Operation } from './operations.ts';

/** One warning per declared response example that its schema refuses. */
export function auditExamples(operations: Operation[], validators: Validators): string[] {
  const warnings: string[] = [];
  const seen = new Set<unknown>();
  for (const operation of operations) {
    for (const response of operation.responses) {
      for (const content of response.contents) {
        if (content.schema === undefined || !isJsonLike(content.mediaType)) continue;
        for (const [name, value] of content.examples) {
          if (seen.has(value) && value !== null && typeof value === 'object') continue;
          seen.add(value);
          const result = validators.at(content.schemaPointer)(value as never);
          if (result.ok) continue;
          const where = name === 'default' ? 'example' : `examples/${escapePointerToken(name)}`;
          warnings.push(
            `${content.schemaPointer.replace(/\/schema$/, '')}/${where}: example breaks its schema ` +
              `(${formatIssues(result.issues, '(example)')}); the mock answers a generated body instead`,
          );
        }
      }
    }
  }
  return warnings;
}

function isJsonLike(mediaType: string): boolean {
  const essence = mediaType.split(';')[0].trim();
  return essence === 'application/json' || essence.endsWith('+json') || essence === '*/*';
}
