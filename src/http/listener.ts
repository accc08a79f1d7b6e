// The only transport code: turns bytes on a socket into MockRequests and MockResponses back into
// bytes, HTTP/1.1 on node:net. Limits that protect the process live here: head size (431), body
// size (413), header and request timeouts (408), idle keep-alive connections (closed after 5 s).
// Why not node:http: its IncomingMessage and ServerResponse streams cost more per request than the
// whole engine (docs/performance.md has the measurement); a request here is one
// parse of its head, one handler call and one socket write.
import { Server, type Socket } from 'node:net';
import type { MockRequest, MockResponse } from '../mock/http-types.ts';
import { ChunkedBody } from './chunked-body.ts';
import { http } from './node-http.ts';
import { isRefusal, isToken, parseRequestHead, type RequestHead } from './request-head.ts';

export interface ListenerOptions {
  maxBodyBytes: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Error-shaped body for the answers the listener gives itself (400, 408, 413, 431, ...). */
  errorBody(status: number, message: string): string;
  onError(message: string): void;
}

export type Handler = (request: MockRequest) => MockResponse | Promise<MockResponse>;

/** Node's default header limit (--max-http-header-size), kept so clients see the same bound. */
export const MAX_HEAD_BYTES = 16 * 1024;
/** How long an idle keep-alive connection stays open, as Node's keepAliveTimeout. */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** How long a refused client may take to close before the socket is destroyed. */
const LINGER_MS = 2_000;

const EMPTY = Buffer.alloc(0);
const HEAD_END = Buffer.from('\r\n\r\n');
const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';
const KEEP_ALIVE = `connection: keep-alive\r\nkeep-alive: timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}\r\n\r\n`;
const CLOSE = 'connection: close\r\n\r\n';
// A header value may hold HTAB, visible ASCII and obs-text (RFC 9110 §5.5); never CR or LF.
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const ASCII = /^[\x00-\x7f]*$/;

const Phase = {
  /** Between requests on a kept-alive connection (its clock: the idle timeout). */
  Idle: 0,
  /** Reading a head (its clock: the headers timeout, from the request's first byte). */
  Head: 1,
  /** Reading a Content-Length body (the request timeout). */
  Body: 2,
  /** Reading a chunked body (the request timeout). */
  Chunked: 3,
  /** The handler is working on an answer. */
  Busy: 4,
  /** The last answer is out and the write side ended; whatever else arrives is dropped. */
  Closed: 5,
} as const;
type Phase = (typeof Phase)[keyof typeof Phase];

/** The mock's HTTP server: a net.Server that also closes its idle connections on demand. */
export class HttpListener extends Server {
  readonly #connections = new Set<Connection>();
  readonly #sweep: NodeJS.Timeout;
  readonly handle: Handler;
  readonly options: ListenerOptions;
  closing = false;

  constructor(handle: Handler, options: ListenerOptions) {
    super({ allowHalfOpen: true, noDelay: true });
    this.handle = handle;
    this.options = options;
    this.on('connection', (socket: Socket) => {
      const connection = new Connection(socket, this);
      this.#connections.add(connection);
      socket.on('close', () => this.#connections.delete(connection));
      if (this.closing) connection.closeWhenIdle();
    });
    // One timer for every connection's deadlines, as Node's connectionsCheckingInterval, not a
    // timer armed and cleared per request.
    const every = Math.max(10, Math.min(250, options.headersTimeoutMs / 4, options.requestTimeoutMs / 4));
    this.#sweep = setInterval(() => {
      const now = performance.now();
      for (const connection of this.#connections) connection.check(now);
    }, every).unref();
    this.on('close', () => clearInterval(this.#sweep));
  }

  /** Closes every connection that is between requests; the others close after their answer. */
  closeIdleConnections(): void {
    this.closing = true;
    for (const connection of this.#connections) connection.closeWhenIdle();
  }
}

/** An HTTP server that feeds every request to the handler. */
export function createListener(handle: Handler, options: ListenerOptions): HttpListener {
  return new HttpListener(handle, options);
}

class Connection {
  readonly socket: Socket;
  readonly listener: HttpListener;
  // A new connection is idle until its first byte: one that never sends is closed after the
  // keep-alive timeout without an answer (a browser's preconnect must not be sent a 408).
  phase: Phase = Phase.Idle;
  /** When the current phase's clock started (performance.now()). */
  since = performance.now();
  /** Received bytes not yet read, from `offset`. */
  buffer: Buffer | null = null;
  offset = 0;
  /** Where to resume looking for the end of a head that came in pieces. */
  scanFrom = 0;
  head: RequestHead | undefined;
  parts: Buffer[] = [];
  size = 0;
  left = 0;
  chunked: ChunkedBody | undefined;
  /** Answers of this turn, written in one go when the turn ends. */
  out = '';
  /** The client has ended its side: answer what is in hand, then close. */
  ended = false;
  busyPaused = false;
  writePaused = false;
  /** Bytes of answers the client had not read at the last check, and since when. */
  unread = 0;
  unreadSince = 0;

  constructor(socket: Socket, listener: HttpListener) {
    this.socket = socket;
    this.listener = listener;
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('end', () => this.clientEnded());
    socket.on('drain', () => {
      if (!this.writePaused) return;
      this.writePaused = false;
      if (this.busyPaused || this.phase === Phase.Closed) return;
      socket.resume();
      // Requests read before the pause wait in the buffer.
      this.pump();
    });
    // A reset or a write to a closed peer: the socket closes itself; nothing to answer.
    socket.on('error', () => {});
  }

  receive(chunk: Buffer): void {
    if (this.phase === Phase.Closed) return;
    if (this.buffer === null) {
      this.buffer = chunk;
      this.offset = 0;
    } else {
      this.buffer = Buffer.concat([this.buffer.subarray(this.offset), chunk]);
      this.scanFrom -= this.offset;
      this.offset = 0;
    }
    this.pump();
  }

  /**
   * Reads every complete request in hand, answering each, then writes the answers at once. Stops
   * while the client is not reading its answers: requests already received wait in the buffer.
   */
  pump(): void {
    while (this.buffer !== null && !this.writePaused) {
      const phase = this.phase;
      if (phase === Phase.Idle) this.begin();
      else if (phase === Phase.Head) {
        if (!this.readHead()) break;
      } else if (phase === Phase.Body) {
        if (!this.readBody()) break;
      } else if (phase === Phase.Chunked) {
        if (!this.readChunked()) break;
      } else break;
      // Large answers (the journal, the state) go out as they come, so backpressure is seen.
      if (this.out.length > 65_536) this.flush();
    }
    this.flush();
    if (this.ended && !this.writePaused) this.finishEnded();
  }

  begin(): void {
    this.phase = Phase.Head;
    this.since = performance.now();
    this.scanFrom = 0;
  }

  /** Takes `length` bytes from the buffer (dropping it once used up). */
  take(length: number): Buffer {
    const buffer = this.buffer as Buffer;
    const start = this.offset;
    const part = start === 0 && length === buffer.length ? buffer : buffer.subarray(start, start + length);
    this.advance(length);
    return part;
  }

  advance(length: number): void {
    this.offset += length;
    if (this.offset >= (this.buffer as Buffer).length) {
      this.buffer = null;
      this.offset = 0;
    }
  }

  readHead(): boolean {
    const buffer = this.buffer as Buffer;
    let at = this.offset;
    // RFC 9112 §2.2: empty lines before a request line are ignored.
    while (at + 1 < buffer.length && buffer[at] === 13 && buffer[at + 1] === 10) at += 2;
    if (at !== this.offset) this.advance(at - this.offset);
    if (this.buffer === null) {
      // Only empty lines: the connection is still between requests.
      this.phase = Phase.Idle;
      this.since = performance.now();
      return false;
    }
    const end = buffer.indexOf(HEAD_END, Math.max(at, this.scanFrom));
    if (end === -1) {
      // A line that ends in a bare LF would leave the head without its CRLF CRLF: refuse it now
      // rather than wait for the headers timeout.
      if (hasBareLineFeed(buffer, at, Math.max(at, this.scanFrom))) this.refuse(400, 'malformed HTTP request: a line ends with LF alone, not CRLF');
      // (+ 3: a CR LF CR that may be the start of the blank line ending a head of the full size)
      else if (buffer.length - at > MAX_HEAD_BYTES + 3) this.refuse(431, 'request headers too large');
      else this.scanFrom = Math.max(at, buffer.length - 3);
      return false;
    }
    if (end - at > MAX_HEAD_BYTES) {
      this.refuse(431, 'request headers too large');
      return false;
    }
    const text = buffer.toString('latin1', at, end);
    const head = parseRequestHead(text);
    this.advance(end + 4 - at);
    if (isRefusal(head)) {
      this.refuse(head.status, head.message, text.startsWith('HEAD '));
      return false;
    }
    const { maxBodyBytes } = this.listener.options;
    if (head.contentLength !== undefined && head.contentLength > maxBodyBytes) {
      this.refuseTooLarge(head.method === 'HEAD');
      return false;
    }
    if (head.expectContinue && (head.chunked || (head.contentLength ?? 0) > 0)) this.out += CONTINUE;
    this.head = head;
    if (head.chunked) {
      this.chunked = new ChunkedBody(maxBodyBytes, MAX_HEAD_BYTES);
      this.phase = Phase.Chunked;
      return true;
    }
    const length = head.contentLength ?? 0;
    if (length === 0) return this.dispatch(head, EMPTY);
    if (this.buffer !== null && this.buffer.length - this.offset >= length) return this.dispatch(head, this.take(length));
    this.parts = [];
    this.size = 0;
    this.left = length;
    this.phase = Phase.Body;
    return true;
  }

  readBody(): boolean {
    const buffer = this.buffer as Buffer;
    const part = this.take(Math.min(this.left, buffer.length - this.offset));
    this.parts.push(part);
    this.size += part.length;
    this.left -= part.length;
    if (this.left > 0) return false;
    const body = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size);
    this.parts = [];
    return this.dispatch(this.head as RequestHead, body);
  }

  readChunked(): boolean {
    const progress = (this.chunked as ChunkedBody).feed(this.buffer as Buffer, this.offset);
    if ('error' in progress) {
      if (progress.error === 'too-large') this.refuseTooLarge();
      else this.refuse(400, `malformed chunked body: ${progress.message}`);
      return false;
    }
    if (!progress.done) {
      this.buffer = null;
      this.offset = 0;
      return false;
    }
    this.advance(progress.consumed);
    this.chunked = undefined;
    return this.dispatch(this.head as RequestHead, progress.body);
  }

  /** Hands a whole request to the handler; true when the next request may be read at once. */
  dispatch(head: RequestHead, body: Buffer): boolean {
    this.phase = Phase.Busy;
    this.head = undefined;
    let response: MockResponse | Promise<MockResponse>;
    try {
      response = this.listener.handle(toMockRequest(head, body));
    } catch (error) {
      response = Promise.reject(error);
    }
    // Most answers are ready at once and go out in this turn's write.
    if (!(response instanceof Promise)) return this.answer(head, response);
    // An answer that waits (a state file's fsync): later requests wait behind it, in order.
    this.flush();
    this.busyPaused = true;
    this.socket.pause();
    response.then(
      (ready) => this.resumeWith(head, ready),
      (error) => {
        this.listener.options.onError(`plantstore bug: ${(error as Error).stack ?? String(error)}`);
        this.resumeWith(head, this.internalError());
      },
    );
    return false;
  }

  resumeWith(head: RequestHead, response: MockResponse): void {
    if (this.socket.destroyed) return;
    this.busyPaused = false;
    if (!this.writePaused) this.socket.resume();
    if (this.answer(head, response)) this.pump();
    else this.flush();
  }

  /** Queues an answer; true when the connection stays open for the next request. */
  answer(head: RequestHead, response: MockResponse): boolean {
    // A client that has ended its side still gets the answers to every request it sent before.
    const keepAlive = head.keepAlive && !this.listener.closing;
    let bytes: string | Buffer;
    try {
      bytes = serialize(response, head.method === 'HEAD', keepAlive);
    } catch (error) {
      this.listener.options.onError(`plantstore bug: ${(error as Error).message}`);
      bytes = serialize(this.internalError(), false, keepAlive);
    }
    if (typeof bytes === 'string') this.out += bytes;
    else {
      this.flush();
      this.write(bytes);
    }
    if (!keepAlive) {
      this.close();
      return false;
    }
    this.phase = Phase.Idle;
    this.since = performance.now();
    return true;
  }

  /** The answer to a request the handler failed on: a mock bug, already logged. */
  internalError(): MockResponse {
    return { status: 500, headers: { 'content-type': 'application/json' }, body: this.listener.options.errorBody(500, 'internal mock error; see the mock log') };
  }

  refuseTooLarge(isHead?: boolean): void {
    this.refuse(413, `the body is larger than the limit of ${this.listener.options.maxBodyBytes} bytes (--max-body)`, isHead);
  }

  /** Answers with an Error body and closes: after a framing problem the next byte's place is unknown. */
  refuse(status: number, message: string, isHead = this.head?.method === 'HEAD'): void {
    if (this.phase === Phase.Closed) return;
    const body = this.listener.options.errorBody(status, message);
    // RFC 9110 §9.3.2: an answer to HEAD has no body, only the length the body would have.
    this.out += `${statusLine(status)}content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${dateLine()}${CLOSE}${isHead ? '' : body}`;
    this.close();
  }

  close(): void {
    this.phase = Phase.Closed;
    this.since = performance.now();
    this.buffer = null;
    this.parts = [];
    this.chunked = undefined;
    this.flush();
    this.socket.end();
    // Reading on lets the client's FIN arrive, so the socket closes on its own.
    if (this.busyPaused || this.writePaused) this.socket.resume();
  }

  flush(): void {
    if (this.out === '') return;
    const out = this.out;
    this.out = '';
    this.write(out);
  }

  write(bytes: string | Buffer): void {
    if (this.socket.destroyed) return;
    // A client that sends and never reads must not grow this process: stop reading until it does.
    if (!this.socket.write(bytes) && this.phase !== Phase.Closed) {
      this.writePaused = true;
      this.socket.pause();
    }
  }

  clientEnded(): void {
    this.ended = true;
    // Requests still waiting behind a busy handler or a full socket are answered first.
    if (this.phase !== Phase.Busy && !this.writePaused) this.finishEnded();
  }

  /** After the client's end and every complete request answered: close, or refuse what is cut off. */
  finishEnded(): void {
    switch (this.phase) {
      case Phase.Idle:
        this.close();
        return;
      case Phase.Head:
        // Only the empty lines a client may send between requests: nothing to answer.
        if (this.buffer === null) this.close();
        else this.refuse(400, 'malformed HTTP request: the connection ended inside the request head');
        return;
      case Phase.Body:
      case Phase.Chunked:
        this.refuse(400, 'the request body could not be read: the connection ended before it was complete');
        return;
      default:
        // Busy: pump() comes back here once the answer is out.
        return;
    }
  }

  closeWhenIdle(): void {
    if (this.phase !== Phase.Idle) return;
    // An answer still on its way to a slow reader is finished first, then the connection ends.
    if (this.socket.writableLength > 0) this.close();
    else this.socket.destroy();
  }

  check(now: number): void {
    // While the client is not reading its answers, no clock of ours runs (an idle keep-alive
    // connection starts its 5 s once its last answer is written); a client that reads nothing
    // for the request timeout is disconnected.
    const unread = this.socket.writableLength;
    if (unread > 0) {
      if (unread !== this.unread) {
        this.unread = unread;
        this.unreadSince = now;
      } else if (now - this.unreadSince > this.listener.options.requestTimeoutMs) this.socket.destroy();
      this.since = now;
      return;
    }
    this.unread = 0;
    const elapsed = now - this.since;
    const { headersTimeoutMs, requestTimeoutMs } = this.listener.options;
    switch (this.phase) {
      case Phase.Idle:
        if (elapsed > KEEP_ALIVE_TIMEOUT_MS) this.socket.destroy();
        return;
      case Phase.Head:
        if (elapsed > headersTimeoutMs) this.refuse(408, `the request headers took longer than ${headersTimeoutMs / 1000} s to arrive`);
        return;
      case Phase.Body:
      case Phase.Chunked:
        if (elapsed > requestTimeoutMs) this.refuse(408, `the request took longer than ${requestTimeoutMs / 1000} s to arrive`);
        return;
      case Phase.Closed:
        if (elapsed > LINGER_MS) this.socket.destroy();
        return;
      default:
        return;
    }
  }
}

/** Whether a LF after `from` in the head that starts at `start` lacks its CR. */
function hasBareLineFeed(buffer: Buffer, start: number, from: number): boolean {
  for (let lf = buffer.indexOf(10, from); lf !== -1; lf = buffer.indexOf(10, lf + 1)) if (lf === start || buffer[lf - 1] !== 13) return true;
  return false;
}

function toMockRequest(head: RequestHead, body: Buffer): MockRequest {
  const target = head.target;
  // An absolute-form target (GET http://host/plants) routes on its path only; OPTIONS * on "*".
  const pathStart = target.startsWith('/') || target === '*' ? 0 : target.indexOf('/', target.indexOf('//') + 2);
  const relative = pathStart === 0 ? target : pathStart === -1 ? '/' : target.slice(pathStart);
  const q = relative.indexOf('?');
  return {
    method: head.method,
    path: q === -1 ? relative : relative.slice(0, q),
    query: q === -1 ? '' : relative.slice(q + 1),
    headers: head.headers,
    authorizationCount: head.authorizationCount,
    body,
  };
}

const statusLines = new Map<number, string>();
function statusLine(status: number): string {
  let line = statusLines.get(status);
  if (line === undefined) {
    if (!Number.isInteger(status) || status < 100 || status > 999) throw new Error(`the status ${status} cannot be sent`);
    line = `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Unknown'}\r\n`;
    statusLines.set(status, line);
  }
  return line;
}

// The Date header changes once a second; it is formatted once a second.
let dateUntil = 0;
let date = '';
function dateLine(): string {
  const now = Date.now();
  if (now >= dateUntil) {
    dateUntil = now - (now % 1000) + 1000;
    date = `date: ${new Date(now).toUTCString()}\r\n`;
  }
  return date;
}

// The engine shares one frozen headers object per content type: its lines are checked and
// formatted on first use and kept (only ASCII ones, which go out as they are).
const headerBlocks = new WeakMap<Record<string, string>, string>();
function formatHeaders(headers: Record<string, string>): string {
  let block = '';
  for (const name in headers) {
    const value = headers[name];
    if (!isToken(name) || !HEADER_VALUE.test(value)) throw new Error(`the answer's header ${JSON.stringify(name)}: ${JSON.stringify(value)} cannot be sent`);
    block += `${name}: ${value}\r\n`;
  }
  return block;
}

/** An answer as the bytes to write: a string when its head is ASCII, else Latin-1 head + UTF-8 body. */
function serialize(response: MockResponse, isHead: boolean, keepAlive: boolean): string | Buffer {
  const { status, headers, body } = response;
  let block = headerBlocks.get(headers);
  let ascii = true;
  if (block === undefined) {
    block = formatHeaders(headers);
    ascii = ASCII.test(block);
    if (ascii && Object.isFrozen(headers)) headerBlocks.set(headers, block);
  }
  let head = statusLine(status) + block;
  // RFC 9110 §8.6: no length on 1xx and 204; a HEAD answer without a body says nothing of one.
  if (body !== undefined) head += `content-length: ${Buffer.byteLength(body)}\r\n`;
  else if (!isHead && status >= 200 && status !== 204 && status !== 304) head += 'content-length: 0\r\n';
  head += dateLine() + (keepAlive ? KEEP_ALIVE : CLOSE);
  const payload = body === undefined || isHead ? '' : body;
  // Bytes (an image, an octet stream) go out as they are, after the head.
  if (typeof payload !== 'string') return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
  if (ascii) return head + payload;
  // A header value with obs-text (an echoed Origin, say) goes out byte for byte, as Node sends it.
  return Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(payload)]);
}
