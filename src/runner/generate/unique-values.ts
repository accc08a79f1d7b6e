// Run-unique values for keys that must not collide with what an earlier case or run left on a
// server: one per case, all derived from the case's {{uniqueId}}, so that a key sent in a create
// and the same key in the path of the read after it are the same text.

/** {{uniqueUuid}}: the uniqueId's 64 bits in a version-4-shaped UUID (what `format: uuid` accepts). */
export function uniqueUuid(uniqueId: bigint): string {
  const hex = BigInt.asUintN(64, uniqueId).toString(16).padStart(16, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(12, 15)}-8${hex.slice(15)}00-000000000000`;
}

/**
 * {{uniqueString}}: the uniqueId in base 36, 13 lower-case letters and digits (for a short maxLength or an
 * alphanumeric pattern).
 */
export function uniqueString(uniqueId: bigint): string {
  return BigInt.asUintN(64, uniqueId).toString(36);
}

/** Milliseconds since 1970 at which the offsets start counting (2025-01-01). */
const OFFSET_EPOCH_MS = 1_735_689_600_000n;

/**
 * The case's run-unique offset: a multiple of 4 below 2^52, different in every case of a run and in
 * every later run (from the millisecond the run started and the case's place in it, as
 * {{uniqueId}} is). Small enough that N plus it stays beside N (2^53 + offset is still below
 * 2^54), and a multiple of 4 so that N and N + 1 keep the low bits they had: 2^53 + offset and
 * 2^53 + offset + 1 are still two integers a double cannot tell apart.
 */
export function uniqueOffset(uniqueId: bigint): bigint {
  const runMs = BigInt.asUintN(40, uniqueId / 1_000_000n - OFFSET_EPOCH_MS);
  return (runMs * 1000n + (BigInt.asUintN(64, uniqueId) % 1000n)) * 4n;
}
