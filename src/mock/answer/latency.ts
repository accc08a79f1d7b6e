// How long an answer waits: a fixed delay (`200`), a uniform range (`100-800`) or a named profile
// (`3g`). The same words serve --latency, `Prefer: delay=`, `x-plantstore-latency` and the
// /__mock/ page, so that one reading of them exists.

/** A delay in milliseconds, drawn uniformly from [min, max] (min = max for a fixed one). */
export interface Latency {
  min: number;
  max: number;
  /** As the user wrote it (`3g`, `100-800`), for the page and the log. */
  label: string;
}

/**
 * Named profiles: the round trip a page sees from its API on such a network, taken around Chrome
 * DevTools' throttling presets (Fast 3G adds 562.5 ms per request, Slow 3G 2,000 ms).
 */
export const LATENCY_PROFILES: Record<string, [number, number]> = {
  wifi: [5, 30],
  '4g': [40, 120],
  '3g': [300, 800],
  'slow-3g': [1500, 2500],
};

/** The longest delay anyone can ask for: past it, a client's own time-out is the better tool (`fault=timeout`). */
export const MAX_DELAY_MS = 120_000;

export type LatencyRead = { ok: true; latency: Latency } | { ok: false; message: string };

const HOW =
  `a delay in ms (200), a range (100-800) or a profile (${Object.keys(LATENCY_PROFILES).join(', ')}), at ` +
  `most ${MAX_DELAY_MS} ms`;

/** Reads `200`, `100-800`, `3g` (or a number); says what is wrong otherwise. */
export function parseLatency(input: unknown, where: string): LatencyRead {
  const text =
    typeof input === 'number' ? String(input) : typeof input === 'string' ? input.trim().toLowerCase() : undefined;
  const bad = (): LatencyRead => ({ ok: false, message: `${where}: ${JSON.stringify(input)} is not ${HOW}` });
  if (text === undefined) return bad();
  const profile = LATENCY_PROFILES[text];
  if (profile) return { ok: true, latency: { min: profile[0], max: profile[1], label: text } };
  const match = /^(\d{1,9})(?:\s*-\s*(\d{1,9}))?(?:ms)?$/.exec(text);
  if (!match) return bad();
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : Number(match[2]);
  if (max < min || max > MAX_DELAY_MS) return bad();
  return { ok: true, latency: { min, max, label: min === max ? String(min) : `${min}-${max}` } };
}

/** The delay for a uniform draw `unit` in [0, 1). */
export const delayOf = (latency: Latency, unit: number): number =>
  latency.min + Math.floor(unit * (latency.max - latency.min + 1));
