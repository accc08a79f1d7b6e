// Date#toISOString per request shows in the mock's rate (fast path: see docs/performance.md §10.6);
// the second is formatted once and only the milliseconds per call.
// Under load dozens of requests share a millisecond, so the last string is kept and reused.
let second = -1;
let prefix = '';
let lastMs = -1;
let last = '';

/** A time (epoch milliseconds, now by default) as an ISO 8601 UTC string with milliseconds. */
export function isoTimestamp(now: number = Date.now()): string {
  if (now === lastMs) return last;
  const s = Math.floor(now / 1000);
  if (s !== second) {
    second = s;
    prefix = new Date(s * 1000).toISOString().slice(0, 19);
  }
  lastMs = now;
  last = `${prefix}.${String(now - s * 1000).padStart(3, '0')}Z`;
  return last;
}
