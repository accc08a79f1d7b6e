// Webhook delivery (OpenAPI 3.1 `webhooks`, with --webhook-url): a state change is announced to
// the URL as the webhook's request, after the answer to the request that caused it, so a delivery
// never delays or fails that request. Failed deliveries are retried with exponential backoff a
// bounded number of times; GET /__mock/webhooks shows every delivery with its status.
import { stringifyJson, type JsonValue } from '../json/exact-json.ts';
import type { Logger } from '../log/logger.ts';
import { escapePointerToken } from '../document/json-pointer.ts';
import { type LoadedSpec } from '../document/loaded-spec.ts';
import { isJsonMediaType } from '../document/operations.ts';
import { formatIssues, type Validators } from '../validation/validator.ts';
import { afterIO } from '../platform/host.ts';
import type { ResourceBinding, ResourceRole } from '../document/resources.ts';

export interface Delivery {
  id: number;
  webhook: string;
  url: string;
  status: 'pending' | 'delivered' | 'failed' | 'skipped';
  attempts: number;
  lastStatus?: number;
  lastError?: string;
  payload: JsonValue;
}

export interface WebhookOptions {
  url: string | null;
  retries: number;
  /** First retry delay; each further retry waits twice as long. */
  backoffMs: number;
}

interface Webhook {
  name: string;
  method: string;
  schemaPointer?: string;
  mediaType: string;
}

const VERBS: Partial<Record<ResourceRole, string[]>> = {
  create: ['new', 'create', 'created', 'add', 'added'],
  remove: ['delete', 'deleted', 'remove', 'removed'],
  replace: ['update', 'updated', 'change', 'changed', 'modified'],
  merge: ['update', 'updated', 'change', 'changed', 'modified'],
};

export interface Webhooks {
  /** Announces a change; returns at once. */
  announce(binding: ResourceBinding, payload: JsonValue): void;
  deliveries(): Delivery[];
  /** Resolves when no delivery is in flight (tests, shutdown). */
  idle(): Promise<void>;
}

/** Prepares the document's webhooks; announces nothing without --webhook-url. */
export function createWebhooks(
  spec: LoadedSpec,
  validators: Validators,
  logger: Logger,
  options: WebhookOptions,
): Webhooks {
  const declared = readWebhooks(spec);
  const log: Delivery[] = [];
  const inFlight = new Set<Promise<void>>();
  let nextId = 1;
  const byRole = new Map<string, Webhook | undefined>();

  // Name first ("newPlant" for a plant create); for creates, else the one webhook whose schema fits.
  const match = (binding: ResourceBinding, payload: JsonValue): Webhook | undefined => {
    const cacheKey = `${binding.role}\u0000${binding.noun}`;
    if (byRole.has(cacheKey)) return byRole.get(cacheKey);
    const verbs = VERBS[binding.role] ?? [];
    const words = (name: string) =>
      name
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .toLowerCase()
        .split(/[^a-z0-9]+/);
    const named = declared.filter(
      (w) =>
        words(w.name).some((word) => word === binding.noun || word === `${binding.noun}s`) &&
        words(w.name).some((word) => verbs.includes(word)),
    );
    const fitting =
      binding.role === 'create' && named.length === 0
        ? declared.filter((w) => w.schemaPointer && validators.at(w.schemaPointer)(payload).ok)
        : named;
    const found = fitting.length === 1 ? fitting[0] : undefined;
    byRole.set(cacheKey, found);
    return found;
  };

  const deliver = async (delivery: Delivery, webhook: Webhook) => {
    for (let attempt = 1; attempt <= options.retries + 1; attempt++) {
      delivery.attempts = attempt;
      try {
        const answer = await fetch(delivery.url, {
          method: webhook.method,
          headers: {
            'content-type': webhook.mediaType,
            'user-agent': 'plantstore-mock',
            'x-plantstore-webhook': webhook.name,
          },
          body: stringifyJson(delivery.payload),
          signal: AbortSignal.timeout(5_000),
          redirect: 'manual',
        });
        await answer.arrayBuffer().catch(() => undefined);
        delivery.lastStatus = answer.status;
        if (answer.status >= 200 && answer.status < 300) {
          delivery.status = 'delivered';
          return;
        }
        delivery.lastError = `answered ${answer.status}`;
      } catch (error) {
        delivery.lastError = (error as Error).message;
      }
      if (attempt <= options.retries)
        await new Promise((resolve) => setTimeout(resolve, options.backoffMs * 2 ** (attempt - 1)));
    }
    delivery.status = 'failed';
    logger.warn(
      `webhook ${webhook.name} to ${delivery.url} failed after ${delivery.attempts} attempts: ${delivery.lastError}`,
    );
  };

  return {
    announce(binding, payload) {
      if (!options.url || declared.length === 0) return;
      const webhook = match(binding, payload);
      if (!webhook) return;
      const delivery: Delivery = {
        id: nextId++,
        webhook: webhook.name,
        url: options.url,
        status: 'pending',
        attempts: 0,
        payload,
      };
      log.push(delivery);
      if (log.length > 200) log.shift();
      const check = webhook.schemaPointer ? validators.at(webhook.schemaPointer)(payload) : { ok: true as const };
      if (!check.ok) {
        delivery.status = 'skipped';
        delivery.lastError = `payload does not match the webhook's schema: ${formatIssues(check.issues)}`;
        return;
      }
      // After the current answer is written: a delivery never delays the request that caused it.
      const running = new Promise<void>((resolve) => afterIO(resolve)).then(() => deliver(delivery, webhook));
      inFlight.add(running);
      void running.finally(() => inFlight.delete(running));
    },
    deliveries: () => [...log],
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

function readWebhooks(spec: LoadedSpec): Webhook[] {
  const out: Webhook[] = [];
  for (const [name, item] of Object.entries(spec.document.webhooks ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, unknown>)) {
      const content = ((operation as { requestBody?: { content?: Record<string, { schema?: unknown }> } })?.requestBody
        ?.content ?? {}) as Record<string, { schema?: unknown }>;
      const mediaType = Object.keys(content).find(isJsonMediaType);
      if (!mediaType || typeof operation !== 'object') continue;
      out.push({
        name,
        method: method.toUpperCase(),
        mediaType,
        schemaPointer:
          content[mediaType].schema === undefined
            ? undefined
            : `#/webhooks/${escapePointerToken(name)}/${method}/requestBody/content/` +
              `${escapePointerToken(mediaType)}/schema`,
      });
    }
  }
  return out;
}
