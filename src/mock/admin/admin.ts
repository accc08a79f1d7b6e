// The admin API under /__mock/, a prefix no document path uses: health, state (inspect, seed,
// reset) and the request journal. Its answers are plain JSON outside the contract.
import { parseJson, type JsonValue } from '../../json/exact-json.ts';
import type { Operation } from '../../document/operations.ts';
import type { Validators } from '../../validation/validator.ts';
import type { HttpRequest } from '../../http/types.ts';
import { textOf } from '../../http/bytes.ts';
import type { Journal } from './journal.ts';
import type { Resource, ResourceBinding } from '../../document/resources.ts';
import { collectionLine } from '../../document/resource-report.ts';
import type { Answers } from '../answer/answers.ts';
import type { Reply } from '../answer/responder.ts';
import type { Webhooks } from '../webhooks.ts';
import type { EngineState } from './state-api.ts';

export const ADMIN_PREFIX = '/__mock/';

export interface AdminContext {
  title: string;
  version: string;
  operations: Operation[];
  bindings: Map<Operation, ResourceBinding>;
  resources: Resource[];
  /** The engine's state: list, seed, reset, tenants (the admin API is a skin over it). */
  state: EngineState;
  journal: Journal;
  webhooks: Webhooks;
  validators: Validators;
  /** Plain JSON answers. */
  answers: Pick<Answers, 'raw'>;
  startedAt: number;
}

/** The admin endpoints and what each does: GET /__mock/ answers with them, and `mock --help` lists them. */
export const ADMIN_ENDPOINTS = {
  'GET /__mock/health': 'liveness and what is loaded',
  'GET /__mock/state[?tenant=HASH]': "every stored resource, by collection (one token's with tenant)",
  'POST /__mock/state[?tenant=HASH]': 'seed resources: {"/plants": [{...}, ...]}',
  'DELETE /__mock/state[?tenant=HASH]': "remove every stored resource (or one token's)",
  'GET /__mock/tenants': 'with --isolate-by token: each token hash and its record count',
  'GET /__mock/webhooks': 'webhook deliveries with their status',
  'GET /__mock/requests?limit=N': 'the newest requests, credentials redacted',
  'DELETE /__mock/requests': 'clear the request journal',
};

/** Answers one admin request. */
export async function handleAdmin(request: HttpRequest, admin: AdminContext): Promise<Reply> {
  const { answers, journal } = admin;
  // HEAD is GET without a body (RFC 9110 §9.3.2); the listener sends no body for it.
  const route = `${request.method === 'HEAD' ? 'GET' : request.method} ${request.path}`;
  const query = new URLSearchParams(request.query);
  // ?tenant=HASH narrows state calls to one token's state (--isolate-by token).
  const tenant = query.get('tenant') ?? undefined;
  if (tenant !== undefined && !/^[0-9a-f]{16}$|^anonymous$/.test(tenant)) {
    return answers.raw(request, 400, {
      error: 400,
      message: 'tenant must be the first 16 hex digits of the SHA-256 of the token (never the token itself)',
    });
  }
  switch (route) {
    case 'GET /__mock/':
      return answers.raw(request, 200, { endpoints: ADMIN_ENDPOINTS });
    case 'GET /__mock/health':
      return answers.raw(request, 200, {
        status: 'ok',
        api: admin.title,
        version: admin.version,
        operations: admin.operations.length,
        // What keeps state, in the words of the start-up lines.
        collections: Object.fromEntries(
          admin.resources.map((r) => [r.collection, collectionLine(r).slice(r.collection.length + 2)]),
        ),
        uptimeSeconds: Math.round((Date.now() - admin.startedAt) / 1000),
      });
    case 'GET /__mock/state':
      return answers.raw(request, 200, { collections: await admin.state.list(tenant) });
    case 'GET /__mock/tenants':
      return answers.raw(request, 200, { tenants: await admin.state.tenants() });
    case 'GET /__mock/webhooks':
      return answers.raw(request, 200, { deliveries: admin.webhooks.deliveries() });
    case 'DELETE /__mock/state':
      await admin.state.reset(tenant);
      return answers.raw(request, 204, undefined);
    case 'POST /__mock/state':
      return seed(request, admin, tenant);
    case 'GET /__mock/requests': {
      const limit = Number(query.get('limit') ?? Number.POSITIVE_INFINITY);
      return answers.raw(request, 200, {
        requests: journal.entries(Number.isFinite(limit) && limit >= 0 ? limit : undefined),
      });
    }
    case 'DELETE /__mock/requests':
      journal.clear();
      return answers.raw(request, 204, undefined);
    default:
      return answers.raw(request, 404, {
        error: 404,
        message: `no admin endpoint ${route}`,
        endpoints: ADMIN_ENDPOINTS,
      });
  }
}

/** POST /__mock/state: the engine's seed, from a JSON body. */
async function seed(request: HttpRequest, admin: AdminContext, tenant: string | undefined): Promise<Reply> {
  const { answers } = admin;
  const parsed = parseJson(textOf(request.body));
  if (!parsed.ok) return answers.raw(request, 400, { error: 400, message: `malformed JSON: ${parsed.message}` });
  const value = parsed.value as Record<string, JsonValue>;
  const collections = value !== null && typeof value === 'object' && 'collections' in value ? value.collections : value;
  const result = await admin.state.seed(collections, tenant);
  return result.ok
    ? answers.raw(request, 201, { seeded: result.seeded })
    : answers.raw(request, result.status, { error: result.status, message: result.message });
}
