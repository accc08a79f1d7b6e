// The mock's socket on node:http: the thin adapter that turns Node's IncomingMessage into a
// HttpRequest and an HttpAnswer back into Node's answer. Everything about HTTP itself (framing,
// keep-alive, pipelining, 100-continue, header and request deadlines) is Node's; the adapter only
// adds the limits that are the mock's own (body size), answers Node's refusals in the document's
// error shape instead of Node's bare status lines, and makes sure no client can pin a socket: a
// refused connection is destroyed after a short grace even if its client never reads, one that
// sends nothing is closed after a short deadline, and at the connection limit an idle connection
// makes room for a new one.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { pipeline, Readable } from 'node:stream';
import type { HttpRequest, HttpAnswer } from './types.ts';
import { http } from './node-http.ts';
import { createSocketFaults } from './socket-faults.ts';

export interface ListenerOptions {
  maxBodyBytes: number;
  /** A body over maxBodyBytes: refused with 413 (the mock), or handed on as a stream, unread (the proxy). */
  oversizedBodies?: 'refuse' | 'stream';
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Idle keep-alive connections close after this long (Node's default is 5 s). */
  keepAliveTimeoutMs?: number;
  /**
   * Most connections open at once; past it the oldest idle one is closed to make room (one that never sent a byte
   * first), or, when none is idle, the new one.
   */
  maxConnections?: number;
  /**
   * A connection that has sent no byte is closed after this long (default: the shorter of the keep-alive and header
   * deadlines).
   */
  firstByteTimeoutMs?: number;
  /**
   * After a refusal that closes the connection, how long the client has to read it before the socket is destroyed
   * (default: the header deadline, at most 1 s).
   */
  refusalGraceMs?: number;
  /** Error-shaped body for the answers the adapter gives itself (400, 408, 413, 431, ...). */
  errorBody(status: number, message: string): string;
  /** The Content-Type of errorBody's text (application/json when absent). */
  errorType?(status: number): string;
  onError(message: string): void;
}

export type Handler = (request: HttpRequest) => HttpAnswer | Promise<HttpAnswer>;

/** How long an idle keep-alive connection stays open: Node's default keepAliveTimeout. */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** The longest a refused client gets to read its refusal before its socket is destroyed. */
export const REFUSAL_GRACE_MS = 1_000;

/** Where a socket keeps its bytesRead as of its last answer (with a cap only). */
const READ_WHEN_ANSWERED = Symbol('readWhenAnswered');
type Marked = Socket & { _httpMessage?: ServerResponse | null; [READ_WHEN_ANSWERED]?: number };
/** A connection that has sent nothing. */
const silent = (socket: Marked) => socket.bytesRead === 0;
/** A connection between requests: answered, nothing owed, nothing read since. */
const between = (socket: Marked) => !socket._httpMessage && socket[READ_WHEN_ANSWERED] === socket.bytesRead;

/** Node's refusals of a malformed request, by llhttp's error code, as statuses. */
const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'request headers too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'the request took too long to arrive'],
  HPE_HEADERS_TIMEOUT: [408, 'the request headers took too long to arrive'],
  HPE_INVALID_TRANSFER_ENCODING: [400, 'malformed HTTP request: invalid Transfer-Encoding'],
  HPE_UNEXPECTED_CONTENT_LENGTH: [400, 'malformed HTTP request: Content-Length with Transfer-Encoding'],
  HPE_INVALID_METHOD: [400, 'malformed HTTP request: a method Node does not know'],
};

/**
 * An HTTP server that feeds every request to the handler.
 * @example const server = createListener(engine.handle, options); server.listen(0);
 */
export function createListener(handle: Handler, options: ListenerOptions): Server {
  const keepAliveTimeoutMs = options.keepAliveTimeoutMs ?? KEEP_ALIVE_TIMEOUT_MS;
  const firstByteTimeoutMs = options.firstByteTimeoutMs ?? Math.min(keepAliveTimeoutMs, options.headersTimeoutMs);
  const graceMs = options.refusalGraceMs ?? Math.min(REFUSAL_GRACE_MS, options.headersTimeoutMs);
  const cap = options.maxConnections;
  const server = http.createServer({
    headersTimeout: options.headersTimeoutMs,
    requestTimeout: options.requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    // Node checks both deadlines on this interval (30 s by default): a fraction of the shorter.
    connectionsCheckingInterval: Math.max(
      10,
      Math.floor(Math.min(1_000, options.headersTimeoutMs / 4, options.requestTimeoutMs / 4)),
    ),
    noDelay: true,
    // A repeated header is joined with ", " (Authorization keeps its first: its count says more).
    joinDuplicateHeaders: true,
    // Checked below, so that the refusal is in the document's error shape (Node's has no body).
    requireHostHeader: false,
  });
  // One slot above the cap: the connection that takes it makes room (see makeRoom), so that a
  // client arriving while idle connections fill the cap is answered, not dropped.
  if (cap !== undefined) server.maxConnections = cap + 1;
  // A client that half-closes after its requests still gets every answer (Node's default ends the
  // socket at once, dropping answers that wait, such as a state file's fsync). A refused client's
  // socket does not wait for the client's half of the close: linger() ends it.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  let closing = false;
  // Open connections, oldest first.
  const sockets = new Set<Socket>();
  // Marks are written only once the connections fill half the cap: below it no eviction can come
  // soon, and the common case pays nothing per answer.
  const markFrom = cap === undefined ? Number.POSITIVE_INFINITY : Math.floor(cap / 2);
  /** The socket was answered: what it has read so far is spoken for. */
  const answered = (socket: Socket) => {
    if (sockets.size > markFrom) (socket as Marked)[READ_WHEN_ANSWERED] = socket.bytesRead;
  };
  /**
   * Past the cap, idle connections make room, oldest first: first those that never sent a byte
   * (a flood of them, a browser's preconnects), then those between requests (no answer owed or
   * being written, no byte read since their last answer). A connection answered before marks were
   * written, and one with a request still arriving, is never taken for idle. With none idle, the
   * new connection is closed.
   */
  const makeRoom = (arrival: Socket) => {
    for (const pass of [silent, between]) {
      for (const socket of sockets) {
        if (sockets.size <= cap!) return;
        if (socket === arrival) break;
        if (socket.destroyed || pass(socket as Marked)) {
          sockets.delete(socket);
          socket.destroy();
        }
      }
    }
    if (sockets.size > cap!) {
      sockets.delete(arrival);
      arrival.destroy();
    }
  };
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    if (cap !== undefined && sockets.size > cap) {
      makeRoom(socket);
      if (socket.destroyed) return;
    }
    // Node's deadlines start at a request's first byte: a connection that never sends one would stay
    // open for ever. It is closed after a short deadline without an answer (a browser's preconnect
    // is never sent a 408). A plain timer, not the socket's idle timeout: Node destroys a socket
    // whose idle timeout fires, which would cut off a request still arriving before its 408.
    const firstByte = setTimeout(() => socket.bytesRead === 0 && socket.destroy(), firstByteTimeoutMs);
    firstByte.unref();
    socket.once('close', () => clearTimeout(firstByte));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (closing) res.shouldKeepAlive = false;
    const counts = countHeaders(req.rawHeaders);
    const refusal = framingRefusal(req, counts.hosts);
    if (refusal) {
      refuse(res, options, refusal[0], refusal[1], graceMs);
      return;
    }
    admit(req, res, counts.authorizations);
  });
  // A client that pipelines requests and reads none of the answers: llhttp has parsed every
  // request of the chunk it read, so each would be answered into memory. The next request waits,
  // in order, until the client has read what is written (an admin state dump can be megabytes).
  const waiting = new WeakMap<Socket, [IncomingMessage, ServerResponse, number][]>();
  const admit = (req: IncomingMessage, res: ServerResponse, authorizations: number) => {
    const socket = req.socket;
    const queue = waiting.get(socket);
    if (queue !== undefined) queue.push([req, res, authorizations]);
    else if (!socket.writableNeedDrain) serve(req, res, authorizations);
    else {
      waiting.set(socket, [[req, res, authorizations]]);
      socket.once('drain', () => release(socket));
    }
  };
  const release = (socket: Socket) => {
    const queue = waiting.get(socket) ?? [];
    while (queue.length > 0) {
      if (socket.writableNeedDrain) {
        socket.once('drain', () => release(socket));
        return;
      }
      const [req, res, authorizations] = queue.shift() as [IncomingMessage, ServerResponse, number];
      serve(req, res, authorizations);
    }
    waiting.delete(socket);
  };
  // The mock's faults (a reset, a cut body, ...) break the answer on purpose; socket-faults.ts does it.
  const faults = createSocketFaults();
  const deliver = (res: ServerResponse, response: HttpAnswer) =>
    response.fault === undefined ? send(res, response, options) : faults.carryOut(res, response);
  const serve = (req: IncomingMessage, res: ServerResponse, authorizations: number) => {
    readBody(req, options.maxBodyBytes, options.oversizedBodies === 'stream').then(
      (body) => {
        if (body === undefined) {
          refuse(
            res,
            options,
            413,
            `the body is larger than the limit of ${options.maxBodyBytes} bytes (--max-body)`,
            graceMs,
          );
          return;
        }
        let response: HttpAnswer | Promise<HttpAnswer>;
        try {
          response = handle(
            Buffer.isBuffer(body)
              ? toMockRequest(req, body, authorizations)
              : { ...toMockRequest(req, EMPTY, authorizations), bodyStream: body },
          );
        } catch (error) {
          response = Promise.reject(error);
        }
        if (response instanceof Promise) {
          response.then(
            (ready) => {
              deliver(res, ready);
              answered(req.socket);
            },
            (error) => {
              options.onError(`plantstore bug: ${(error as Error).stack ?? String(error)}`);
              send(res, internalError(options), options);
            },
          );
        } else {
          deliver(res, response);
          answered(req.socket);
        }
      },
      () => {
        // The client went away mid-body (aborted or reset): nothing to answer.
      },
    );
  };
  // RFC 9110 §10.1.1: an expectation other than 100-continue may be refused with 417; the body it
  // announced is never read, so the connection closes after the answer.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    refuse(
      res,
      options,
      417,
      `the expectation "${req.headers.expect}" is not supported (only 100-continue is)`,
      graceMs,
    );
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (error.code === 'ECONNRESET' && !socket.readable)) {
      socket.destroy();
      return;
    }
    const reason = (error as { reason?: string }).reason ?? error.message.replace(/^Parse Error: /, '');
    const [status, message] =
      CLIENT_ERRORS[error.code ?? ''] ??
      (reason === 'Invalid HTTP version'
        ? [505, 'this HTTP version is not supported: the mock speaks HTTP/1.1']
        : [400, `malformed HTTP request: ${reason}`]);
    const body = options.errorBody(status, message);
    // Answers owed to requests read before the bad bytes go first (Node's own refusal is written
    // ahead of them and drops them); if one of them closed the connection, it said all there was.
    afterOwedAnswers(socket, () => {
      if (!socket.writable) return socket.destroy();
      socket.end(
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: ` +
          `${errorType(options, status)}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: ` +
          `close\r\n\r\n${body}`,
      );
      linger(socket, graceMs);
    });
  });
  const close = server.close.bind(server);
  server.close = (callback?: (error?: Error) => void) => {
    // Answers still being worked on go out with "connection: close", then their sockets end.
    closing = true;
    faults.stop();
    return close(callback);
  };
  // Node's own closes every connection between requests, also one whose last answer is still
  // being written to a slow reader: that one ends once its answer is out instead.
  server.closeIdleConnections = () => {
    for (const socket of sockets) {
      const busy = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      if (busy) {
        busy.once('finish', () => socket.end());
        continue;
      }
      if (socket.writableLength > 0) socket.end();
      else socket.destroy();
    }
  };
  return server;
}

/** Calls back once every answer to a request read whole on the socket has been written. */
function afterOwedAnswers(socket: Socket, callback: () => void): void {
  // Node attaches pipelined answers to the socket one at a time, the next when one finishes.
  const owed = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  // A request still being read is the one the bad bytes were in: it is owed nothing but the refusal
  // (unless it has been refused already).
  if (!owed || (!owed.req.complete && !owed.writableEnded)) return callback();
  owed.once('finish', () => afterOwedAnswers(socket, callback));
  // Gone without finishing (the client left): the callback finds the socket closed.
  owed.once('close', () => owed.writableFinished || callback());
}

/**
 * What llhttp lets through and RFC 9112 refuses, or the mock cannot honour: [status, message].
 * A server and a proxy that disagree on where a request ends can be made to see two requests in one,
 * so these close the connection.
 */
function framingRefusal(req: IncomingMessage, hosts: number): [number, string] | undefined {
  // RFC 9110 §15.6.6: llhttp reads "HTTP/2.0" in a request line as a request.
  if (req.httpVersionMajor !== 1) return [505, `HTTP/${req.httpVersion} is not supported: the mock speaks HTTP/1.1`];
  // RFC 9112 §3.2: exactly one Host in HTTP/1.1.
  if (req.httpVersionMinor >= 1 && hosts !== 1)
    return [
      400,
      hosts === 0
        ? 'malformed HTTP request: an HTTP/1.1 request needs a Host header'
        : 'malformed HTTP request: more than one Host header',
    ];
  const coding = req.headers['transfer-encoding'];
  if (coding !== undefined && coding.trim().toLowerCase() !== 'chunked') {
    // RFC 9112 §6.3: without chunked last the body's length cannot be known: 400, then close.
    if (!/(?:^|,)[ \t]*chunked[ \t]*$/i.test(coding))
      return [400, `malformed HTTP request: Transfer-Encoding "${coding}" does not end with chunked`];
    // RFC 9112 §6.1: a transfer coding the server does not decode is refused with 501.
    return [501, `the transfer coding "${coding}" is not supported (only chunked is)`];
  }
  return undefined;
}

const EMPTY = Buffer.alloc(0);

/**
 * The body as one Buffer; past the limit undefined (the rest is not kept), or with `stream` all of it as it comes,
 * unread.
 */
function readBody(
  req: IncomingMessage,
  limit: number,
  stream: boolean,
): Promise<Buffer | AsyncIterable<Uint8Array> | undefined> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    if (stream) return Promise.resolve(req);
    // Past the limit before a byte is read: stop reading, answer at once, close afterwards.
    req.pause();
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let over = false;
    const onData = (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        if (stream) {
          // What was read, then the rest as it comes.
          req.pause();
          req.off('data', onData);
          parts.push(chunk);
          resolve(joined(parts.splice(0), req));
          return;
        }
        parts.length = 0;
        resolve(undefined);
        return;
      }
      parts.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => {
      if (!over) resolve(parts.length === 1 ? parts[0] : Buffer.concat(parts, size));
    });
    req.on('error', reject);
    req.on('aborted', () => reject(new Error('aborted')));
  });
}

/** The chunks already read, then the rest of the stream as it comes. */
export async function* joined(head: Uint8Array[], rest: AsyncIterable<unknown>): AsyncIterable<Uint8Array> {
  yield* head;
  for await (const chunk of rest) yield chunk as Uint8Array;
}

/** How many Host and Authorization fields a request carried (Node's `headers` keeps one of each), in one pass. */
function countHeaders(raw: string[]): { hosts: number; authorizations: number } {
  let hosts = 0;
  let authorizations = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name.length === 4 && name.toLowerCase() === 'host') hosts++;
    else if (name.length === 13 && name.toLowerCase() === 'authorization') authorizations++;
  }
  return { hosts, authorizations };
}

function toMockRequest(req: IncomingMessage, body: Buffer, authorizationCount: number): HttpRequest {
  let target = req.url ?? '/';
  // An absolute-form target (POST http://host/plants?x=1) routes on its path and keeps its query.
  if (!target.startsWith('/') && target !== '*') {
    const start = target.indexOf('/', target.indexOf('//') + 2);
    target = start === -1 ? '/' : target.slice(start);
  }
  const q = target.indexOf('?');
  return {
    method: req.method ?? 'GET',
    path: q === -1 ? target : target.slice(0, q),
    query: q === -1 ? '' : target.slice(q + 1),
    headers: req.headers as Record<string, string | undefined>,
    authorizationCount,
    body,
  };
}

function send(res: ServerResponse, response: HttpAnswer, options: ListenerOptions): void {
  if (res.destroyed) return;
  const { status, headers, body } = response;
  if (response.stream) {
    sendStream(res, response as HttpAnswer & { stream: AsyncIterable<Uint8Array> });
    return;
  }
  try {
    res.writeHead(status, body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) });
  } catch (error) {
    options.onError(`plantstore bug: ${(error as Error).message}`);
    const fallback = internalError(options);
    res.writeHead(500, { ...fallback.headers, 'content-length': Buffer.byteLength(fallback.body as string) });
    res.end(fallback.body);
    return;
  }
  // RFC 9110 §9.3.2: Node sends no body for HEAD, only the length the body would have.
  res.end(body);
}

/**
 * A streamed body: its length is the headers' to say (or it is chunked); a source that fails mid-way ends the
 * connection, so the client sees a cut answer, never a complete-looking one.
 */
function sendStream(res: ServerResponse, response: HttpAnswer & { stream: AsyncIterable<Uint8Array> }): void {
  res.writeHead(response.status, response.headers);
  pipeline(Readable.from(response.stream, { objectMode: false }), res, (error) => {
    if (error) res.destroy();
  });
}

function refuse(res: ServerResponse, options: ListenerOptions, status: number, message: string, graceMs: number): void {
  const body = options.errorBody(status, message);
  res.shouldKeepAlive = false;
  res.writeHead(status, {
    'content-type': errorType(options, status),
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.end(body);
  // Node destroys the socket once the answer is flushed; a client that never reads never lets it
  // flush. The grace counts from when the refusal reaches the socket (after the answers owed before it).
  if (res.socket) linger(res.socket, graceMs);
  else res.once('socket', (socket: Socket) => linger(socket, graceMs));
}

/**
 * A refused connection is over: the answer and our half of the close are on their way, and the
 * client gets `graceMs` to read them (and close its half) before the socket is destroyed. Without
 * it a client that keeps sending and never reads would hold the socket for as long as it likes:
 * what it sends is read and dropped, and with allowHalfOpen the socket waits for the client's close.
 * Destroying at once instead would reset the connection under an answer the client has not read yet.
 */
function linger(socket: Socket, graceMs: number): void {
  if (socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), graceMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/** The answer to a request the handler failed on: a mock bug, already logged. */
function internalError(options: ListenerOptions): HttpAnswer {
  return {
    status: 500,
    headers: { 'content-type': errorType(options, 500) },
    body: options.errorBody(500, 'internal mock error; see the mock log'),
  };
}

const errorType = (options: ListenerOptions, status: number) => options.errorType?.(status) ?? 'application/json';
