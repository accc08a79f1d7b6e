// One phase of load driven by undici (`--generator undici`), the project's HTTP client, at its
// lowest level: one undici Client per connection (pipelining 1, so one request in flight each),
// each request a Client.dispatch() with a plain handler, so no Readable body or promise per
// request. Same semantics as the lean client (http-load-client.ts): no request after the deadline;
// answers still in flight then are awaited briefly and counted as late, not in the figures.
// Why it is not the default: measured against the bare baseline, alternating with the lean client
// (2 runs each, 5 s, 50 connections), undici cost 27.8-28.7 us of its core per request and ran it
// at 88-91% for 30-33k req/s, the lean client 14.8-16.5 us at 48-55%: undici would cap the load
// at ~35k req/s, below what the mock and the baseline answer in this machine's calm phases.
import { Client } from 'undici';
import type { Dispatcher } from 'undici';
import { createPhaseRecorder, type PhasePlan, type PhaseResult } from './load-phase.ts';

const TIMEOUT_MS = 10_000;
const GRACE_MS = 1_000;

export function runUndici(plan: PhasePlan): Promise<PhaseResult> {
  const { origin } = new URL(plan.url);
  let errors = 0;
  let timeouts = 0;
  const phase = createPhaseRecorder(plan);
  const { deadline, over } = phase;
  const clients = Array.from({ length: plan.connections }, () => new Client(origin, { pipelining: 1, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS }));
  let inFlight = 0;

  return new Promise((resolve) => {
    let finished = false;
    let grace: NodeJS.Timeout | undefined;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(end);
      clearTimeout(grace);
      for (const client of clients) void client.destroy().catch(() => undefined);
      resolve(phase.result(errors, timeouts));
    };
    const send = (client: Client) => {
      if (over()) {
        if (phase.stopping && inFlight === 0) finish();
        return;
      }
      const body = typeof plan.body === 'string' ? plan.body : plan.body();
      const sentAt = performance.now();
      let status = 0;
      inFlight++;
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart() {}, // undici 8 refuses a handler without it ("invalid onRequestStart method")
        onResponseStart(_controller, statusCode) {
          status = statusCode;
        },
        onResponseData() {},
        onResponseEnd() {
          inFlight--;
          phase.answer(status, sentAt);
          send(client);
        },
        onResponseError(_controller, error) {
          inFlight--;
          if (performance.now() < deadline) {
            if ((error as { code?: string }).code === 'UND_ERR_HEADERS_TIMEOUT' || (error as { code?: string }).code === 'UND_ERR_BODY_TIMEOUT') timeouts++;
            else errors++;
          }
          setImmediate(send, client); // not from inside dispatch(), which may fail synchronously
        },
      };
      client.dispatch({ origin, method: plan.method, path: plan.path, headers: plan.headers, body }, handler);
    };
    const end = setTimeout(() => {
      phase.stop();
      if (inFlight === 0) finish();
      else grace = setTimeout(finish, GRACE_MS);
    }, plan.seconds * 1000);
    for (const client of clients) send(client);
  });
}
