// The steps of deciding that keep or run again, beside the engine's own: a request with an
// Idempotency-Key (idempotency.ts), whose key is reserved before the decision and keeps the
// answer after it, and any request on a store across a socket (Redis), which is decided against an
// optimistic view and committed in one checked step (optimistic-view.ts). The engine calls one of
// these only when it applies; the in-memory request without a key never comes here.
import { preferDeclared } from '../document/operations.ts';
import { MAX_DECISION_RUNS, optimisticView, Suspended } from '../state/optimistic-view.ts';
import { scopedStore } from '../state/scoped-store.ts';
import { StateUnavailableError } from '../state/state-unavailable.ts';
import type { StateStore } from '../state/store.ts';
import type { Admitted, Answers, Decision, StateReply } from './answer/answers.ts';
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

/** What a request with a key gets before it is decided: its key reserved (or left unkept), or its answer now. */
export type Once = { kind: 'reserved' } | { kind: 'unkept' } | { kind: 'answered'; reply: Reply };

/** The decision steps of one engine. */
export function createDecisionSteps({ answers, store, tenantFor, tenantStore, announced }: DecisionStepsSetup) {
  /**
   * A request with an Idempotency-Key (idempotency.ts): a repeat gets the kept answer, and a new
   * key is reserved in the same synchronous step as the decision that follows, then keeps the
   * answer it led to (`kept`), or is released when deciding fails (`release`).
   */
  function reserveOnce(admitted: Admitted, own: StateStore, key: IdempotencyKey): Once {
    if (!key.ok) return { kind: 'answered', reply: notOnce(admitted, key) };
    const reserved = reserve(own, key);
    if (reserved.kind === 'reserved' || reserved.kind === 'unkept') return reserved;
    return { kind: 'answered', reply: notOnce(admitted, key, reserved) };
  }

  /** The answer a reserved key keeps; resolves once the key and the state are durable (a state file). */
  function kept(own: StateStore, key: IdempotencyKey, once: Once, reply: Reply): Promise<void> | undefined {
    if (once.kind === 'reserved' && key.ok) keep(own, key, reply.response);
    return own.flush();
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
    const settle = async (step: () => unknown) => {
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
    // What deciding needs loaded is loaded first: a step of the view is run again, never waited in.
    await answers.ready(admitted, preferences);
    await settle(async () => {
      if (key !== undefined) {
        reserved = reserve(own, key);
        if (reserved.kind !== 'reserved' && reserved.kind !== 'unkept') return;
      }
      decision = answers.decision(admitted, own, preferences);
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

  return {
    reserve: reserveOnce,
    kept,
    /** Frees a reserved key whose request failed before it was answered. */
    release(own: StateStore, key: IdempotencyKey) {
      if (key.ok) release(own, key);
    },
    shared: decideShared,
  };
}
