// One phase of load (a warm-up or a measurement) as every load generator takes and returns it:
// the same request repeated over N keep-alive connections, one in flight each, for a fixed time.
// Shared by the lean client (http-load-client.ts) and autocannon (autocannon-load.ts) so that the
// load generator can switch between them and their figures mean the same thing.

export type GeneratorName = 'plantstore' | 'undici' | 'autocannon';

export interface PhasePlan {
  url: string;
  connections: number;
  seconds: number;
  method: string;
  path: string;
  /** Request headers besides Host and Content-Length, which the generator writes itself. */
  headers: Record<string, string>;
  /** A fixed body, or a function called once per request (e.g. for a fresh id each time). */
  body: string | (() => string);
}

export interface PhaseResult {
  /** One latency per answer received before the deadline, in ms. */
  latencies: number[];
  /** Answers in each whole second of the phase (a trailing partial second is left out). */
  perSecond: number[];
  /** Answers received before the deadline, by status. */
  statuses: Record<string, number>;
  /**
   * Answers to requests still in flight at the deadline, by status: not part of the figures, but
   * the server did the work (a create is stored), so they count in `created`.
   */
  lateStatuses: Record<string, number>;
  errors: number;
  timeouts: number;
  /** Length of the phase the figures cover, in seconds. */
  seconds: number;
}
