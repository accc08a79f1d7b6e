// Every verify option, resolved once at the boundary (CLI flags, env, or a library call) into
// one typed object; the runner never checks for undefined below this point.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PlantstoreError } from '../errors.ts';
import { DEFAULT_SPEC_PATH } from '../document/loaded-spec.ts';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS } from './defaults.ts';
import { DEFAULT_FIXTURES_DIR } from './load-fixtures.ts';
import type { ReporterName } from './reporters/index.ts';
import { parseShard, type Shard } from './shard.ts';

/** Where a reporter writes: a stream (the console), or a file written when the run ends. */
export type ReporterTarget =
  | {
      name: ReporterName;
      stream: { write(chunk: string): unknown; isTTY?: boolean };
      color?: boolean;
      progress?: boolean;
    }
  | { name: ReporterName; file: string };

export interface VerifyOptions {
  /** Base URL of the server under test; fixture paths are appended to it. */
  target: string;
  /** Bearer token for {{token}}; never written to any report. */
  token?: string;
  spec: string;
  /** Follow the document's `$ref`s to http(s) URLs (--remote-refs). */
  remoteRefs: boolean;
  /** Fixture files and folders. Default: the shipped Plant Store fixtures with the built-in document, else none. */
  fixtures: string[];
  /** Valid generated bodies per operation, and sequences per collection (0: no generated cases). */
  generate: number;
  /** Hostile requests per operation beside the valid ones (default: the --generate count; 0: none). */
  hostile: number;
  /** Stop starting cases after this many ms; the cases not started are skipped (0: no limit). */
  timeLimitMs: number;
  /** An answer slower than this many ms fails its case (0: not checked). */
  maxResponseTimeMs: number;
  /** Shrink each distinct failure to the smallest request that still shows it. */
  shrink: boolean;
  seed: number;
  /** Deadline per request, connecting to last body byte. */
  timeoutMs: number;
  /** Largest response body read; larger is a failure. */
  maxResponseBytes: number;
  concurrency: number;
  /** Stop starting cases after the first failure. */
  bail: boolean;
  /** Run only cases whose name or id contains one of these (case-insensitive). */
  filter: string[];
  /** Extra request headers (names in any case). */
  headers: Record<string, string>;
  /** Credentials of generated requests by security scheme name (--auth NAME=VALUE); redacted like the token. */
  auth: Record<string, string>;
  /** PEM file of certificates to trust (a self-signed server). */
  ca?: string;
  /** Off-contract statuses (401, 404, 405, 415) fail instead of warn. */
  strict: boolean;
  reporters: ReporterTarget[];
  /** Base of {{uniqueId}}; by default derived from the clock, so runs do not collide. */
  uniqueIdBase?: bigint;
  /** Run only this part of the cases (--shard i/n, shard.ts). */
  shard?: Shard;
}

export type VerifyInput = Partial<VerifyOptions> & { target: string };

export interface ResolvedVerifyOptions extends VerifyOptions {
  targetUrl: URL;
  /** The contents of the --ca file. */
  caPem?: string;
  uniqueIdBase: bigint;
}

export { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS } from './defaults.ts';

/** Fills defaults and checks every option; a bad one is a USAGE error naming the fix. */
export function resolveVerifyOptions(input: VerifyInput): ResolvedVerifyOptions {
  const spec = input.spec ?? DEFAULT_SPEC_PATH;
  const usesBuiltIn = resolve(spec) === resolve(DEFAULT_SPEC_PATH);
  const options: VerifyOptions = {
    target: input.target,
    token: input.token === '' ? undefined : input.token,
    spec,
    remoteRefs: input.remoteRefs ?? false,
    fixtures: input.fixtures ?? (usesBuiltIn ? [DEFAULT_FIXTURES_DIR] : []),
    generate: input.generate ?? 0,
    hostile: input.hostile ?? input.generate ?? 0,
    timeLimitMs: input.timeLimitMs ?? 0,
    maxResponseTimeMs: input.maxResponseTimeMs ?? 0,
    shrink: input.shrink ?? true,
    seed: input.seed ?? 1,
    timeoutMs: input.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxResponseBytes: input.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    concurrency: input.concurrency ?? 1,
    bail: input.bail ?? false,
    filter: input.filter ?? [],
    headers: input.headers ?? {},
    auth: input.auth ?? {},
    ca: input.ca,
    strict: input.strict ?? false,
    reporters: input.reporters ?? [],
    shard: input.shard && parseShard(`${input.shard.index}/${input.shard.count}`),
  };
  let targetUrl: URL;
  try {
    targetUrl = new URL(options.target);
  } catch {
    throw usage(
      `--target ${JSON.stringify(options.target)} is not a URL`,
      'Give the base URL of the server, e.g. --target http://127.0.0.1:4010',
    );
  }
  if (targetUrl.protocol !== 'http:' && targetUrl.protocol !== 'https:')
    throw usage(`--target must be an http:// or https:// URL, got ${targetUrl.protocol}`);
  if (targetUrl.search || targetUrl.hash) throw usage('--target is a base URL: leave out the query and fragment');
  for (const [name, value, min] of [
    ['--generate', options.generate, 0],
    ['--hostile', options.hostile, 0],
    ['--time-limit', options.timeLimitMs, 0],
    ['--max-response-time', options.maxResponseTimeMs, 0],
    ['--seed', options.seed, 0],
    ['--timeout', options.timeoutMs, 1],
    ['--max-response-size', options.maxResponseBytes, 1],
    ['--concurrency', options.concurrency, 1],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < min)
      throw usage(`${name} must be a whole number of ${min} or more, got ${value}`);
  }
  // A path that is not there is named as such, before "nothing to run" could hide it.
  if (!usesBuiltIn && !existsSync(resolve(spec))) {
    throw new PlantstoreError('SPEC_NOT_FOUND', `--spec ${spec}: no such file`, [
      'Pass an OpenAPI 3.0 or 3.1 document, or a Swagger 2.0 one (YAML or JSON), with --spec FILE.',
    ]);
  }
  const missing = options.fixtures.filter((path) => !existsSync(resolve(path)));
  if (missing.length > 0)
    throw usage(
      `--fixtures ${missing.join(', ')}: no such file or folder`,
      'Pass fixture files or folders (YAML/JSON), or leave --fixtures out.',
    );
  if (options.fixtures.length === 0 && options.generate === 0) {
    throw usage(
      'nothing to run: no fixtures and no generated cases',
      'Pass --fixtures PATH, or --generate N to build cases from the document.',
    );
  }
  let caPem: string | undefined;
  if (options.ca !== undefined) {
    try {
      caPem = readFileSync(options.ca, 'utf8');
    } catch (error) {
      throw usage(
        `--ca ${options.ca}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        'Pass a PEM file holding the certificate (or its CA) the server presents.',
      );
    }
  }
  // Milliseconds since 1970 times a million: later runs start above every id an earlier run used
  // (up to a million cases per run), and the value stays an int64.
  const uniqueIdBase = input.uniqueIdBase ?? BigInt(Date.now()) * 1_000_000n;
  return { ...options, targetUrl, caPem, uniqueIdBase };
}

/** Parses "Name: value" header flags. */
export function parseHeaderFlags(flags: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const flag of flags) {
    const colon = flag.indexOf(':');
    const name = colon === -1 ? '' : flag.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw usage(
        `--header ${JSON.stringify(flag)} is not "Name: value"`,
        'For example: --header "X-Request-Source: ci"',
      );
    headers[name.toLowerCase()] = flag.slice(colon + 1).trim();
  }
  return headers;
}

function usage(message: string, ...details: string[]): PlantstoreError {
  return new PlantstoreError('USAGE', message, details);
}
