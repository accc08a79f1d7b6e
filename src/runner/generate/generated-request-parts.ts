// Run-unique values for body fields that must not collide with what an earlier case, a sequence
// or an earlier run left on the server: the key of a created item, and the label a list shows.
import type { JsonValue } from '../../json/exact-json.ts';
import { uniqueString, uniqueUuid } from './unique-values.ts';

/** A run-unique int64 of the same size as {{uniqueId}}, to ask the validator whether one fits. */
export const SAMPLE_UNIQUE_ID = 1_700_000_000_000_000_000n;

/** A body to send (`template`, with variables) and the same body with values in their place, to validate. */
export interface UniqueBody {
  template: Record<string, JsonValue>;
  sample: Record<string, JsonValue>;
}

/**
 * The body with `field` set to a run-unique value that keeps the body valid: {{uniqueId}} for an
 * integer; for a string the first that fits of "PREFIX{{uniqueId}}", {{uniqueUuid}} (format
 * uuid), {{uniqueString}} (13 characters, for a maxLength or an alphanumeric pattern) and
 * "PREFIX{{uniqueString}}". Undefined when none does (an enum, a tight pattern).
 */
export function withUniqueField(
  body: UniqueBody,
  field: string,
  type: 'integer' | 'string',
  prefix: string,
  check: (value: JsonValue) => { ok: boolean },
  ordinal: 1 | 2 | 3 = 1,
): UniqueBody | undefined {
  for (const [template, sample] of candidates(type, prefix === '' ? 'id-' : prefix, ordinal)) {
    const candidate = { ...body.sample, [field]: sample };
    if (check(candidate).ok) return { template: { ...body.template, [field]: template }, sample: candidate };
  }
  return undefined;
}

/** The body with its key field made run-unique (when the key fits one), else as it was. */
export function withUniqueKey(
  body: JsonValue,
  field: string | undefined,
  type: 'integer' | 'string',
  prefix: string,
  check: (value: JsonValue) => { ok: boolean },
): JsonValue {
  if (
    field === undefined ||
    body === null ||
    typeof body !== 'object' ||
    Array.isArray(body) ||
    !Object.hasOwn(body, field)
  )
    return body;
  return withUniqueField({ template: body, sample: body }, field, type, prefix, check)?.template ?? body;
}

// A string is never the bare {{uniqueId}}, which would send an integer. The ordinal picks the
// case's first, second or third unique value (variables.ts), for a case that creates several items.
function candidates(
  type: 'integer' | 'string',
  prefix: string,
  ordinal: 1 | 2 | 3,
): Array<[template: string, sample: JsonValue]> {
  const n = ordinal === 1 ? '' : ` ${ordinal}`;
  const id = SAMPLE_UNIQUE_ID + BigInt(ordinal - 1) * (1n << 61n);
  if (type === 'integer') return [[`{{uniqueId${n}}}`, id]];
  return [
    [`${prefix}{{uniqueId${n}}}`, `${prefix}${id}`],
    [`{{uniqueUuid${n}}}`, uniqueUuid(id)],
    [`{{uniqueString${n}}}`, uniqueString(id)],
    [`${prefix}{{uniqueString${n}}}`, `${prefix}${uniqueString(id)}`],
  ];
}
