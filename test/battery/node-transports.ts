// The battery's transports in Node: the HTTP mock on a real port (admin calls through /__mock/),
// and the MSW handlers behind msw/node's setupServer (admin calls through handlers.state and
// handlers.journal). Both send with the platform's fetch, as a frontend would.
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { resolve } from 'node:path';
import { parseJson, stringifyJson, type JsonValue } from '../../src/json/exact-json.ts';
import { createHandlers, type CreateHandlersOptions, type PlantstoreHandlers } from '../../src/msw/handlers.ts';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import type {
  BatteryJournalEntry,
  BatteryRequest,
  BatteryResponse,
  BatterySuite,
  BatteryTransport,
} from './contract-battery.ts';

/** A header no real answer carries: the fallback handler marks what the mock's handlers left alone. */
const UNHANDLED = 'x-battery-unhandled';

/** A battery request sent with the platform's fetch, the answer read whole. */
export async function fetchAnswer(base: string, request: BatteryRequest): Promise<BatteryResponse> {
  const url = `${base}${request.path}${request.query ? `?${request.query}` : ''}`;
  const response = await fetch(url, {
    method: request.method,
    headers: request.headers ?? {},
    // Bytes, not a string: fetch then adds no Content-Type of its own.
    body: request.body === undefined ? undefined : new TextEncoder().encode(request.body),
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const unhandled = headers[UNHANDLED] === '1';
  return {
    status: response.status,
    headers,
    text: new TextDecoder().decode(bytes),
    bytes,
    ...(unhandled ? { unhandled } : {}),
  };
}

/** Exact JSON of an admin answer, or a thrown error that quotes it. */
export const exact = (text: string): JsonValue => {
  const parsed = parseJson(text);
  if (!parsed.ok) throw new Error(`not JSON: ${parsed.message}: ${text.slice(0, 200)}`);
  return parsed.value;
};

export interface HttpBattery {
  transport: BatteryTransport;
  mock: MockServer;
  close(): Promise<void>;
}

/** `plantstore mock` for a suite, on a free port. */
export async function httpBattery(suite: BatterySuite): Promise<HttpBattery> {
  const mock = await startMockServer({ spec: resolve(suite.document), port: 0, ...suite.options });
  const admin = (method: string, path: string, body?: string) =>
    fetch(`${mock.url}/__mock/${path}`, {
      method,
      body,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
    });
  const transport: BatteryTransport = {
    kind: 'http',
    send: (request) => fetchAnswer(mock.url, request),
    async seed(collectionsJson) {
      const answer = await admin('POST', 'state', collectionsJson);
      const text = await answer.text();
      return answer.status === 201
        ? { ok: true }
        : { ok: false, message: String((exact(text) as { message?: unknown }).message) };
    },
    async state() {
      const { collections } = exact(await (await admin('GET', 'state')).text()) as { collections: JsonValue };
      return stringifyJson(collections);
    },
    async reset() {
      await admin('DELETE', 'state');
      await admin('DELETE', 'requests');
    },
    async journal() {
      return (JSON.parse(await (await admin('GET', 'requests')).text()) as { requests: BatteryJournalEntry[] })
        .requests;
    },
  };
  return { transport, mock, close: () => mock.close() };
}

export interface MswBattery {
  transport: BatteryTransport;
  handlers: PlantstoreHandlers;
  server: ReturnType<typeof setupServer>;
  close(): void;
}

/**
 * createHandlers for a suite behind setupServer; `base` is where the transport sends (the
 * handlers' baseUrl, with an origin when that is a path). A handler after the mock's answers
 * what they leave alone, as another handler of the application would.
 */
export async function mswBattery(
  suite: BatterySuite,
  spec: CreateHandlersOptions['spec'],
  base: string,
  extra: Omit<CreateHandlersOptions, 'spec'> = {},
): Promise<MswBattery> {
  const handlers = await createHandlers({ spec, ...suite.options, ...extra });
  const fallback = http.all('*', () => new Response(null, { status: 599, headers: { [UNHANDLED]: '1' } }));
  const server = setupServer(...handlers, fallback);
  server.listen({ onUnhandledRequest: 'error' });
  const transport: BatteryTransport = {
    kind: 'msw',
    send: (request) => fetchAnswer(base, request),
    async seed(collectionsJson) {
      try {
        await handlers.state.seed(exact(collectionsJson) as Record<string, JsonValue[]>);
        return { ok: true };
      } catch (error) {
        return { ok: false, message: (error as Error).message };
      }
    },
    state: async () => stringifyJson(handlers.state.list()),
    async reset() {
      await handlers.state.reset();
      handlers.journal.clear();
    },
    journal: async () => handlers.journal.list(),
  };
  return { transport, handlers, server, close: () => server.close() };
}

/** Web Storage in memory, for the persisted runs. */
export function memoryStorage(): {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
} {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}
