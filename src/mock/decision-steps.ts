// The steps of deciding that wait or run again, beside the engine's synchronous path: a request
// with an Idempotency-Key (idempotency.ts), and any request on a store across a socket (Redis),
// which is decided against an optimistic view and committed in one checked step
// (optimistic-view.ts). The engine calls one of these only when it applies; the in-memory
// request without a key never comes here.
import { preferDeclared } from '../document/operations.ts';
import { MAX_DECISION_RUNS, optimisticView, Suspended } from '../state/optimistic-view.ts';
import { scopedStore } from '../state/scoped-store.ts';
import { StateUnavailableError } from '../state/state-unavailable.ts';
import type { StateStore } from '../state/store.ts';
import type { Admitted, Answers, Decision, Eventually, StateReply } from './answer/answers.ts';
import { INVALID } from './answer/declared-answers.ts';
import type { Preferences } from './answer/forced-response.ts';
import type { Reply } from './answer/responder.ts';
import { keep, release, reserve, type IdempotencyKey, type Reserved } from './idempotency.ts';

export interface DecisionStepsSetup {
  answers: Answers;
  /** The engine's whole store. */
  store: StateStore;
  /** The request's tenant (--isolate-by token), or undefined. */
  tenantFor(request: Admitted['request']): string | undefined;
  /** One tenant's view of the store, kept per tenant (its deleted keys are kept under it). */
  tenantStore(tenant: string | undefined): StateStore;
  /** Announces what a reply changed to the webhooks. */
  announced(reply: StateReply): StateReply;
}

/** The decision steps of one engine. */
export function createDecisionSteps({ answers, store, tenantFor, tenantStore, announced }: DecisionStepsSetup) {
  /**
   * A request with an Idempotency-Key (idempotency.ts): a repeat gets the kept answer, and a new
   * key is reserved in the same step as the decision and keeps the answer it led to.
   */
  function decideOnce(
    admitted: Admitted,
    own: StateStore,
    preferences: Preferences | undefined,
    key: IdempotencyKey,
  ): Eventually<Reply> {
    if (!key.ok) return notOnce(admitted, key);
    const reserved = reserve(own, key);
    if (reserved.kind !== 'reserved' && reserved.kind !== 'unkept') return notOnce(admitted, key, reserved);
    const kept = (reply: StateReply) => {
      if (reserved.kind === 'reserved') keep(own, key, reply.response);
      const durable = own.flush();
      return durable ? durable.then(() => announced(reply)) : announced(reply);
    };
    const failed = (error: unknown): never => {
      if (reserved.kind === 'reserved') release(own, key);
      throw error;
    };
    let decided: Eventually<StateReply>;
    try {
      decided = answers.decide(admitted, own, preferences);
    } catch (error) {
      return failed(error);
    }
    return decided instanceof Promise ? decided.then(kept, failed) : kept(decided);
  }

  /** A key that is refused, or a repeat: the kept answer, or why the request is not answered again. */
  function notOnce(admitted: Admitted, key: IdempotencyKey, reserved?: Reserved): Reply {
    const { request, operation } = admitted;
    if (!key.ok) return answers.error(request, operation, preferDeclared(operation, INVALID), key.message);
    switch (reserved?.kind) {
      case 'replay':
        return { response: reserved.response, operation };
      case 'mismatch':
        return answers.error(
          request,
          operation,
          preferDeclared(operation, [422, 409, 400]),
          `the Idempotency-Key ${key.key} was sent before with another request; a new request needs a new key`,
        );
      default:
        return answers.error(
          request,
          operation,
          409,
          `a request with the Idempotency-Key ${key.key} is still being answered; retry once it is`,
          { 'retry-after': '1' },
        );
    }
  }

  /**
   * The decision on a shared store (Redis): made against a view of it, synchronously, then
   * committed in one checked step, and made again when the state changed meanwhile or a read had
   * to be loaded first (optimistic-view.ts). The answer is written once, from the committed decision.
   */
  async function decideShared(
    admitted: Admitted,
    preferences: Preferences | undefined,
    key: IdempotencyKey | undefined,
  ): Promise<Reply> {
    if (key !== undefined && !key.ok) return notOnce(admitted, key);
    const tenant = tenantFor(admitted.request);
    const view = optimisticView(store.shared!, store);
    const own = tenant === undefined ? view : { ...scopedStore(view, tenant), identity: tenantStore(tenant) };
    const settle = async (step: () => Eventually<void>) => {
      for (let run = 0; run < MAX_DECISION_RUNS; run++) {
        view.again();
        try {
          await step();
        } catch (error) {
          if (!(error instanceof Suspended)) throw error;
          await view.load(error.read);
          continue;
        }
        if (await view.commit()) return;
      }
      throw new StateUnavailableError(
        `the mock's state changed under this request ${MAX_DECISION_RUNS} times in a row; try again shortly`,
      );
    };
    let reserved: Reserved | undefined;
    let decision: Decision | undefined;
    await settle(async () => {
      if (key !== undefined) {
        reserved = reserve(own, key);
        if (reserved.kind !== 'reserved' && reserved.kind !== 'unkept') return;
      }
      decision = await answers.decision(admitted, own, preferences);
    });
    if (key !== undefined && reserved!.kind !== 'reserved' && reserved!.kind !== 'unkept')
      return notOnce(admitted, key, reserved);
    try {
      const reply = await answers.reply(admitted.request, decision!);
      if (key !== undefined && reserved!.kind === 'reserved') await settle(() => keep(own, key, reply.response));
      return announced(reply);
    } catch (error) {
      if (key !== undefined && reserved!.kind === 'reserved') await settle(() => release(own, key)).catch(() => {});
      throw error;
    }
  }

  return { once: decideOnce, shared: decideShared };
}
