// Every mock option, resolved once at the boundary (CLI flags or library call) into one typed
// object; the engine never checks for undefined.
import type { LogFormat } from '../log/logger.ts';
import type { Latency } from './answer/latency.ts';

export { LOG_FORMATS, type LogFormat } from '../log/logger.ts';
import { DEFAULT_SPEC_PATH, defaultStateBytes } from '../platform/host.ts';

export const ISOLATION_MODES = ['none', 'token'] as const;
export type IsolationMode = (typeof ISOLATION_MODES)[number];
/** How an absent item is answered where its operation declares no 404: from the document, or with an undeclared 404. */
export const ABSENT_ITEM_MODES = ['document', '404'] as const;
export type AbsentItemMode = (typeof ABSENT_ITEM_MODES)[number];

export interface MockOptions {
  /** Path of the OpenAPI document. */
  spec: string;
  /** Follow `$ref`s to http(s) URLs. */
  remoteRefs: boolean;
  /** Refuse a document the loader has warnings about. */
  strictSpec: boolean;
  port: number;
  host: string;
  /** Accepted bearer tokens; empty means any well-formed token is accepted. */
  tokens: string[];
  cors: boolean;
  /** Answer every error with a status the operation declares. */
  declaredOnly: boolean;
  /** 'document': an absent item of an operation without a 404 gets its lowest 2xx; '404': an undeclared 404. */
  absentItems: AbsentItemMode;
  /** Seed for generated (dynamic) response bodies. */
  seed: number;
  logFormat: LogFormat;
  /** No request lines (warnings and errors still go out). */
  quiet: boolean;
  /** How many requests the journal keeps. */
  journalSize: number;
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: number;
  /** Deepest JSON nesting accepted in a request body. */
  maxDepth: number;
  /**
   * How much the stored records may weigh, in bytes, reckoned as their JSON texts and keys plus
   * 32 bytes each (~80 bytes for a small plant): a create past it is refused (400 here).
   */
  maxStateBytes: number;
  /** Append-only file that keeps state across restarts; null keeps state in memory only. */
  stateFile: string | null;
  /** redis://host:port/db: every record in Redis, shared by every mock on it; null keeps state in this process. */
  stateUrl: string | null;
  /**
   * A further namespace for the Redis keys (beside the document's hash): several mocks of one document on one Redis,
   * apart.
   */
  statePrefix: string | null;
  /** 'token': each bearer token gets its own state. */
  isolateBy: IsolationMode;
  /** Where to deliver the document's webhooks; null delivers none. */
  webhookUrl: string | null;
  /** Retries of a failed delivery (with doubling backoff from webhookBackoffMs). */
  webhookRetries: number;
  webhookBackoffMs: number;
  /** Milliseconds a client has to send its headers, and its whole request. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Most connections open at once; a connection past it is closed at once. */
  maxConnections: number;
  /** Serve the admin API under /__mock/ at all. */
  admin: boolean;
  /**
   * The bearer token the admin API asks for; null leaves it open on loopback and locks it (401)
   * on any other address, where anyone on the network could read, seed or wipe the state.
   */
  adminToken: string | null;
  /** Every answer's delay (--latency 200, 100-800, 3g), or null for none. */
  latency: Latency | null;
  /**
   * The share of requests, 0 to 1, answered with a random fault (a declared 5xx or 429, or a socket fault), drawn by
   * seed.
   */
  faultRate: number;
  /** Reload the document, and the files it refers to, when they change. */
  watch: boolean;
}

export const DEFAULT_MOCK_OPTIONS: MockOptions = {
  spec: DEFAULT_SPEC_PATH,
  remoteRefs: false,
  strictSpec: false,
  port: 4010,
  host: '127.0.0.1',
  tokens: [],
  cors: true,
  declaredOnly: false,
  absentItems: 'document',
  seed: 1,
  logFormat: 'text',
  quiet: false,
  journalSize: 200,
  maxBodyBytes: 1024 * 1024,
  maxDepth: 64,
  maxStateBytes: defaultStateBytes(),
  stateFile: null,
  stateUrl: null,
  statePrefix: null,
  isolateBy: 'none',
  webhookUrl: null,
  webhookRetries: 3,
  webhookBackoffMs: 500,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 10_000,
  // Far above what a test suite or a load test opens, far below what exhausts memory or file
  // descriptors (each idle connection costs a few KB and one descriptor).
  maxConnections: 1024,
  admin: true,
  adminToken: null,
  latency: null,
  faultRate: 0,
  watch: false,
};

/** Fills every option the caller left out with its default. */
export function resolveMockOptions(partial: Partial<MockOptions> = {}): MockOptions {
  const options = { ...DEFAULT_MOCK_OPTIONS };
  for (const [key, value] of Object.entries(partial)) {
    if (value !== undefined) (options as Record<string, unknown>)[key] = value;
  }
  return options;
}
