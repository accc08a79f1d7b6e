import { loadSpec } from '../../src/document/load-spec.ts';
import { type LoadedSpec } from '../../src/document/loaded-spec.ts';
import { createMockEngine, type MockEngine } from '../../src/mock/engine.ts';
import type { MockOptions } from '../../src/mock/options.ts';
import type { HttpRequest } from '../../src/http/types.ts';
import { parseJson, type JsonValue } from '../../src/json/exact-json.ts';

/** A token no log, journal or report may ever show. */
export const CANARY = 'canary-7f3a9c1e5b2d';

let plantSpec: Promise<LoadedSpec> | undefined;
export const builtInSpec = () => (plantSpec ??= loadSpec());

export async function plantEngine(options: Partial<MockOptions> = {}, spec?: LoadedSpec): Promise<MockEngine> {
  return createMockEngine({ spec: spec ?? (await builtInSpec()), options });
}

export function request(partial: Partial<HttpRequest> & { json?: unknown }): HttpRequest {
  const { json, ...rest } = partial;
  return {
    method: 'POST',
    path: '/plants',
    query: '',
    headers: { authorization: `Bearer ${CANARY}`, 'content-type': 'application/json', ...(partial.headers ?? {}) },
    body: json === undefined ? (rest.body ?? '') : typeof json === 'string' ? json : JSON.stringify(json),
    ...Object.fromEntries(Object.entries(rest).filter(([k]) => k !== 'headers' && k !== 'body')),
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text?: string;
  /** The body as bytes, for binary answers. */
  bytes?: Buffer;
  json?: JsonValue;
}

/** Sends a request through the engine and parses the answer exactly. */
export async function send(engine: MockEngine, partial: Partial<HttpRequest> & { json?: unknown }): Promise<Answer> {
  const response = await engine.handle(request(partial));
  const bytes = response.body === undefined ? undefined : Buffer.from(response.body);
  const text = typeof response.body === 'string' ? response.body : bytes?.toString('utf8');
  const parsed = text === undefined ? undefined : parseJson(text);
  return {
    status: response.status,
    headers: response.headers,
    text,
    bytes,
    json: parsed?.ok ? parsed.value : undefined,
  };
}

/** POST /plants with a raw JSON text body (exact digits, as a client would send them). */
export const createPlant = (engine: MockEngine, body: string, headers: Record<string, string | undefined> = {}) =>
  send(engine, { body, headers });
