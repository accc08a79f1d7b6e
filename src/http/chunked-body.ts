// Reads a chunked request body (RFC 9112 §7.1) as it arrives, in any split: size lines with
// optional extensions, data, CRLF, the last chunk, trailer fields (checked, then dropped, as the
// engine reads no trailers), and the blank line that ends the message.
import { isFieldLine, TCHAR } from './request-head.ts';

// chunk-size [ chunk-ext ]: ext names are tokens, values tokens or quoted strings.
const TOKEN = `${TCHAR}+`;
const QUOTED = '"(?:[^"\\\\\\x00-\\x08\\x0a-\\x1f\\x7f]|\\\\[\\t\\x20-\\x7e\\x80-\\xff])*"';
const SIZE_LINE = new RegExp(`^([0-9A-Fa-f]+)(?:[\\t ]*;[\\t ]*${TOKEN}(?:[\\t ]*=[\\t ]*(?:${TOKEN}|${QUOTED}))?)*$`);
/** A size line longer than this is refused: extensions carry nothing the mock reads. */
const MAX_LINE = 4096;

const Phase = { Size: 0, Data: 1, DataEnd: 2, Trailer: 3, Done: 4 } as const;
type Phase = (typeof Phase)[keyof typeof Phase];

export type ChunkedProgress = { done: false } | { done: true; body: Buffer; consumed: number } | { error: 'too-large' } | { error: 'malformed'; message: string };

export class ChunkedBody {
  #phase: Phase = Phase.Size;
  #line = '';
  #left = 0;
  #size = 0;
  #trailerBytes = 0;
  readonly #parts: Buffer[] = [];
  readonly maxBodyBytes: number;
  readonly maxTrailerBytes: number;

  constructor(maxBodyBytes: number, maxTrailerBytes: number) {
    this.maxBodyBytes = maxBodyBytes;
    this.maxTrailerBytes = maxTrailerBytes;
  }

  /** Consumes bytes from data[from..]; when the body ends, says how many bytes of data it used. */
  feed(data: Buffer, from: number): ChunkedProgress {
    let at = from;
    while (at < data.length) {
      if (this.#phase === Phase.Data) {
        const take = Math.min(this.#left, data.length - at);
        this.#parts.push(data.subarray(at, at + take));
        at += take;
        this.#left -= take;
        if (this.#left === 0) this.#phase = Phase.DataEnd;
        continue;
      }
      // The other phases read lines.
      const lineEnd = data.indexOf(10, at);
      const piece = data.toString('latin1', at, lineEnd === -1 ? data.length : lineEnd + 1);
      this.#line += piece;
      at += piece.length;
      if (lineEnd === -1) {
        if (this.#line.length > (this.#phase === Phase.Trailer ? this.maxTrailerBytes : MAX_LINE)) return { error: 'malformed', message: 'a chunk size or trailer line is too long' };
        continue;
      }
      if (this.#line.length > MAX_LINE + 2 && this.#phase !== Phase.Trailer) return { error: 'malformed', message: 'a chunk size line is too long' };
      if (!this.#line.endsWith('\r\n')) return { error: 'malformed', message: 'a line of the chunked body does not end with CRLF' };
      const line = this.#line.slice(0, -2);
      this.#line = '';
      const problem = this.#takeLine(line);
      if (problem !== undefined) return problem;
      if (this.#phase === Phase.Done) return { done: true, body: this.#parts.length === 1 ? this.#parts[0] : Buffer.concat(this.#parts, this.#size), consumed: at - from };
    }
    return { done: false };
  }

  #takeLine(line: string): ChunkedProgress | undefined {
    switch (this.#phase) {
      case Phase.Size: {
        const size = SIZE_LINE.exec(line);
        if (size === null) return { error: 'malformed', message: `"${line.slice(0, 40)}" is not a chunk size` };
        const hex = size[1].replace(/^0+(?=.)/, '');
        const length = hex.length > 12 ? Infinity : Number.parseInt(hex, 16);
        if (this.#size + length > this.maxBodyBytes) return { error: 'too-large' };
        this.#size += length;
        this.#left = length;
        this.#phase = length === 0 ? Phase.Trailer : Phase.Data;
        return undefined;
      }
      case Phase.DataEnd:
        if (line !== '') return { error: 'malformed', message: 'a chunk is longer than its size says' };
        this.#phase = Phase.Size;
        return undefined;
      case Phase.Trailer:
        if (line === '') {
          this.#phase = Phase.Done;
          return undefined;
        }
        this.#trailerBytes += line.length + 2;
        if (this.#trailerBytes > this.maxTrailerBytes) return { error: 'malformed', message: 'the trailer fields are too large' };
        if (!isFieldLine(line)) return { error: 'malformed', message: 'malformed trailer field' };
        return undefined;
      default:
        return undefined;
    }
  }
}
