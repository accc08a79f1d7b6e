// `example --as curl` without --seed sends something new on each run, so that the command can be
// run again against the same server: the key a create sends is made unique from the clock (as
// verify's {{uniqueId}} is) wherever the schema takes such a value; else the fresh seed's draw stays.
import type { JsonValue } from '../json/exact-json.ts';
import type { ResourceBinding } from '../document/resources.ts';

/** The body with the create's key set to a value made from `unique` that the schema accepts, else as it was. */
export function withFreshKey(
  body: JsonValue,
  binding: ResourceBinding | undefined,
  check: (value: JsonValue) => { ok: boolean },
  unique: bigint,
): JsonValue {
  const field = binding?.keyField;
  if (
    binding?.role !== 'create' ||
    field === undefined ||
    body === null ||
    typeof body !== 'object' ||
    Array.isArray(body) ||
    !Object.hasOwn(body, field)
  )
    return body;
  const candidates: JsonValue[] =
    binding.keyType === 'integer' ? [unique] : [`${binding.noun}-${unique}`, uuidOf(unique), unique.toString(36)];
  for (const candidate of candidates) {
    const next = { ...body, [field]: candidate };
    if (check(next).ok) return next;
  }
  return body;
}

/** A value unique to this run and index: the millisecond times a million, plus a random part and the index. */
export function freshUnique(nowMs: number, random: number, index: number): bigint {
  return BigInt(nowMs) * 1_000_000n + BigInt(random) * 1_000n + BigInt(index);
}

/** The value's 64 bits in a version-4-shaped UUID (what `format: uuid` accepts). */
function uuidOf(value: bigint): string {
  const hex = BigInt.asUintN(64, value).toString(16).padStart(16, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(12, 15)}-8${hex.slice(15)}00-000000000000`;
}
