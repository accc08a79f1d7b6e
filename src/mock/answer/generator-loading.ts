// The example generator is loaded on first use (dynamic-body.ts), and an answer is written
// synchronously (answers.ts). An answer that needs a generated body before the generator is loaded
// throws this: the engine waits for the load, once, and writes the answer again (writing has no
// effect before the body is generated, so a second writing gives what the first would have).

/** Thrown by a synchronous generation before the generator is loaded: wait for `loaded`, then write again. */
export class GeneratorLoading extends Error {
  readonly loaded: Promise<void>;
  constructor(loaded: Promise<void>) {
    super('the example generator is still loading');
    this.loaded = loaded;
  }
}
