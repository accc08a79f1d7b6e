// Every proxy option, resolved once at the boundary (CLI flags or library call).
import { DEFAULT_SPEC_PATH } from '../document/loaded-spec.ts';
import type { LogFormat } from '../mock/options.ts';

export interface ProxyOptions {
  /** The server answers come from: http(s)://host[:port][/base/path]. */
  upstream: string;
  /** Path of the OpenAPI document the exchanges are judged by. */
  spec: string;
  remoteRefs: boolean;
  port: number;
  host: string;
  /** Refuse invalid requests (not forwarded) and turn answers that break the contract into 502s. */
  errors: boolean;
  /** Folder to write each exchange into as a verify fixture; null records nothing. */
  record: string | null;
  /**
   * With `record`: leave out every exchange that had a violation, either way, instead of recording it with comments.
   *
   */
  recordSkipViolations: boolean;
  /**
   * Answer from the stateful mock where the upstream lacks an operation (404, 405, 501 on a documented path, or
   * refused connection).
   */
  mockMissing: boolean;
  /** PEM file of a certificate to trust (a self-signed upstream); null trusts the system's only. */
  ca: string | null;
  /** Milliseconds to the upstream's headers, and between two chunks of its body. */
  timeoutMs: number;
  /**
   * Largest body held and validated, each way; a larger answer streams through unvalidated, a larger request is
   * refused (413).
   */
  maxBodyBytes: number;
  /** Exchanges kept for GET /__mock/requests. */
  journalSize: number;
  logFormat: LogFormat;
  quiet: boolean;
  /** Bearer token the admin API (journal, violations, the mock's state) asks for; as the mock's. */
  adminToken: string | null;
}

export const DEFAULT_PROXY_OPTIONS: Omit<ProxyOptions, 'upstream'> = {
  spec: DEFAULT_SPEC_PATH,
  remoteRefs: false,
  port: 4010,
  host: '127.0.0.1',
  errors: false,
  record: null,
  recordSkipViolations: false,
  mockMissing: false,
  ca: null,
  timeoutMs: 30_000,
  maxBodyBytes: 10 * 1024 * 1024,
  journalSize: 200,
  logFormat: 'text',
  quiet: false,
  adminToken: null,
};

/** Fills every option the caller left out with its default. */
export function resolveProxyOptions(partial: Partial<ProxyOptions> & { upstream: string }): ProxyOptions {
  const options = { ...DEFAULT_PROXY_OPTIONS, upstream: partial.upstream };
  for (const [key, value] of Object.entries(partial)) {
    if (value !== undefined) (options as Record<string, unknown>)[key] = value;
  }
  return options;
}
