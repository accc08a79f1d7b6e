// What stands between the socket and the engine: the latency and faults a request gets
// (unhappy-path.ts), the /__mock/ page and its switches (mock-page.ts), and the engine of the
// document now loaded (a --watch reload swaps it whole: a request keeps the engine it started
// with). A request that asks for none of it, on a mock started without --latency, --fault-rate or
// any switch, goes straight to the engine: one test of a header and the query.
import type { Logger } from '../log/logger.ts';
import type { HttpRequest, HttpAnswer } from '../http/types.ts';
import type { MockEngine, Eventually } from './engine.ts';
import type { UnhappyPath, Plan } from './answer/unhappy-path.ts';
import { needsAnswer, type Fault } from './answer/faults.ts';
import { ADMIN_PREFIX } from './admin/admin.ts';
import type { JournalRecord } from './admin/journal.ts';

/** The engine and planner of the document now loaded, swapped together by a reload. */
export interface Loaded {
  engine: MockEngine;
  unhappy: UnhappyPath;
}

export interface EdgeSetup {
  loaded: () => Loaded;
  logger: Logger;
  /** The /__mock/ page and its switches, or undefined (--no-admin). */
  page?: (request: HttpRequest, loaded: Loaded) => Eventually<HttpAnswer> | undefined;
  /** Journal admin calls? No: they would crowd out the API's traffic. */
  journalSize: number;
}

export interface Edge {
  handle(request: HttpRequest): Eventually<HttpAnswer>;
  /** Ends every delay still waiting: their answers go out now (the mock is stopping). */
  stop(): void;
}

export function createEdge(setup: EdgeSetup): Edge {
  const { logger } = setup;
  const waiting = new Set<{ timer: NodeJS.Timeout; go: () => void }>();
  let stopped = false;

  // A timer per delayed request, never a loop: other requests are answered meanwhile.
  const wait = (ms: number) =>
    stopped || ms <= 0
      ? undefined
      : new Promise<void>((resolve) => {
          const entry = {
            timer: setTimeout(() => {
              waiting.delete(entry);
              resolve();
            }, ms),
            go: resolve,
          };
          waiting.add(entry);
        });

  const note = (request: HttpRequest, plan: Plan, status: number, problems: string[], fault?: Fault) =>
    noteUnanswered(setup.loaded().engine, logger, setup.journalSize, request, plan, status, problems, fault);

  async function unhappily(request: HttpRequest, engine: MockEngine, plan: Plan): Promise<HttpAnswer> {
    if (!plan.ok) {
      note(request, plan, 400, [plan.message]);
      return {
        status: 400,
        headers: { 'content-type': engine.errorType(400) },
        body: engine.errorBody(400, plan.message),
      };
    }
    await wait(plan.delayMs);
    const { fault } = plan;
    if (fault === undefined) return engine.handle(request);
    if (!needsAnswer(fault)) {
      note(request, plan, 0, [`fault: ${fault.kind}, asked by ${fault.by}`], fault);
      return { status: 0, headers: {}, fault: fault.kind as HttpAnswer['fault'] };
    }
    const answer = await engine.handle({ ...request, fault });
    if (fault.kind !== 'status') return { ...answer, fault: fault.kind };
    // RFC 6585 §4: a 429 may say when to come back; a client's retry logic reads it.
    if (answer.status === 429 && !Object.keys(answer.headers).some((name) => name.toLowerCase() === 'retry-after'))
      return { ...answer, headers: { ...answer.headers, 'retry-after': '1' } };
    return answer;
  }

  return {
    handle(request) {
      const loaded = setup.loaded();
      if (setup.page && request.path.startsWith(ADMIN_PREFIX)) {
        const page = setup.page(request, loaded);
        if (page !== undefined) return page;
        return loaded.engine.handle(request);
      }
      const plan = loaded.unhappy.plan(request);
      if (plan === undefined) return loaded.engine.handle(request);
      return unhappily(request, loaded.engine, plan);
    },
    stop() {
      stopped = true;
      for (const entry of waiting) {
        clearTimeout(entry.timer);
        entry.go();
      }
      waiting.clear();
    },
  };
}

/** A request answered outside the engine (a refused ask, a socket fault): logged and journaled as the engine does. */
export function noteUnanswered(
  engine: MockEngine,
  logger: Logger,
  journalSize: number,
  request: HttpRequest,
  plan: Plan,
  status: number,
  problems: string[],
  fault?: Fault,
): void {
  const noted: JournalRecord = {
    time: Date.now(),
    method: request.method,
    path: request.path,
    query: request.query,
    status,
    durationMs: 0,
    operationId: plan.operation?.id,
    headers: request.headers,
    problems,
    ...(fault ? { fault } : {}),
  };
  logger.request(noted);
  if (journalSize !== 0) engine.journal.add(noted);
}
