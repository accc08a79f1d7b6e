// Answers made from the document itself (a forced answer, an operation no state convention fits,
// an absent item without a 404): the declared response's content in the media type the request
// accepts, with its named (or first) example when that fits its schema, else a generated body (a
// forced error status: the document's error shape saying it was forced).
import type { JsonValue } from '../../json/exact-json.ts';
import type { Logger } from '../../log/logger.ts';
import { PlantstoreError } from '../../errors.ts';
import type { LoadedSpec } from '../../document/loaded-spec.ts';
import { preferDeclared, type MediaContent, type Operation } from '../../document/operations.ts';
import type { Validators } from '../../validation/validator.ts';
import { generateBodyLoaded, generateBodyNow } from './dynamic-body.ts';
import { exampleOf, type Preferences } from './forced-response.ts';
import type { HttpRequest } from '../../http/types.ts';
import { wantsOwnBytes } from './media-bodies.ts';
import type { Reply, Responder } from './responder.ts';

/** A request the document would refuse: 400 where declared, else 422 where declared. */
export const INVALID = [400, 422];

export interface DeclaredAnswers {
  /** Whether a declared example fits its schema (judged once per example object). */
  exampleFits(schemaPointer: string | undefined, value: unknown): boolean;
  /** A valid value of an error schema a status and a message cannot fill: its fitting example, else a generated one. */
  errorBase(content: MediaContent): JsonValue | undefined;
  /** Answers a status of an operation from the document, through the engine's responder. */
  answer(
    responder: Responder,
    request: HttpRequest,
    operation: Operation,
    status: number,
    preferences: Preferences,
  ): Reply;
}

/** Builds the document answers of one engine. */
export function createDeclaredAnswers(
  spec: LoadedSpec,
  validators: Validators,
  logger: Logger,
  options: { seed: number; declaredOnly: boolean },
): DeclaredAnswers {
  let generated = 0;
  // An example that breaks its own schema is never served (the loader warned about it once):
  // a generated body answers instead.
  const verdicts = new WeakMap<object, boolean>();
  const exampleFits: DeclaredAnswers['exampleFits'] = (schemaPointer, value) => {
    if (schemaPointer === undefined) return true;
    const known = value !== null && typeof value === 'object' ? verdicts.get(value) : undefined;
    if (known !== undefined) return known;
    const fits = validators.at(schemaPointer)(value as JsonValue).ok;
    if (value !== null && typeof value === 'object') verdicts.set(value, fits);
    return fits;
  };

  const errorBase: DeclaredAnswers['errorBase'] = (content) => {
    const example = exampleOf(content, undefined)?.value as JsonValue | undefined;
    return example !== undefined && exampleFits(content.schemaPointer, example)
      ? example
      : generateBodyNow(spec, validators, content.schemaPointer, options.seed);
  };

  const answer: DeclaredAnswers['answer'] = (responder, request, operation, status, preferences) => {
    // An error status asked for by code is answered whatever Accept says, as every error answer is (RFC 9110 §12.1
    // allows it).
    const forcedError = preferences.forcedBy !== undefined && status >= 400;
    const chosen = responder.negotiate(request, operation, status, options.declaredOnly || forcedError);
    if (chosen.kind === 'not-acceptable')
      return responder.fail(
        request,
        operation,
        406,
        `Accept "${request.headers.accept}" allows none of the media types of the ${status} answer: ` +
          `${chosen.declared.join(', ')}`,
      );
    if (chosen.kind === 'none') return responder.json(request, operation, status, undefined);
    const { content, mediaType } = chosen;
    const example = exampleOf(content, preferences.exampleKey);
    if (preferences.exampleKey !== undefined && !example) {
      return responder.fail(
        request,
        operation,
        preferDeclared(operation, INVALID),
        `cannot force that response: the ${status} ${mediaType} answer has no example "${preferences.exampleKey}" ` +
          `(its examples: ${[...content.examples.keys()].join(', ') || 'none'})`,
      );
    }
    if (
      example &&
      !preferences.dynamic &&
      exampleFits(content.schema === undefined ? undefined : content.schemaPointer, example.value)
    ) {
      return responder.json(request, operation, status, example.value as JsonValue, undefined, mediaType);
    }
    // A picture is answered with a real one rather than a generated string.
    if (content.schema === undefined || wantsOwnBytes(mediaType))
      return responder.json(request, operation, status, undefined, undefined, mediaType);
    // A forced error without an example of its own says what it is, in the document's error shape,
    // rather than generated words; `dynamic=true` still asks for a generated body.
    if (forcedError && !preferences.dynamic)
      return responder.declaredError(
        request,
        operation,
        status,
        `forced by ${preferences.forcedBy}`,
        mediaType,
        content,
      );
    // (Before the generator is loaded this throws GeneratorLoading: the engine waits for it and writes again.)
    let value: JsonValue;
    try {
      value = generateBodyLoaded(spec, validators, content.schemaPointer, options.seed, () => generated++);
    } catch (error) {
      // A schema json-schema-faker cannot satisfy is the document's problem, said as such: no stack trace.
      if (!(error instanceof PlantstoreError)) throw error;
      logger.warn(error.message);
      return responder.fail(
        request,
        operation,
        500,
        `the mock cannot make a ${status} ${mediaType} body for ${operation.id}: ${error.message}`,
      );
    }
    return responder.json(request, operation, status, value, undefined, mediaType);
  };

  return { exampleFits, errorBase, answer };
}
