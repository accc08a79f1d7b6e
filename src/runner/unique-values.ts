// Run-unique values for keys that must not collide with what an earlier case or run left on a
// server: one per case, all derived from the case's {{uniqueId}}, so that a key sent in a create
// and the same key in the path of the read after it are the same text.

/** {{uniqueUuid}}: the uniqueId's 64 bits in a version-4-shaped UUID (what `format: uuid` accepts). */
export function uniqueUuid(uniqueId: bigint): string {
  const hex = BigInt.asUintN(64, uniqueId).toString(16).padStart(16, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(12, 15)}-8${hex.slice(15)}00-000000000000`;
}

/** {{uniqueString}}: the uniqueId in base 36, 13 lower-case letters and digits (for a short maxLength or an alphanumeric pattern). */
export function uniqueString(uniqueId: bigint): string {
  return BigInt.asUintN(64, uniqueId).toString(36);
}
