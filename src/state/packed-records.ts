// One collection of the memory store: text records under exact key strings, in insertion order,
// held as bytes outside V8's heap. A Map<string, string> costs a plant two string objects and a Map
// entry with its share of a table that doubles, and two more objects for every major GC to trace;
// here it costs its bytes and a few more, and no object at all (fast path: see
// docs/performance.md §10.19; RSS after a load test grows with the plants stored). The bytes live in
// chunks of up to 1 MB; a small open-addressing table of [hash, slot] pairs finds a key's slot,
// and the slots (in insertion order) say where each record's bytes are.
import { Buffer } from 'node:buffer';
import { randomInt } from 'node:crypto';

/**
 * Chunks start at 4 KB and double to 1 MB: a collection of a few records (one per tenant under --isolate-by token)
 * takes little.
 */
const FIRST_CHUNK_BYTES = 1 << 12;
const CHUNK_BYTES = 1 << 20;
/** A slot whose record was removed (its chunk field). */
const REMOVED = -1;
/** In the table's slot field: 0 is an empty place, -1 a place whose record was removed, else slot + 1. */
const EMPTY = 0;
const GONE = -1;
/**
 * Per slot: chunk, offset, key bytes (negative: UTF-16LE, else Latin-1), text bytes (negative: UTF-16LE, else UTF-8).
 *
 */
const SLOT_FIELDS = 4;
/**
 * Slots come in pages of 1,024 (16 KB), added as needed: one array that doubled would be copied
 * at each doubling and leave its old copy for the next major GC to free.
 */
const PAGE_BITS = 10;
const PAGE_SLOTS = 1 << PAGE_BITS;
/**
 * Removed and replaced records' bytes are reclaimed (the live ones copied anew) past this much and past the live
 * bytes.
 */
const MIN_GARBAGE_BYTES = 4 * CHUNK_BYTES;

/**
 * Map-like (get, has, set, delete, insertion-ordered iteration) for string keys and string values.
 * Keys are stored losslessly (Latin-1 when every unit fits, else UTF-16), texts as UTF-8 unless
 * they hold a lone surrogate, which UTF-8 cannot carry (then UTF-16). The key hash is seeded per
 * process, so a client cannot choose ids that all land on one place.
 */
export class PackedRecords {
  readonly #seed = randomInt(2 ** 31);
  #table = new Int32Array(2 * 16);
  #mask = 15;
  /** Places in the table that are not empty: live records and removed ones' marks. */
  #filled = 0;
  #pages: Int32Array[] = [];
  #slotCount = 0;
  #live = 0;
  #chunks: Buffer[] = [];
  #room = 0; // the last chunk's size (0: none yet)
  #end = 0; // bytes used in the last chunk
  #liveBytes = 0;
  #garbageBytes = 0;
  // The last key hashed: the store asks has() and then set() for one key.
  #hashedKey: string | undefined;
  #hashedValue = 0;
  #hashedWide = false;

  get size(): number {
    return this.#live;
  }

  /** The bytes of the chunks held: the records' bytes, and removed ones' until they are reclaimed. */
  get heldBytes(): number {
    let bytes = 0;
    for (const chunk of this.#chunks) bytes += chunk.length;
    return bytes;
  }

  has(key: string): boolean {
    return this.#find(key) >= 0;
  }

  get(key: string): string | undefined {
    const place = this.#find(key);
    return place < 0 ? undefined : this.#textOf(this.#table[2 * place + 1] - 1);
  }

  /** Adds the record, or replaces its text where it stands in the order. */
  set(key: string, text: string): this {
    const place = this.#find(key);
    if (place >= 0) {
      const slot = this.#table[2 * place + 1] - 1;
      this.#garbageBytes += this.#bytesOf(slot);
      this.#liveBytes -= this.#bytesOf(slot);
      this.#write(slot, key, this.#hashedWide, text);
      this.#reclaimIfWasteful();
      return this;
    }
    const slot = this.#nextSlot();
    this.#write(slot, key, this.#hashedWide, text);
    this.#live++;
    const free = ~place;
    if (this.#table[2 * free + 1] === EMPTY) this.#filled++;
    this.#table[2 * free] = this.#hashedValue;
    this.#table[2 * free + 1] = slot + 1;
    if (this.#filled * 4 > (this.#mask + 1) * 3)
      this.#rehash(this.#live * 2 > this.#mask + 1 ? (this.#mask + 1) * 2 : this.#mask + 1);
    return this;
  }

  delete(key: string): boolean {
    const place = this.#find(key);
    if (place < 0) return false;
    const slot = this.#table[2 * place + 1] - 1;
    this.#table[2 * place + 1] = GONE;
    this.#garbageBytes += this.#bytesOf(slot);
    this.#liveBytes -= this.#bytesOf(slot);
    this.#field(slot, 0, REMOVED);
    this.#live--;
    this.#reclaimIfWasteful();
    return true;
  }

  [Symbol.iterator](): Generator<[key: string, text: string]> {
    return this.entries();
  }

  *entries(): Generator<[key: string, text: string]> {
    for (let slot = 0; slot < this.#slotCount; slot++) {
      if (this.#chunkOf(slot) !== REMOVED) yield [this.#keyOf(slot), this.#textOf(slot)];
    }
  }

  *keys(): Generator<string> {
    for (let slot = 0; slot < this.#slotCount; slot++) if (this.#chunkOf(slot) !== REMOVED) yield this.#keyOf(slot);
  }

  *values(): Generator<string> {
    for (let slot = 0; slot < this.#slotCount; slot++) if (this.#chunkOf(slot) !== REMOVED) yield this.#textOf(slot);
  }

  /** The table place holding `key`, or the one's complement of the place where it would go. */
  #find(key: string): number {
    if (key !== this.#hashedKey) this.#hash(key);
    const hash = this.#hashedValue;
    const table = this.#table;
    const mask = this.#mask;
    let place = hash & mask;
    let reusable = -1;
    for (;;) {
      const held = table[2 * place + 1];
      if (held === EMPTY) return ~(reusable >= 0 ? reusable : place);
      if (held === GONE) {
        if (reusable < 0) reusable = place;
      } else if (table[2 * place] === hash && this.#keyOf(held - 1) === key) {
        return place;
      }
      place = (place + 1) & mask;
    }
  }

  /** FNV-1a over the UTF-16 units, seeded, with a final mix so the low bits (the first place) spread. */
  #hash(key: string): void {
    let hash = 0x811c9dc5 ^ this.#seed;
    let units = 0;
    for (let i = 0; i < key.length; i++) {
      const unit = key.charCodeAt(i);
      units |= unit;
      hash = Math.imul(hash ^ unit, 0x01000193);
    }
    hash ^= hash >>> 16;
    hash = Math.imul(hash, 0x85ebca6b);
    hash ^= hash >>> 13;
    this.#hashedKey = key;
    this.#hashedValue = hash | 0;
    this.#hashedWide = units > 0xff;
  }

  /** Writes the key and text at the end of the last chunk and points the slot at them. */
  #write(slot: number, key: string, wide: boolean, text: string): void {
    const keyBytes = wide ? 2 * key.length : key.length;
    const textWide = !text.isWellFormed();
    const most = keyBytes + (textWide ? 2 : 3) * text.length;
    const chunk = this.#chunkFor(
      this.#end + most <= this.#room || textWide ? most : keyBytes + Buffer.byteLength(text, 'utf8'),
    );
    const offset = this.#end;
    chunk.write(key, offset, keyBytes, wide ? 'utf16le' : 'latin1');
    const textBytes = chunk.write(text, offset + keyBytes, textWide ? 'utf16le' : 'utf8');
    this.#end = offset + keyBytes + textBytes;
    this.#point(slot, offset, wide ? -keyBytes : keyBytes, textWide ? -textBytes : textBytes);
  }

  /**
   * The last chunk, or a new one (twice the last's size up to 1 MB, or `bytes` when more) when `bytes` do not fit in
   * it.
   */
  #chunkFor(bytes: number): Buffer {
    if (this.#end + bytes > this.#room || this.#chunks.length === 0) {
      const last = this.#chunks.length === 0 ? 0 : this.#chunks[this.#chunks.length - 1].length;
      this.#chunks.push(
        Buffer.allocUnsafeSlow(Math.max(Math.min(CHUNK_BYTES, Math.max(FIRST_CHUNK_BYTES, 2 * last)), bytes)),
      );
      this.#room = this.#chunks[this.#chunks.length - 1].length;
      this.#end = 0;
    }
    return this.#chunks[this.#chunks.length - 1];
  }

  #nextSlot(): number {
    if (this.#slotCount === this.#pages.length * PAGE_SLOTS) this.#pages.push(new Int32Array(SLOT_FIELDS * PAGE_SLOTS));
    return this.#slotCount++;
  }

  #point(slot: number, offset: number, keyBytes: number, textBytes: number): void {
    const page = this.#pages[slot >>> PAGE_BITS];
    const at = SLOT_FIELDS * (slot & (PAGE_SLOTS - 1));
    page[at] = this.#chunks.length - 1;
    page[at + 1] = offset;
    page[at + 2] = keyBytes;
    page[at + 3] = textBytes;
    this.#liveBytes += Math.abs(keyBytes) + Math.abs(textBytes);
  }

  #keyOf(slot: number): string {
    const page = this.#pages[slot >>> PAGE_BITS];
    const at = SLOT_FIELDS * (slot & (PAGE_SLOTS - 1));
    const bytes = page[at + 2];
    const start = page[at + 1];
    return this.#chunks[page[at]].toString(bytes < 0 ? 'utf16le' : 'latin1', start, start + Math.abs(bytes));
  }

  #textOf(slot: number): string {
    const page = this.#pages[slot >>> PAGE_BITS];
    const at = SLOT_FIELDS * (slot & (PAGE_SLOTS - 1));
    const bytes = page[at + 3];
    const start = page[at + 1] + Math.abs(page[at + 2]);
    return this.#chunks[page[at]].toString(bytes < 0 ? 'utf16le' : 'utf8', start, start + Math.abs(bytes));
  }

  #bytesOf(slot: number): number {
    return Math.abs(this.#field(slot, 2)) + Math.abs(this.#field(slot, 3));
  }

  #chunkOf(slot: number): number {
    return this.#field(slot, 0);
  }

  /** One of a slot's fields; with `value`, sets it. */
  #field(slot: number, field: number, value?: number): number {
    const page = this.#pages[slot >>> PAGE_BITS];
    const at = SLOT_FIELDS * (slot & (PAGE_SLOTS - 1)) + field;
    if (value !== undefined) page[at] = value;
    return page[at];
  }

  /** A table of `capacity` places (a power of two) holding the live records only. */
  #rehash(capacity: number): void {
    const old = this.#table;
    const table = new Int32Array(2 * capacity);
    const mask = capacity - 1;
    for (let place = 0; place < old.length / 2; place++) {
      if (old[2 * place + 1] <= 0) continue;
      let to = old[2 * place] & mask;
      while (table[2 * to + 1] !== EMPTY) to = (to + 1) & mask;
      table[2 * to] = old[2 * place];
      table[2 * to + 1] = old[2 * place + 1];
    }
    this.#table = table;
    this.#mask = mask;
    this.#filled = this.#live;
  }

  /**
   * Copies the live records' bytes into fresh chunks, in order, once removed and replaced ones
   * waste more than the live ones hold (and at least 4 MB): a mock that replaces records all day
   * does not grow.
   */
  #reclaimIfWasteful(): void {
    if (this.#garbageBytes < MIN_GARBAGE_BYTES || this.#garbageBytes < this.#liveBytes) return;
    const pages = this.#pages;
    const chunks = this.#chunks;
    const count = this.#slotCount;
    const renumbered = new Int32Array(count);
    this.#pages = [];
    this.#slotCount = 0;
    this.#chunks = [];
    this.#room = 0;
    this.#end = 0;
    this.#liveBytes = 0;
    this.#garbageBytes = 0;
    for (let slot = 0; slot < count; slot++) {
      const page = pages[slot >>> PAGE_BITS];
      const at = SLOT_FIELDS * (slot & (PAGE_SLOTS - 1));
      if (page[at] === REMOVED) continue;
      const bytes = Math.abs(page[at + 2]) + Math.abs(page[at + 3]);
      const chunk = this.#chunkFor(bytes);
      chunks[page[at]].copy(chunk, this.#end, page[at + 1], page[at + 1] + bytes);
      renumbered[slot] = this.#nextSlot();
      this.#point(renumbered[slot], this.#end, page[at + 2], page[at + 3]);
      this.#end += bytes;
    }
    const table = this.#table;
    for (let place = 0; place < table.length / 2; place++)
      if (table[2 * place + 1] > 0) table[2 * place + 1] = renumbered[table[2 * place + 1] - 1] + 1;
    let places = 16;
    while (places < 2 * this.#live) places *= 2;
    this.#rehash(places);
  }
}
