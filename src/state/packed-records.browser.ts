// The browser's PackedRecords (see packed-records.ts): a page's state is small, and a Map of texts
// is what the Node version packs into bytes outside the heap. Same surface, same order.

export class PackedRecords {
  readonly #texts = new Map<string, string>();
  #bytes = 0;

  get size(): number {
    return this.#texts.size;
  }

  /** Reckoned, not measured: a character a byte, keys and texts. */
  get heldBytes(): number {
    return this.#bytes;
  }

  has(key: string): boolean {
    return this.#texts.has(key);
  }

  get(key: string): string | undefined {
    return this.#texts.get(key);
  }

  set(key: string, text: string): this {
    const old = this.#texts.get(key);
    this.#bytes += old === undefined ? key.length + text.length : text.length - old.length;
    this.#texts.set(key, text);
    return this;
  }

  delete(key: string): boolean {
    const old = this.#texts.get(key);
    if (old === undefined) return false;
    this.#bytes -= key.length + old.length;
    return this.#texts.delete(key);
  }

  [Symbol.iterator](): Generator<[key: string, text: string]> {
    return this.entries();
  }

  *entries(): Generator<[key: string, text: string]> {
    yield* this.#texts.entries();
  }

  *keys(): Generator<string> {
    yield* this.#texts.keys();
  }

  *values(): Generator<string> {
    yield* this.#texts.values();
  }
}
