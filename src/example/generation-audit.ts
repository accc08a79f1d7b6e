// Bodies the mock cannot generate (a schema json-schema-faker cannot satisfy), found once at load
// and reported there, rather than first met by a client's request as a 500. One draw per distinct
// JSON response schema that could fail (generation-risk.ts): the same draw the mock makes for an answer
// without an example, or under `Prefer: dynamic=true`.
import { generateOne } from './generate-one.ts';
import { patternDrawsHold } from './example-generator.ts';
import { needsDraw, type RiskContext } from './generation-risk.ts';
import { getAtPointer } from '../document/json-pointer.ts';
import type { LoadedSpec } from '../document/loaded-spec.ts';
import { isJsonMediaType, type Operation } from '../document/operations.ts';
import type { Validators } from '../validation/validator.ts';

/**
 * One warning per JSON response schema no valid body can be generated for, naming the operations that answer with it.
 *
 */
export function auditGeneration(spec: LoadedSpec, operations: Operation[], validators: Validators): string[] {
  const failures = new Map<unknown, { pointer: string; reason: string; operations: string[] }>();
  const passed = new Set<unknown>();
  const risk: RiskContext = {
    resolve: (ref) => (ref.startsWith('#/') ? getAtPointer(spec.document, ref) : undefined),
    patternHolds: patternDrawsHold,
    known: new Map(),
  };
  for (const operation of operations) {
    for (const response of operation.responses) {
      for (const content of response.contents) {
        if (content.schema === undefined || typeof content.schema !== 'object' || !isJsonMediaType(content.mediaType))
          continue;
        const known = failures.get(content.schema);
        if (known) {
          if (!known.operations.includes(operation.id)) known.operations.push(operation.id);
          continue;
        }
        if (passed.has(content.schema)) continue;
        // A plain schema cannot fail to generate: its draw, and the validator it would compile, are left to the
        // answers (most of GitHub's; generation-risk.ts says which are plain).
        if (!needsDraw(content.schema, risk)) {
          passed.add(content.schema);
          continue;
        }
        try {
          generateOne(spec, content.schemaPointer, 1, validators);
          passed.add(content.schema);
        } catch (error) {
          const reason = (error as Error).message.replace(/^.*?: #\/\S+: /, '');
          failures.set(content.schema, { pointer: content.schemaPointer, reason, operations: [operation.id] });
        }
      }
    }
  }
  return [...failures.values()].map(
    (f) =>
      `${f.pointer}: the mock cannot generate a body for this schema (${f.reason}); ${f.operations.join(', ')} ` +
      `answer${f.operations.length === 1 ? 's' : ''} 500 where it would need one ` +
      '(add an example, or loosen the schema)',
  );
}
