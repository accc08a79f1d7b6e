// Sends one probe and reads the whole answer, within a deadline: a server that hangs is a miss,
// never a hung harness.
import { request } from 'undici';
import type { Answer } from './judge.ts';
import type { ProbeRequest } from './probe-request.ts';

export const PROBE_TIMEOUT_MS = 10_000;

/** An answer, with its Location header (the state stage finds a created item's id there). */
export type SentAnswer = Answer & { location?: string };

export async function send(base: string, probe: ProbeRequest): Promise<SentAnswer | { error: string }> {
  try {
    // Concatenated, not new URL(target, base): a path such as `//x` must not become a host.
    const answer = await request(`${base}${probe.target}`, {
      method: probe.method,
      headers: probe.headers,
      body: probe.body,
      headersTimeout: PROBE_TIMEOUT_MS,
      bodyTimeout: PROBE_TIMEOUT_MS,
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    const body = Buffer.from(await answer.body.arrayBuffer());
    const type = answer.headers['content-type'];
    const location = answer.headers.location;
    return {
      status: answer.statusCode,
      contentType: Array.isArray(type) ? type[0] : type,
      body,
      location: Array.isArray(location) ? location[0] : location,
    };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}
