// The runner's defaults, in a module of their own so that the CLI can show them in --help
// without loading the runner (undici, yaml, the fixture schema).

/** Deadline per request, connect to last body byte. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** Largest response body read; a larger one fails the case. */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
/** Deadline of the plain GET that asks, after time-outs in a row, whether the server answers anything at all. */
export const LIVENESS_TIMEOUT_MS = 2000;
