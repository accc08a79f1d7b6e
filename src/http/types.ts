// The plain-data request and response every part of the toolkit shares: the mock engine takes and
// gives these, the journal stores them, the runner sends the one and judges the other, and the
// proxy judges its upstream's answers in them.
import type { JsonValue } from '../json/exact-json.ts';

export interface HttpRequest {
  method: string;
  /** The path as sent, without the query ("/plants"). */
  path: string;
  /** The raw query string without "?" ('' when none). */
  query: string;
  /** Header names in lower case; a repeated header keeps every value, joined by ", " except Authorization. */
  headers: Record<string, string | undefined>;
  /** How many Authorization headers the request carried (Node keeps only the first in `headers`). */
  authorizationCount?: number;
  /** The body bytes as received ('' or empty when none). */
  body: Uint8Array | string;
  /** A body over the size limit, still arriving, unread (the proxy's); `body` is then empty. */
  bodyStream?: AsyncIterable<Uint8Array>;
  /**
   * A fault this request is answered with (src/mock/answer/faults.ts): the engine answers it as a forced answer,
   * changing no state, and journals it.
   */
  fault?: { kind: string; status?: number; by: string };
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  /** Serialized body (text, or bytes for a binary media type), or undefined for none (204, HEAD). */
  body?: string | Uint8Array;
  /** A body passed on as it arrives, too large to hold (the proxy's); `body` is then undefined. */
  stream?: AsyncIterable<Uint8Array>;
  /** The body decoded as UTF-8 text, once, for whoever judges the answer (the runner's checks, the proxy's). */
  text?: string;
  /** The body parsed as exact JSON, for the same judges; undefined when the body is empty or was not read as JSON. */
  json?: { ok: true; value: JsonValue } | { ok: false; message: string };
  /** Send this answer broken, as the listener's socket-faults.ts says (the mock's faults). */
  fault?: 'reset' | 'close' | 'timeout' | 'malformed' | 'slow-body';
}

/** @deprecated The earlier name of HttpRequest, kept for code written against it. */
export type MockRequest = HttpRequest;
/** @deprecated The earlier name of HttpAnswer, kept for code written against it. */
export type MockResponse = HttpAnswer;
