// The proxy's client for the upstream (undici, as the runner's): one pooled agent, a deadline to the answer's
// headers and one between body chunks. The answer's body is held up to a cap so that it can be
// validated before its headers go out; past the cap it is handed on as a stream, unvalidated.
// Nothing is retried and redirects are not followed: the client sees what the upstream said.
import { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import { describeFailure, type TransportFailureCode } from '../runner/run/http-client.ts';
import { joined } from '../http/listener.ts';
import type { HttpRequest } from '../http/types.ts';

export interface UpstreamOptions {
  /** The upstream's base URL; its path is kept in front of every request's path. */
  url: URL;
  timeoutMs: number;
  /** Largest answer body held for validation; a larger one streams through. */
  maxBodyBytes: number;
  /** PEM certificates to trust besides the system's (a self-signed upstream). */
  ca?: string;
}

export type UpstreamAnswer =
  | { ok: true; status: number; headers: Record<string, string>; body: Buffer; durationMs: number }
  /**
   * Over the cap: `stream` is the whole body (what was read, then the rest as it comes); `declared` its announced
   * length.
   */
  | {
      ok: true;
      status: number;
      headers: Record<string, string>;
      body?: undefined;
      oversized: { stream: AsyncIterable<Uint8Array>; declared?: number };
      durationMs: number;
    }
  | { ok: false; code: TransportFailureCode; message: string; durationMs: number };

export interface Upstream {
  forward(request: HttpRequest): Promise<UpstreamAnswer>;
  close(): Promise<void>;
}

// RFC 9110 §7.6.1: these describe one connection, not the message, and are never forwarded.
// Host is the upstream's own (undici writes it from the URL).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);

/**
 * Headers fit to pass on: the hop-by-hop ones and those the Connection header names are left out.
 * A repeated header is joined with ", ", but Set-Cookie, whose values cannot be joined (RFC 6265
 * §3), stays a list: Node's writeHead writes a list as repeated headers, so the type says string
 * for what the listener passes straight to it.
 */
export function endToEndHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const named = headers.connection;
  // Most requests say only keep-alive or close: nothing else is this hop's.
  const extra =
    named === undefined || named === 'keep-alive' || named === 'close'
      ? undefined
      : new Set(
          String(named)
            .toLowerCase()
            .split(',')
            .map((name) => name.trim()),
        );
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || HOP_BY_HOP.has(name) || extra?.has(name)) continue;
    out[name] = Array.isArray(value)
      ? name === 'set-cookie'
        ? (value as unknown as string)
        : value.join(', ')
      : value;
  }
  return out;
}

// The deadlines are undici's: to the answer's headers, then between two chunks of its body (a
// proxy waits as long as data keeps coming, as nginx's proxy_read_timeout does).
const NEVER = new AbortController().signal;

/** A client for one upstream; close it when the proxy stops. */
export function createUpstream(options: UpstreamOptions): Upstream {
  const dispatcher = new Agent({
    connect: { ca: options.ca, timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 4_000,
  });
  // The base path ("/api/v1") is kept, without a doubled slash.
  const base = options.url.pathname.replace(/\/$/, '');
  const origin = options.url.origin;
  const failureOptions = { timeoutMs: options.timeoutMs, maxResponseBytes: options.maxBodyBytes };
  return {
    async forward(incoming) {
      const started = performance.now();
      const elapsed = () => Math.round((performance.now() - started) * 1000) / 1000;
      let gotHeaders = false;
      try {
        const path = `${base}${incoming.path}${incoming.query === '' ? '' : `?${incoming.query}`}`;
        const body = incoming.bodyStream
          ? Readable.from(incoming.bodyStream, { objectMode: false })
          : incoming.body.length === 0 && (incoming.method === 'GET' || incoming.method === 'HEAD')
            ? undefined
            : incoming.body;
        const headers = endToEndHeaders(incoming.headers);
        // A streamed body keeps its announced length (some servers take no chunked upload); a held one gets its own.
        const length = incoming.headers['content-length'];
        if (incoming.bodyStream && length !== undefined) headers['content-length'] = length;
        const response = await request(`${origin}${path}`, {
          dispatcher,
          method: incoming.method as Dispatcher.HttpMethod,
          headers,
          body,
        });
        gotHeaders = true;
        const answered = endToEndHeaders(response.headers);
        const declared =
          response.headers['content-length'] === undefined ? undefined : Number(response.headers['content-length']);
        if (declared !== undefined && declared > options.maxBodyBytes) {
          return {
            ok: true,
            status: response.statusCode,
            headers: { ...answered, 'content-length': String(declared) },
            oversized: { stream: response.body, declared },
            durationMs: elapsed(),
          };
        }
        // Its length is known and within the cap (the common answer): undici's own reader, the fastest.
        if (declared !== undefined)
          return {
            ok: true,
            status: response.statusCode,
            headers: answered,
            body: Buffer.from(await response.body.arrayBuffer()),
            durationMs: elapsed(),
          };
        const chunks: Buffer[] = [];
        let size = 0;
        const iterator = response.body[Symbol.asyncIterator]();
        for (;;) {
          const next = await iterator.next();
          if (next.done) break;
          const chunk = next.value as Buffer;
          size += chunk.length;
          chunks.push(chunk);
          if (size > options.maxBodyBytes) {
            // A chunked answer that turns out too large: what was read, then the rest as it comes.
            const rest = { [Symbol.asyncIterator]: () => iterator };
            return {
              ok: true,
              status: response.statusCode,
              headers: answered,
              oversized: { stream: joined(chunks, rest) },
              durationMs: elapsed(),
            };
          }
        }
        return {
          ok: true,
          status: response.statusCode,
          headers: answered,
          body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size),
          durationMs: elapsed(),
        };
      } catch (error) {
        const { code, message } = describeFailure(error, NEVER, failureOptions, gotHeaders);
        return { ok: false, code, message, durationMs: elapsed() };
      }
    },
    close: async () => {
      await dispatcher.destroy();
    },
  };
}
