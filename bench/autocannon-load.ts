// One phase of load driven by autocannon, kept next to the lean client (http-load-client.ts) so the
// two can be compared (`--generator autocannon`). On a 2-core machine autocannon fills its core at
// ~35k req/s, so its figures for fast servers measure autocannon.
// Latencies are recorded here in full (autocannon's histogram has 1 ms steps, too coarse for a
// p50 under a millisecond), for every answer whatever its status.
import autocannon from 'autocannon';
import type { PhasePlan, PhaseResult } from './load-phase.ts';

export function runAutocannon(plan: PhasePlan): Promise<PhaseResult> {
  const { method, path, headers, body } = plan;
  // A body function goes through setupRequest, called per request: one shared closure, so one
  // counter for all connections.
  const requests = typeof body === 'string' ? [{ method, path, headers, body }] : [{ method, path, headers, setupRequest: (request: object) => ({ ...request, body: body() }) }];
  return new Promise((resolve, reject) => {
    const latencies: number[] = [];
    const perSecond: number[] = [];
    const statuses: Record<string, number> = {};
    const started = performance.now();
    const instance = autocannon({ url: plan.url, connections: plan.connections, duration: plan.seconds, timeout: 10, requests }, (error, result) => {
      if (error) return reject(error);
      const seconds = (performance.now() - started) / 1000;
      // The last bucket is a partial second (autocannon's wind-down): not a rate.
      resolve({ latencies, perSecond: Array.from(perSecond.slice(0, Math.floor(plan.seconds)), (n) => n ?? 0), statuses, lateStatuses: {}, errors: result.errors, timeouts: result.timeouts, seconds });
    });
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      latencies.push(ms);
      const second = Math.floor((performance.now() - started) / 1000);
      perSecond[second] = (perSecond[second] ?? 0) + 1;
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
  });
}
