// `Idempotency-Key` on POST and PATCH, as Stripe and draft-ietf-httpapi-idempotency-key-header
// describe it: the first request with a key is answered and its answer kept; a repeat with the same
// key and the same request gets that answer again (with `Idempotent-Replayed: true`), one with
// another request under the key is refused (422), and one that comes while the first is still
// being answered gets 409. Records are kept in the state store, per tenant, beside the collections
// (so memory, the state file and Redis keep them alike, and a reset clears them), for 24 hours.
// Requests the mock refuses before acting (a bad body, no credentials) keep nothing, as at Stripe.
import type { HttpAnswer, HttpRequest } from '../http/types.ts';
import { sha256Hex } from '../platform/host.ts';
import { StateFullError, type StateStore, type StoredRecord } from '../state/store.ts';

/** The collection idempotency records are kept in; no document path can name it. */
export const IDEMPOTENCY_COLLECTION = '\u0001idempotency-keys';
/** How long a key is kept (Stripe's 24 hours): after that it is a new key. */
const KEPT_MS = 24 * 60 * 60 * 1000;
/** A reservation older than this was left by a mock that stopped mid-request: the key is free again. */
const RESERVED_MS = 60 * 1000;
/** Stripe's limit on a key's length. */
const MAX_KEY_LENGTH = 255;

/** A request's key and what makes it the same request, or why the key is refused. */
export type IdempotencyKey = { ok: true; key: string; fingerprint: string } | { ok: false; message: string };

/** The key of a POST or PATCH that sends one, else undefined (the common request: no work). */
export function idempotencyKeyOf(request: HttpRequest): IdempotencyKey | undefined {
  const sent = request.headers['idempotency-key'];
  if (sent === undefined || (request.method !== 'POST' && request.method !== 'PATCH')) return undefined;
  // The draft makes it a structured-field string ("..."); Stripe sends it bare. Both are read.
  const quoted = /^"((?:[^"\\]|\\.)*)"$/.exec(sent.trim());
  const key = quoted ? quoted[1].replace(/\\(.)/g, '$1') : sent.trim();
  if (key === '' || key.length > MAX_KEY_LENGTH || sent.includes(', '))
    return {
      ok: false,
      message: `the Idempotency-Key header must be one key of 1 to ${MAX_KEY_LENGTH} characters (a UUID, for example)`,
    };
  const body = typeof request.body === 'string' ? request.body : latin1.decode(request.body);
  const fingerprint = sha256Hex(`${request.method} ${request.path}?${request.query}\n${body}`);
  return { ok: true, key, fingerprint };
}

const latin1 = new TextDecoder('latin1');

/** What a request with a key gets before it is decided. */
export type Reserved =
  | { kind: 'reserved' }
  /** The state is full: the request is answered, and its answer not kept. */
  | { kind: 'unkept' }
  | { kind: 'replay'; response: HttpAnswer }
  | { kind: 'in-flight' }
  | { kind: 'mismatch' };

/**
 * Looks the key up and, when it is new (or expired), reserves it in the same synchronous step as
 * the decision that follows, so that two requests with one key cannot both be answered anew.
 */
export function reserve(store: StateStore, { key, fingerprint }: { key: string; fingerprint: string }): Reserved {
  const kept = store.get(IDEMPOTENCY_COLLECTION, key);
  const now = Date.now();
  const age = kept === undefined ? 0 : now - Number(kept.at);
  if (kept !== undefined && age < (kept.status === undefined ? RESERVED_MS : KEPT_MS)) {
    if (kept.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (kept.status === undefined) return { kind: 'in-flight' };
    return { kind: 'replay', response: replayed(kept) };
  }
  const pending: StoredRecord = { fingerprint, at: now };
  try {
    if (kept === undefined) store.insert(IDEMPOTENCY_COLLECTION, key, pending);
    else store.replace(IDEMPOTENCY_COLLECTION, key, pending);
  } catch (error) {
    if (error instanceof StateFullError) return { kind: 'unkept' };
    throw error;
  }
  return { kind: 'reserved' };
}

/** Keeps the answer a reserved key got, for its repeats. */
export function keep(
  store: StateStore,
  { key, fingerprint }: { key: string; fingerprint: string },
  response: HttpAnswer,
) {
  const { body } = response;
  const record: StoredRecord = {
    fingerprint,
    at: Date.now(),
    status: response.status,
    headers: response.headers,
    ...(body === undefined ? {} : typeof body === 'string' ? { text: body } : { bytes: latin1.decode(body) }),
  };
  try {
    if (!store.replace(IDEMPOTENCY_COLLECTION, key, record)) store.insert(IDEMPOTENCY_COLLECTION, key, record);
  } catch (error) {
    // Too large to keep in a full state: the key is freed, and a repeat is answered anew.
    if (!(error instanceof StateFullError)) throw error;
    store.remove(IDEMPOTENCY_COLLECTION, key);
  }
}

/** Frees a reserved key whose request failed (a bug, a store away): a retry is answered anew. */
export function release(store: StateStore, { key }: { key: string }) {
  store.remove(IDEMPOTENCY_COLLECTION, key);
}

function replayed(kept: StoredRecord): HttpAnswer {
  const headers = { ...(kept.headers as Record<string, string>), 'idempotent-replayed': 'true' };
  if (typeof kept.text === 'string') return { status: Number(kept.status), headers, body: kept.text };
  if (typeof kept.bytes === 'string')
    return { status: Number(kept.status), headers, body: Uint8Array.from(kept.bytes, (c) => c.charCodeAt(0)) };
  return { status: Number(kept.status), headers };
}
