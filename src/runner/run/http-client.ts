// The only undici code. Every request has one deadline that covers connecting, the headers and
// the whole body, and the body is read with a byte cap, so a server that hangs, drips or streams
// forever costs at most --timeout and --max-response-size. Redirects are never followed and
// nothing is ever retried: a POST that may have reached the server must not be sent twice.
import { Agent, buildConnector, request, type Dispatcher } from 'undici';
import type { HttpRequest, HttpAnswer } from '../../http/types.ts';

export interface HttpClientOptions {
  timeoutMs: number;
  maxResponseBytes: number;
  /** PEM certificates to trust besides the system's (a self-signed server). */
  ca?: string;
}

export type TransportFailureCode =
  | 'timeout'
  | 'connection-refused'
  | 'connection-reset'
  | 'unreachable'
  | 'tls-error'
  | 'invalid-http'
  | 'body-too-large'
  | 'transport-error';

export type HttpOutcome =
  | (HttpAnswer & { ok: true; body: Buffer; durationMs: number })
  | {
      ok: false;
      code: TransportFailureCode;
      message: string;
      durationMs: number;
      status?: number;
      headers?: Record<string, string>;
    };

export type ProbeOutcome = { ok: true } | { ok: false; code: TransportFailureCode; message: string };

export interface HttpClient {
  /**
   * Sends a request (its path already holds the target's base path) to the target's scheme, host and port; `timeoutMs`
   * overrides --timeout.
   */
  send(target: URL, outgoing: HttpRequest, timeoutMs?: number): Promise<HttpOutcome>;
  /** Opens one connection to the target (and its TLS handshake) and closes it: can a request get there at all? */
  probe(target: URL, timeoutMs: number): Promise<ProbeOutcome>;
  close(): Promise<void>;
}

/** A client with its own connection pool; close it when the run ends. */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const dispatcher = new Agent({
    connect: { ca: options.ca, timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    // One request per connection at a time: a reset then costs only the request it hit.
    pipelining: 1,
  });
  return {
    send: (target, outgoing, timeoutMs) =>
      send(
        dispatcher,
        requestUrl(target, outgoing),
        outgoing,
        timeoutMs === undefined ? options : { ...options, timeoutMs },
      ),
    probe: (target, timeoutMs) => probe(target, timeoutMs, options),
    close: async () => {
      await dispatcher.destroy();
    },
  };
}

/** Where a request goes: the target with the request's path and query, both already encoded. */
export function requestUrl(target: URL, outgoing: HttpRequest): URL {
  const url = new URL(target.href);
  url.pathname = outgoing.path;
  url.search = outgoing.query;
  return url;
}

async function send(
  dispatcher: Dispatcher,
  url: URL,
  outgoing: HttpRequest,
  options: HttpClientOptions,
): Promise<HttpOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 100) / 100;
  const deadline = AbortSignal.timeout(options.timeoutMs);
  let status: number | undefined;
  let headers: Record<string, string> | undefined;
  try {
    const response = await request(url, {
      dispatcher,
      method: outgoing.method as Dispatcher.HttpMethod,
      headers: outgoing.headers as Record<string, string>,
      // (undici sends no body for an empty one.)
      body: outgoing.body,
      signal: deadline,
    });
    status = response.statusCode;
    headers = flattenHeaders(response.headers);
    const declaredLength = Number(headers['content-length']);
    if (declaredLength > options.maxResponseBytes) {
      // Destroying an unread body makes undici emit an abort error on it: nothing else listens.
      response.body.on('error', () => {});
      response.body.destroy();
      return tooLarge(`Content-Length ${declaredLength}`, options, elapsed(), status, headers);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > options.maxResponseBytes) {
        response.body.on('error', () => {});
        response.body.destroy();
        return tooLarge(`more than ${options.maxResponseBytes} bytes were sent`, options, elapsed(), status, headers);
      }
      chunks.push(chunk as Buffer);
    }
    return { ok: true, status, headers, body: Buffer.concat(chunks), durationMs: elapsed() };
  } catch (error) {
    const { code, message } = describeFailure(error, deadline, options, status !== undefined);
    return { ok: false, code, message, durationMs: elapsed(), status, headers };
  }
}

/** No request is sent: a server that is down must not be told apart from a broken one by what a request did to it. */
function probe(target: URL, timeoutMs: number, options: HttpClientOptions): Promise<ProbeOutcome> {
  const connect = buildConnector({ ca: options.ca, timeout: timeoutMs });
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  const hostname = target.hostname.replace(/^\[|\]$/g, '');
  return new Promise((done) => {
    connect(
      {
        hostname,
        host: target.host,
        protocol: target.protocol,
        port,
        servername: target.protocol === 'https:' && !/^[\d.:[\]]+$/.test(target.hostname) ? hostname : undefined,
      },
      (error, socket) => {
        if (error) {
          const { code, message } = describeFailure(error, new AbortController().signal, options, false);
          done({ ok: false, code, message: code === 'timeout' ? `no connection within ${timeoutMs} ms` : message });
          return;
        }
        socket!.destroy();
        done({ ok: true });
      },
    );
  });
}

function tooLarge(
  what: string,
  options: HttpClientOptions,
  durationMs: number,
  status: number,
  headers: Record<string, string>,
): HttpOutcome {
  return {
    ok: false,
    code: 'body-too-large',
    message:
      `the response body is too large: ${what}, over the cap of ${options.maxResponseBytes} bytes ` +
      `(--max-response-size)`,
    durationMs,
    status,
    headers,
  };
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

const TLS_CODES = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/;

export function describeFailure(
  error: unknown,
  deadline: AbortSignal,
  options: HttpClientOptions,
  gotHeaders: boolean,
): { code: TransportFailureCode; message: string } {
  const err = error as Error & {
    code?: string;
    cause?: { code?: string; message?: string };
    errors?: Array<{ code?: string }>;
  };
  const code = err.code ?? err.cause?.code ?? err.errors?.find((e) => e.code)?.code ?? '';
  const during = gotHeaders ? 'while the body was being read' : 'before the answer arrived';
  if (
    deadline.aborted ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  ) {
    return {
      code: 'timeout',
      message: `no complete answer within ${options.timeoutMs} ms (--timeout): the deadline passed ${during}`,
    };
  }
  if (code === 'ECONNREFUSED')
    return {
      code: 'connection-refused',
      message: `connection refused: is the server running at this address? (${err.message})`,
    };
  if (
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'UND_ERR_SOCKET' ||
    code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' ||
    code === 'UND_ERR_CLOSED'
  ) {
    return {
      code: 'connection-reset',
      message: `the server closed or reset the connection ${during} (${code}: ${err.message})`,
    };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return { code: 'unreachable', message: `cannot reach the server: ${code} (${err.message})` };
  }
  if (TLS_CODES.test(code)) {
    return {
      code: 'tls-error',
      message: `TLS handshake failed: ${code} (${err.message}); for a self-signed certificate pass --ca FILE`,
    };
  }
  if (code.startsWith('HPE_'))
    return { code: 'invalid-http', message: `the answer is not valid HTTP: ${code} (${err.message})` };
  return { code: 'transport-error', message: `${code ? `${code}: ` : ''}${err.message ?? String(error)}` };
}
