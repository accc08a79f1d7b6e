// The load client's HTTP/1.1 response reader: incremental and minimal, because it runs once per
// answer on the load generator's one core. It finds where each answer ends and reads its status and
// whether the server closes the connection; no other header is decoded and bodies are skipped, never
// copied. Answers may be split across TCP chunks or several may share one chunk.
// Framing as RFC 9112 section 6.3 orders it: 1xx/204/304 have no body, then Transfer-Encoding
// (chunked, or read until close), then Content-Length, else the body runs until the server closes.
// Not handled: answers to HEAD requests (the client never sends one) and 101 upgrades.

const HEAD_END = Buffer.from('\r\n\r\n');
const CRLF = Buffer.from('\r\n');
const MAX_HEAD_BYTES = 64 * 1024;
const MAX_LINE_BYTES = 4 * 1024;
// Searched in the lower-cased head, so that `Content-Length` and `content-length` both match.
const CONTENT_LENGTH = '\r\ncontent-length:';
const TRANSFER_ENCODING = '\r\ntransfer-encoding:';
const CONNECTION = '\r\nconnection:';

// Plain numbers, not an enum: the benchmark runs on Node's type stripping, which has no enums.
const HEAD = 0;
const BODY = 1;
const CHUNK_SIZE = 2;
const CHUNK_DATA = 3;
const TRAILERS = 4;
const UNTIL_CLOSE = 5;
const CLOSED = 6;

/** Called once per final answer, in order; `close` means the server will not take another request. */
export type OnResponse = (status: number, close: boolean) => void;

function headerValue(lowerHead: string, name: string): string | undefined {
  const at = lowerHead.indexOf(name);
  if (at < 0) return undefined;
  const end = lowerHead.indexOf('\r\n', at + name.length);
  return lowerHead.slice(at + name.length, end < 0 ? undefined : end).trim();
}

/**
 * Reads the answers of one connection. `feed` and `end` return a problem description when the bytes
 * are not a well-framed HTTP/1.x answer; the connection is then unusable.
 * @example
 * const parser = new ResponseParser((status, close) => console.log(status, close));
 * socket.on('data', (chunk) => parser.feed(chunk));
 */
export class ResponseParser {
  private state = HEAD;
  /** Body (or chunk data) bytes still to skip. */
  private remaining = 0;
  private status = 0;
  private close = false;
  /** Bytes of an unfinished head or line, kept until the rest arrives. */
  private pending: Buffer | undefined;
  private readonly onResponse: OnResponse;

  constructor(onResponse: OnResponse) {
    this.onResponse = onResponse;
  }

  feed(chunk: Buffer): string | undefined {
    if (this.state === CLOSED) return undefined;
    const buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    let at = 0;
    while (at < buf.length) {
      if (this.state === HEAD) {
        const end = buf.indexOf(HEAD_END, at);
        if (end < 0) return this.keep(buf, at, MAX_HEAD_BYTES, 'response head');
        const problem = this.head(buf.toString('latin1', at, end));
        if (problem) return problem;
        at = end + 4;
      } else if (this.state === BODY || this.state === CHUNK_DATA) {
        const take = Math.min(this.remaining, buf.length - at);
        at += take;
        this.remaining -= take;
        if (this.remaining > 0) return undefined;
        if (this.state === BODY) this.complete();
        else this.state = CHUNK_SIZE;
      } else if (this.state === CHUNK_SIZE) {
        const eol = buf.indexOf(CRLF, at);
        if (eol < 0) return this.keep(buf, at, MAX_LINE_BYTES, 'chunk size line');
        const line = buf.toString('latin1', at, eol);
        const semicolon = line.indexOf(';'); // chunk extensions are ignored
        const hex = (semicolon < 0 ? line : line.slice(0, semicolon)).trim();
        if (!/^[0-9a-fA-F]{1,12}$/.test(hex)) return `bad chunk size line ${JSON.stringify(line)}`;
        const size = Number.parseInt(hex, 16);
        at = eol + 2;
        // The CRLF after the data is skipped unchecked: were it missing, the next size line would
        // not parse, so a misframed stream is still caught.
        this.state = size === 0 ? TRAILERS : CHUNK_DATA;
        this.remaining = size + 2;
      } else if (this.state === TRAILERS) {
        const eol = buf.indexOf(CRLF, at);
        if (eol < 0) return this.keep(buf, at, MAX_LINE_BYTES, 'trailer line');
        const empty = eol === at; // an empty line ends the trailers, and the answer
        at = eol + 2;
        if (empty) this.complete();
      } else {
        // UNTIL_CLOSE: the body is everything up to the close (see end()); CLOSED: the rest of
        // the stream is not an answer of ours.
        return undefined;
      }
    }
    return undefined;
  }

  end(): string | undefined {
    if (this.state === UNTIL_CLOSE) this.complete();
    else if (this.state !== CLOSED && (this.state !== HEAD || this.pending)) return 'connection closed in the middle of an answer';
    this.state = CLOSED;
    return undefined;
  }

  private keep(buf: Buffer, at: number, limit: number, what: string): string | undefined {
    if (buf.length - at > limit) return `${what} longer than ${limit} bytes`;
    // A copy: the caller may reuse its read buffer for the next chunk.
    this.pending = Buffer.from(buf.subarray(at));
    return undefined;
  }

  /** Reads a status line and headers (without the final blank line); sets the framing of the body. */
  private head(text: string): string | undefined {
    // "HTTP/1.1 200 OK": the version, one space, three digits.
    const status = Number(text.slice(9, 12));
    if (!text.startsWith('HTTP/1.') || text[8] !== ' ' || !(status >= 100 && status <= 999)) {
      return `not an HTTP/1.x status line: ${JSON.stringify(text.slice(0, 40))}`;
    }
    if (status === 101) return 'unexpected 101 Switching Protocols';
    // An interim answer (100 Continue, 103 Early Hints): the final one follows on the same request.
    if (status < 200) return undefined;
    const lower = text.toLowerCase();
    const connection = headerValue(lower, CONNECTION) ?? '';
    this.status = status;
    // HTTP/1.0 closes after each answer unless it says keep-alive.
    this.close = connection.includes('close') || (text[7] === '0' && !connection.includes('keep-alive'));
    if (status === 204 || status === 304) return this.complete();
    const coding = headerValue(lower, TRANSFER_ENCODING);
    if (coding !== undefined) {
      // Chunked must be the last coding; any other framing by transfer coding ends at close.
      if (coding.endsWith('chunked')) this.state = CHUNK_SIZE;
      else this.untilClose();
      return undefined;
    }
    const length = headerValue(lower, CONTENT_LENGTH);
    if (length === undefined) return this.untilClose();
    if (!/^\d{1,15}$/.test(length)) return `bad Content-Length ${JSON.stringify(length)}`;
    this.remaining = Number(length);
    if (this.remaining === 0) return this.complete();
    this.state = BODY;
    return undefined;
  }

  private untilClose(): undefined {
    this.state = UNTIL_CLOSE;
    this.close = true;
    return undefined;
  }

  private complete(): undefined {
    // After an answer that closes the connection, whatever else arrives is not an answer of ours.
    this.state = this.close ? CLOSED : HEAD;
    this.onResponse(this.status, this.close);
    return undefined;
  }
}
