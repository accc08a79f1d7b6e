// The mock's background warm-up: after listening, it compiles every schema a request may need, a
// short step per turn of the event loop, so that a large document's operations are ready before
// their first request without holding up start-up, a request or a signal for long; then it writes
// the compiled code to the cache, so that the next start compiles nothing (compiled-cache.ts).
import type { LoadedSpec } from '../document/loaded-spec.ts';
import type { Operation } from '../document/operations.ts';
import { compileOrder } from '../validation/compile-order.ts';
import type { Validators } from '../validation/validator.ts';
import { afterIO, cancelAfterIO } from '../platform/host.ts';

/** Starts the warm-up; returns a function that stops it. */
export function startWarmUp(spec: LoadedSpec, operations: readonly Operation[], validators: Validators): () => void {
  const steps = warmUpSteps(spec, operations, validators);
  // Kept referenced: Node does not wake an idle loop for an unreferenced immediate, so the
  // warm-up of an idle server would only move on when a request or a timer came by (the listening
  // server keeps the process alive anyway, and stopping clears the immediate).
  let timer: unknown;
  const step = () => {
    if (steps.next().done) return;
    timer = afterIO(step);
  };
  timer = afterIO(step);
  return () => {
    cancelAfterIO(timer);
    void steps.return(undefined);
  };
}

/**
 * One step per yield. Components first, each group of them after the ones it refers to, so that
 * each step compiles one schema's own code (Ajv compiles whatever a schema reaches that is not
 * compiled yet: Stripe's account alone took most of a second, docs/performance.md §10.16); then each
 * schema of each operation.
 */
function* warmUpSteps(spec: LoadedSpec, operations: readonly Operation[], validators: Validators): Generator<void> {
  // Validators read from the cache have nothing to compile: the order would only cost its walk.
  if (!validators.cached) {
    yield;
    for (const group of compileOrder(spec.bundled)) {
      for (const pointer of group) compile(validators, pointer);
      yield;
    }
  }
  for (const operation of operations) {
    for (const pointer of schemaPointers(operation)) {
      compile(validators, pointer);
      yield;
    }
  }
  yield* validators.save();
}

function compile(validators: Validators, pointer: string): void {
  try {
    validators.at(pointer);
  } catch {
    // A schema that cannot compile is the loader's warning; its first request says so again.
  }
}

/** An operation's request, parameter and response schemas. */
function schemaPointers(operation: Operation): string[] {
  const pointers: string[] = [];
  for (const content of operation.requestBody?.contents ?? [])
    if (content.schema !== undefined) pointers.push(content.schemaPointer);
  for (const parameter of operation.parameters)
    if (parameter.schema !== undefined) pointers.push(parameter.schemaPointer);
  for (const response of operation.responses)
    for (const content of response.contents) if (content.schema !== undefined) pointers.push(content.schemaPointer);
  return pointers;
}
