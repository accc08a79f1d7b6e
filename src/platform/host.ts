// The few things the engine asks of its host that Node and a browser do differently. Node's
// versions are here; bundlers that build for a browser take host.browser.ts instead (the
// package's "browser" field maps the one to the other), so that nothing the engine imports
// pulls in a Node built-in. Both files export the same names, checked by host.browser.ts.
import { createHash } from 'node:crypto';
import { isUtf8 as nodeIsUtf8 } from 'node:buffer';
import { getHeapStatistics } from 'node:v8';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

/** The sha256 of a text, in hex: names a token's share of state without keeping the token. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Whether the bytes are well-formed UTF-8 (never replaced: a malformed body is refused). */
export const isUtf8 = (bytes: Uint8Array): boolean => nodeIsUtf8(bytes);

/**
 * How much the mock's records may weigh by default: 1024 MB, or half of V8's heap limit where
 * that is smaller (a small machine), so that the records never take the heap to the point where
 * Node aborts the process.
 */
export function defaultStateBytes(): number {
  return Math.min(1024 * 1048576, Math.floor(getHeapStatistics().heap_size_limit / 2));
}

/** Runs a step after pending I/O (a request, a signal) has had its turn. */
export const afterIO = (step: () => void): unknown => setImmediate(step);
export const cancelAfterIO = (handle: unknown): void => clearImmediate(handle as NodeJS.Immediate);

/** The built-in Plant Store document: the default wherever a command takes --spec. */
export const DEFAULT_SPEC_PATH = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'openapi',
  'plant-store.yaml',
);

const requireHere = createRequire(import.meta.url);
/**
 * Ajv for JSON Schema draft 4 (OpenAPI 3.0's schemas), loaded when a 3.0 document needs it: start-up
 * that a 3.1 document does not pay (fast path: see docs/performance.md §10.9).
 */
export const requireAjvDraft04 = (): unknown => requireHere('ajv-draft-04');

/** The reason phrase of a status ("Not Found"), as Node's own server sends it. */
export const reasonPhrase = (status: number): string | undefined =>
  (statusCodes ??= (requireHere('node:http') as typeof import('node:http')).STATUS_CODES)[status];
let statusCodes: Record<number, string | undefined> | undefined;
