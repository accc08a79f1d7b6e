// What generating cases takes: the run's options, and what the runner needs from an example
// generator. Its own module, so that the case and the sequence generators can both name them.
import type { JsonValue } from '../../json/exact-json.ts';
import type { MediaContent, Operation } from '../../document/operations.ts';

export interface GenerateOptions {
  /** Valid requests per operation. */
  count: number;
  /** Hostile requests per operation (hostile-cases.ts); 0: none. */
  hostile?: number;
  seed: number;
  /** --auth values by security scheme name. */
  auth: Record<string, string>;
}

/** What the runner needs from an example generator (src/example/ provides it). */
export interface CaseSource {
  /** `count` valid bodies of an operation's request `content` (its JSON body when left out). */
  valid(operation: Operation, count: number, seed: number, content?: MediaContent): JsonValue[];
  /** Bodies that each break one rule of the request `content` schema (its JSON body when left out). */
  invalid(
    operation: Operation,
    seed: number,
    content?: MediaContent,
  ): Array<{ rule: string; pointer: string; description: string } & ({ body: JsonValue } | { rawBody: string })>;
  /** One valid value of the schema at a document pointer (a parameter). */
  value(pointer: string, seed: number): JsonValue;
}
