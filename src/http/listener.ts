// The only node:http code: turns sockets into MockRequests and MockResponses back into bytes.
// Limits that protect the process live here: body size (413), header and request timeouts (408).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { MockRequest, MockResponse } from '../mock/http-types.ts';
import { http } from './node-http.ts';

export interface ListenerOptions {
  maxBodyBytes: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Error-shaped body for the answers the listener gives itself (413, 408, 400). */
  errorBody(status: number, message: string): string;
  onError(message: string): void;
}

export type Handler = (request: MockRequest) => MockResponse | Promise<MockResponse>;

const EMPTY = Buffer.alloc(0);

/** An http.Server that feeds every request to the handler. */
export function createListener(handle: Handler, options: ListenerOptions): Server {
  const dispatch = (req: IncomingMessage, res: ServerResponse, body: Buffer | 'too-large') => {
    if (body === 'too-large') {
      sendError(res, 413, `the body is larger than the limit of ${options.maxBodyBytes} bytes (--max-body)`, options, true);
      return;
    }
    let response: MockResponse | Promise<MockResponse>;
    try {
      response = handle(toMockRequest(req, body));
    } catch (error) {
      response = Promise.reject(error);
    }
    // Most answers are ready at once and are written in the same tick, as a hand-written server would.
    if (!(response instanceof Promise)) {
      send(res, response);
      return;
    }
    response.then(
      (ready) => send(res, ready),
      (error) => {
        options.onError(`plantstore bug: ${(error as Error).stack ?? String(error)}`);
        sendError(res, 500, 'internal mock error; see the mock log', options, false);
      },
    );
  };
  const server = http.createServer(
    {
      headersTimeout: options.headersTimeoutMs,
      requestTimeout: options.requestTimeoutMs,
      // Node checks those timeouts every 30 s by default, which would let a stalled client linger.
      connectionsCheckingInterval: 1_000,
      // Node's default of 2000 headers is kept; more are dropped by Node (the handler still answers).
      keepAliveTimeout: 5_000,
    },
    (req, res) =>
      readBody(req, options.maxBodyBytes, (body) => {
        if (body instanceof Error) {
          // The client went away or sent a broken body (e.g. a Content-Length longer than the body).
          if (!res.headersSent && !res.destroyed) sendError(res, 400, 'the request body could not be read', options, true);
          return;
        }
        dispatch(req, res, body);
      }),
  );
  // Answers for requests that never reach the handler: malformed HTTP, timeouts.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const message = status === 408 ? `the request took longer than ${options.requestTimeoutMs / 1000} s to arrive` : status === 431 ? 'request headers too large' : 'malformed HTTP request';
    // A request already handed to the handler (a stalled body) is answered through its response.
    const pending = (socket as { _httpMessage?: ServerResponse })._httpMessage;
    if (pending) {
      if (!pending.headersSent) sendError(pending, status, message, options, true);
      pending.once('finish', () => socket.destroy());
      setTimeout(() => socket.destroy(), 1_000).unref();
      return;
    }
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const body = options.errorBody(status, message);
    socket.end(`HTTP/1.1 ${status} ${status === 408 ? 'Request Timeout' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
  return server;
}

/** Reads the whole body (callbacks, not a promise: this runs for every request). */
function readBody(req: IncomingMessage, limit: number, done: (body: Buffer | 'too-large' | Error) => void): void {
  const length = req.headers['content-length'];
  if (Number(length) > limit) {
    req.resume(); // drain without keeping it
    done('too-large');
    return;
  }
  if (length === '0' || (length === undefined && req.headers['transfer-encoding'] === undefined)) {
    req.resume();
    done(EMPTY);
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (result: Buffer | 'too-large' | Error) => {
    if (finished) return;
    finished = true;
    done(result);
  };
  req.on('data', (chunk: Buffer) => {
    if (finished) return;
    size += chunk.length;
    if (size > limit) {
      chunks.length = 0;
      finish('too-large');
      return;
    }
    chunks.push(chunk);
  });
  req.on('end', () => finish(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
  // A client that goes away mid-body: Node destroys the request with an ECONNRESET 'error'.
  req.on('error', (error) => finish(error));
}

function toMockRequest(req: IncomingMessage, body: Buffer): MockRequest {
  const target = req.url ?? '/';
  // An absolute-form target (GET http://host/plants) routes on its path only.
  const pathStart = target.startsWith('/') ? 0 : target.indexOf('/', target.indexOf('//') + 2);
  const relative = pathStart <= 0 ? (target.startsWith('/') ? target : '/') : target.slice(pathStart);
  const q = relative.indexOf('?');
  let authorizationCount = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    // The usual spellings first: toLowerCase makes a string.
    if (name.length === 13 && (name === 'Authorization' || name === 'authorization' || name.toLowerCase() === 'authorization')) authorizationCount++;
  }
  return {
    method: req.method ?? 'GET',
    path: q === -1 ? relative : relative.slice(0, q),
    query: q === -1 ? '' : relative.slice(q + 1),
    headers: req.headers as Record<string, string | undefined>,
    authorizationCount,
    body,
  };
}

function send(res: ServerResponse, response: MockResponse): void {
  if (res.destroyed) return;
  if (response.body === undefined) {
    res.writeHead(response.status, response.headers);
    res.end();
    return;
  }
  res.writeHead(response.status, { ...response.headers, 'content-length': Buffer.byteLength(response.body) });
  res.end(response.body);
}

function sendError(res: ServerResponse, status: number, message: string, options: ListenerOptions, close: boolean): void {
  if (res.headersSent || res.destroyed) return;
  const body = options.errorBody(status, message);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(close ? { connection: 'close' } : {}) });
  res.end(body);
}
