// Date#toISOString per request is measurable at 20k req/s; the second is formatted once and
// only the milliseconds per call.
let second = -1;
let prefix = '';

/** The current time as an ISO 8601 UTC string with milliseconds. */
export function isoTimestamp(): string {
  const now = Date.now();
  const s = Math.floor(now / 1000);
  if (s !== second) {
    second = s;
    prefix = new Date(s * 1000).toISOString().slice(0, 19);
  }
  return `${prefix}.${String(now % 1000).padStart(3, '0')}Z`;
}
