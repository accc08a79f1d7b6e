// One phase of load (a warm-up or a measurement) as every load generator takes and returns it:
// the same request repeated over N keep-alive connections, one in flight each, for a fixed time.
// Shared by the lean client (http-load-client.ts), undici (undici-load.ts) and autocannon
// (autocannon-load.ts) so that the load generator can switch between them and their figures mean
// the same thing; the first two also share the phase's bookkeeping (createPhaseRecorder).

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

/** What every driver keeps during a phase: the clock, the deadline, and the answers counted. */
export interface PhaseRecorder {
  /** performance.now() at which the phase ends. */
  readonly deadline: number;
  /**
   * No request after the deadline: checked against the clock on every answer (the deadline timer
   * may run late on a busy loop) and by the flag stop() sets (the timer may also run early).
   */
  over(): boolean;
  /** Called by the deadline timer. */
  stop(): void;
  readonly stopping: boolean;
  /** An answer to a request sent at `sentAt`: in the figures before the deadline, late after it. */
  answer(status: number, sentAt: number): void;
  result(errors: number, timeouts: number): PhaseResult;
}

export function createPhaseRecorder(plan: PhasePlan): PhaseRecorder {
  const latencies: number[] = [];
  const perSecond = new Array<number>(Math.ceil(plan.seconds)).fill(0);
  const statuses = new Uint32Array(1000);
  const late = new Uint32Array(1000);
  const started = performance.now();
  const deadline = started + plan.seconds * 1000;
  let stopping = false;
  const counts = (byStatus: Uint32Array): Record<string, number> => {
    const out: Record<string, number> = {};
    byStatus.forEach((n, status) => {
      if (n > 0) out[status] = n;
    });
    return out;
  };
  return {
    deadline,
    over: () => stopping || performance.now() >= deadline,
    stop() {
      stopping = true;
    },
    get stopping() {
      return stopping;
    },
    answer(status, sentAt) {
      const now = performance.now();
      if (now < deadline) {
        statuses[status]++;
        latencies.push(now - sentAt);
        perSecond[Math.floor((now - started) / 1000)]++;
      } else late[status]++;
    },
    result: (errors, timeouts) => ({
      latencies,
      perSecond: perSecond.slice(0, Math.floor(plan.seconds)),
      statuses: counts(statuses),
      lateStatuses: counts(late),
      errors,
      timeouts,
      seconds: plan.seconds,
    }),
  };
}
