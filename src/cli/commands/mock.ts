import { isLoopback } from '../../mock/admin/admin-access.ts';
import { parseArgs } from 'node:util';
import type { Argv, Options } from 'yargs';
import { createLogger } from '../../log/logger.ts';
import {
  ABSENT_ITEM_MODES,
  DEFAULT_MOCK_OPTIONS,
  ISOLATION_MODES,
  LOG_FORMATS,
  type AbsentItemMode,
  type IsolationMode,
  type LogFormat,
} from '../../mock/options.ts';
import { ADMIN_ENDPOINTS } from '../../mock/admin/admin.ts';
import { startMockServer } from '../../mock/server.ts';
import { LATENCY_PROFILES, parseLatency } from '../../mock/answer/latency.ts';
import { FAULT_MEANINGS } from '../../mock/answer/faults.ts';
import { REMOTE_REFS_OPTION, SPEC_OPTION, withSpecOption } from '../command-support.ts';

const d = DEFAULT_MOCK_OPTIONS;

// The mock's flags, once: yargs builds its parser, help and errors from this table, and the quick
// path below reads a plainly well-formed command line with it.
const OPTIONS = {
  port: { alias: 'p', type: 'number', default: d.port, describe: 'Port to listen on (0 picks a free one)' },
  host: { type: 'string', default: d.host, describe: 'Address to listen on (0.0.0.0 for every interface)' },
  token: {
    type: 'string',
    array: true,
    default: [] as string[],
    defaultDescription: 'any well-formed token',
    describe: 'Accept only this bearer token (repeatable)',
  },
  cors: {
    type: 'boolean',
    default: d.cors,
    describe: 'Answer CORS preflights and reflect Origin (--no-cors turns it off)',
  },
  'declared-only': {
    type: 'boolean',
    default: d.declaredOnly,
    describe: 'Answer every error with a status the operation declares (400 here)',
  },
  'absent-items': {
    type: 'string',
    choices: ABSENT_ITEM_MODES,
    default: d.absentItems,
    describe:
      'An item not stored, where its operation declares no 404: ' +
      'document (its lowest 2xx, as Prism) or 404 (undeclared)',
  },
  seed: { type: 'number', default: d.seed, describe: 'Seed for generated response bodies (Prefer: dynamic=true)' },
  'log-format': { choices: LOG_FORMATS, default: d.logFormat, describe: 'Request log format (to stderr)' },
  quiet: { alias: 'q', type: 'boolean', default: d.quiet, describe: 'No request lines; warnings and errors only' },
  'journal-size': {
    type: 'number',
    default: d.journalSize,
    describe: 'Requests kept for GET /__mock/requests (0 turns it off)',
  },
  'max-body': { type: 'number', default: d.maxBodyBytes, describe: 'Largest request body in bytes (larger: 413)' },
  'max-depth': { type: 'number', default: d.maxDepth, describe: 'Deepest JSON nesting accepted in a body' },
  'max-connections': {
    type: 'number',
    default: d.maxConnections,
    describe:
      'Most connections open at once; past it the oldest idle one is closed to make room ' +
      '(the new one, when none is idle)',
  },
  'max-state-mb': {
    type: 'number',
    default: Math.floor(d.maxStateBytes / 1048576),
    describe: 'Most memory the stored records may take (texts, keys, 32 bytes each); creates past it: 400',
  },
  'isolate-by': {
    choices: ISOLATION_MODES,
    default: d.isolateBy,
    describe: 'token: each bearer token gets its own state (parallel e2e suites)',
  },
  'webhook-url': {
    type: 'string',
    describe: "Deliver the document's webhooks (e.g. newPlant on a create) to this URL",
  },
  'webhook-retries': {
    type: 'number',
    default: d.webhookRetries,
    describe: 'Retries of a failed webhook delivery, with doubling backoff from 0.5 s',
  },
  'state-file': {
    type: 'string',
    describe: 'Keep state across restarts in this append-only file (fsynced before each 200)',
  },
  state: {
    type: 'string',
    describe:
      'redis://host:port/db: keep state in Redis, shared by every mock of the document on it ' +
      '(needs: npm install ioredis)',
  },
  'state-prefix': {
    type: 'string',
    describe: 'With --state: a further namespace for the keys, to keep mocks of one document on one Redis apart',
  },
  strict: {
    type: 'boolean',
    default: d.strictSpec,
    describe: 'Refuse a document with any warning (duplicate enum items, schemas that cannot be checked, ...)',
  },
  latency: {
    type: 'string',
    describe: `Delay every answer: ms (200), a uniform range (100-800) or a profile (${Object.entries(LATENCY_PROFILES)
      .map(([name, [min, max]]) => `${name} ${min}-${max}`)
      .join(', ')})`,
  },
  'fault-rate': {
    type: 'number',
    default: d.faultRate,
    describe:
      'Answer this share of requests (0.05: 5%) with a declared 5xx or 429, or a reset, close or cut body; ' +
      'drawn by --seed',
  },
  watch: {
    type: 'boolean',
    default: d.watch,
    describe: 'Reload the document and the files it refers to when they change; state is kept',
  },
  admin: {
    type: 'boolean',
    default: d.admin,
    describe: 'Serve the admin API under /__mock/ (--no-admin turns it off)',
  },
  'admin-token': {
    type: 'string',
    defaultDescription: '$PLANTSTORE_ADMIN_TOKEN',
    describe: 'Bearer token the admin API asks for; needed to use it when --host is not loopback',
  },
} as const satisfies Record<string, Options>;

/** The parsed flags the handler reads (yargs gives more: aliases, camelCase copies, `_`). */
export interface MockArgs {
  spec: string;
  port: number;
  host: string;
  token: (string | number)[];
  cors: boolean;
  'declared-only': boolean;
  'absent-items': string;
  seed: number;
  'log-format': string;
  quiet: boolean;
  'journal-size': number;
  'max-body': number;
  'max-depth': number;
  'max-connections': number;
  'max-state-mb': number;
  'isolate-by': string;
  'webhook-url'?: string;
  'webhook-retries': number;
  'state-file'?: string;
  state?: string;
  'state-prefix'?: string;
  'remote-refs': boolean;
  strict: boolean;
  admin: boolean;
  'admin-token'?: string;
  latency?: string;
  'fault-rate': number;
  watch: boolean;
}

/** The checks a value's type cannot express; yargs runs them (and says what is wrong), and so does the quick path. */
function checkMockArgs(argv: MockArgs): true {
  if (!Number.isInteger(argv.port) || argv.port < 0 || argv.port > 65535)
    throw new Error(`--port must be a whole number from 0 to 65535, got ${argv.port}`);
  if (argv['webhook-url'] !== undefined && !/^https?:\/\/\S+$/.test(argv['webhook-url']))
    throw new Error(`--webhook-url must be an http(s) URL, got ${argv['webhook-url']}`);
  for (const name of ['journal-size', 'max-body', 'max-depth', 'max-connections', 'webhook-retries'] as const) {
    if (!Number.isInteger(argv[name]) || argv[name] < 0)
      throw new Error(`--${name} must be a whole number of 0 or more, got ${argv[name]}`);
  }
  if (argv['max-connections'] < 1)
    throw new Error(`--max-connections must be 1 or more, got ${argv['max-connections']}`);
  if (!Number.isInteger(argv['max-state-mb']) || argv['max-state-mb'] < 1)
    throw new Error(`--max-state-mb must be a whole number of 1 or more, got ${argv['max-state-mb']}`);
  if (argv.latency !== undefined) {
    const read = parseLatency(argv.latency, '--latency');
    if (!read.ok) throw new Error(read.message);
  }
  if (!(argv['fault-rate'] >= 0 && argv['fault-rate'] <= 1))
    throw new Error(`--fault-rate must be from 0 to 1 (0.05 is 5%), got ${argv['fault-rate']}`);
  if (argv.state !== undefined && !/^rediss?:\/\/\S+$/.test(argv.state))
    throw new Error(`--state must be a Redis URL, redis://host:port/db, got ${argv.state}`);
  if (argv.state !== undefined && argv['state-file'] !== undefined)
    throw new Error('--state and --state-file both say where state lives: give one');
  if (argv['state-prefix'] !== undefined && argv.state === undefined)
    throw new Error('--state-prefix needs --state redis://host:port/db');
  return true;
}

// What a request can do besides call the API: the admin endpoints (from the table the admin API
// itself answers with) and the per-request choice of answer, so that help and server never differ.
const width = Math.max(...Object.keys(ADMIN_ENDPOINTS).map((route) => route.length));
const EPILOGUE = [
  'Admin API, under /__mock/ (plain JSON, outside the document; GET /__mock/ lists it):',
  ...Object.entries(ADMIN_ENDPOINTS).map(([route, what]) => `  ${route.padEnd(width)}  ${what}`),
  `  ${'GET|PUT /__mock/switches'.padEnd(width)}  latency and fault per operation: ` +
    '{"GET /plants": {"latency": "800", "fault": "reset"}}',
  'Open /__mock/ in a browser for a page of the recent requests (and why one was refused), the',
  'state (seed, reset) and the switches.',
  'Open on loopback. Beyond it (--host 0.0.0.0) it answers 401 until the mock has an admin token',
  '(--admin-token or PLANTSTORE_ADMIN_TOKEN), sent as "Authorization: Bearer <admin token>".',
  '',
  'The answer of one request, chosen by its Prefer header (as in Prism; still authenticated and',
  'validated first, and a forced answer changes no state):',
  '  Prefer: code=404        any status the operation declares, 5xx included; an error without',
  '                          an example of its own says "forced by Prefer: code=404" in the',
  "                          document's error shape; an undeclared status gets a 400 saying so",
  '  Prefer: example=NAME    the named example of the response',
  '  Prefer: dynamic=true    a body generated from the schema (--seed makes it repeatable)',
  '  Combine them (Prefer: code=400, dynamic=true), or use the query forms __code=404,',
  '  __example=NAME and __dynamic=true.',
  "  e.g. curl -sS -i http://127.0.0.1:4010/plants -H 'Prefer: code=400' -H 'Authorization: Bearer t' \\",
  '         -H \'Content-Type: application/json\' -d \'{"id": 1, "name": "Fern"}\'',
  '',
  'The unhappy path of one request (no state changes under a fault; the journal records it):',
  '  Prefer: delay=800       wait 800 ms first (or 100-800, or a --latency profile); __delay=800',
  ...Object.entries(FAULT_MEANINGS).map(([name, meaning]) => `  Prefer: fault=${name.padEnd(10)} ${meaning}`),
  "  (__fault=reset and so on in the query.) An operation's x-plantstore-latency in the document",
  '  delays it alone; the /__mock/ page in a browser switches latency and faults per operation.',
  '',
  'Docs: README.md. Exit codes: 0 stopped, 2 usage or configuration error.',
].join('\n');

const builder = (y: Argv) =>
  withSpecOption(y)
    .options(OPTIONS)
    .check((argv) => checkMockArgs(argv as unknown as MockArgs))
    .example('$0 mock', 'Mock the Plant Store on http://127.0.0.1:4010')
    .example('$0 mock --spec api.yaml --port 8080 --token secret', 'Mock another document; accept only "Bearer secret"')
    .example('$0 mock --declared-only --log-format json', 'Nothing off-contract; JSON log lines')
    .example('$0 mock --state-file plants.log', 'Keep created plants across restarts')
    .example('$0 mock --state redis://127.0.0.1:6379/0 --port 4011', 'Replicas on one Redis act as one mock')
    .example(
      '$0 mock --spec test/documents/plant-store-grown.yaml --webhook-url http://127.0.0.1:9000/hooks ' +
        '--isolate-by token',
      'Deliver webhooks; one state per token',
    )
    .epilogue(EPILOGUE);

type Option = { alias?: string; type?: string; array?: boolean; default?: unknown; choices?: readonly string[] };
const ALL: Record<string, Option> = { spec: SPEC_OPTION, 'remote-refs': REMOTE_REFS_OPTION, ...OPTIONS };
const QUICK_CONFIG = Object.fromEntries(
  Object.entries(ALL).map(([name, o]) => [
    name,
    {
      type: o.type === 'boolean' ? ('boolean' as const) : ('string' as const),
      multiple: o.array === true,
      ...(o.alias ? { short: o.alias } : {}),
    },
  ]),
);

/**
 * `plantstore mock` read without yargs, when the command line is plainly well-formed: long flags
 * (`--port 8080`, `--port=8080`, `--no-cors`), `-p N` and `-q`, whole-number values, known choices,
 * each flag once (but --token). Going through yargs (and the other commands it loads) about doubles
 * the mock's time to a first answer (fast path: see docs/performance.md §9), so the most common
 * start skips it. Anything else (help, version, an unknown
 * or repeated flag, a value yargs would read differently or refuse) returns undefined and goes to
 * yargs, which stays the one judge of usage: this path only ever accepts what yargs accepts, with
 * the same values (a test compares the two on many command lines).
 */
export function quickMockArgs(args: readonly string[]): MockArgs | undefined {
  if (args[0] !== 'mock') return undefined;
  const rest = args.slice(1);
  // Help, version, '--' and bundled or glued short flags (-qp, -p8080) are yargs's to read.
  if (
    rest.some((arg) => arg === '--' || arg === '--help' || arg === '-h' || arg === '--version' || /^-[^-]./.test(arg))
  )
    return undefined;
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: QUICK_CONFIG,
      strict: true,
      allowPositionals: false,
      allowNegative: true,
      tokens: true,
    });
  } catch {
    return undefined; // unknown flags, positionals, a missing value: yargs says what is wrong
  }
  // yargs gathers a repeated flag into an array (and then refuses it); here the last would win.
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    if (seen.has(token.name) && ALL[token.name].array !== true) return undefined;
    seen.add(token.name);
  }
  const argv: Record<string, unknown> = {};
  for (const [name, option] of Object.entries(ALL))
    if (option.default !== undefined) argv[name] = Array.isArray(option.default) ? [...option.default] : option.default;
  for (const [name, value] of Object.entries(parsed.values)) {
    const option = ALL[name];
    if (option.type === 'number') {
      // 1e3, 0x10, -1, 1.5: yargs's reading.
      if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) return undefined;
      argv[name] = Number(value);
    } else if (option.choices !== undefined) {
      if (typeof value !== 'string' || !option.choices.includes(value)) return undefined;
      argv[name] = value;
    } else argv[name] = value;
  }
  try {
    checkMockArgs(argv as unknown as MockArgs);
  } catch {
    return undefined;
  }
  return argv as unknown as MockArgs;
}

/** What the start-up banner says of the admin API (never the token). */
function adminBanner(url: string, host: string, on: boolean, token: string | undefined): string {
  if (!on) return 'admin API: off (--no-admin)';
  if (token)
    return (
      `admin API: ${url}/__mock/  ` +
      '(state, requests, switches; a page in a browser; send the admin token as a bearer token)'
    );
  if (!isLoopback(host))
    return (
      `admin API: locked, since the mock listens on ${host} ` +
      'and no --admin-token (or PLANTSTORE_ADMIN_TOKEN) was given'
    );
  return `admin API: ${url}/__mock/  (state, requests, switches; open it in a browser for a page)`;
}

export const mockCommand = {
  command: 'mock',
  describe: 'Run the stateful mock server',
  builder,
  handler: async (argv: MockArgs) => {
    const logger = createLogger({ format: argv['log-format'] as LogFormat, quiet: argv.quiet, stream: process.stderr });
    const server = await startMockServer({
      spec: argv.spec,
      remoteRefs: argv['remote-refs'],
      strictSpec: argv.strict,
      port: argv.port,
      host: argv.host,
      tokens: argv.token.map(String),
      cors: argv.cors,
      declaredOnly: argv['declared-only'],
      absentItems: argv['absent-items'] as AbsentItemMode,
      seed: argv.seed,
      logFormat: argv['log-format'] as LogFormat,
      quiet: argv.quiet,
      journalSize: argv['journal-size'],
      maxBodyBytes: argv['max-body'],
      maxDepth: argv['max-depth'],
      maxConnections: argv['max-connections'],
      maxStateBytes: argv['max-state-mb'] * 1048576,
      stateFile: argv['state-file'] ?? null,
      stateUrl: argv.state ?? null,
      statePrefix: argv['state-prefix'] ?? null,
      admin: argv.admin,
      // The variable keeps the token out of `ps` and shell history; the flag wins.
      adminToken: argv['admin-token'] ?? (process.env.PLANTSTORE_ADMIN_TOKEN || null),
      isolateBy: argv['isolate-by'] as IsolationMode,
      webhookUrl: argv['webhook-url'] ?? null,
      webhookRetries: argv['webhook-retries'],
      latency: argv.latency ?? null,
      faultRate: argv['fault-rate'],
      watch: argv.watch,
      logger,
    });
    const ops = server.engine.operations;
    // The banner goes out even with --quiet: with --port 0 it is the only way to learn the port.
    const listed =
      ops
        .slice(0, 8)
        .map((op) => `${op.method} ${op.path}`)
        .join(', ') + (ops.length > 8 ? `, and ${ops.length - 8} more` : '');
    process.stderr.write(
      `plantstore mock: ${ops.length} operation${ops.length === 1 ? '' : 's'} (${listed}) on ${server.url}\n`,
    );
    process.stderr.write(
      `${adminBanner(server.url, argv.host, argv.admin, argv['admin-token'] ?? process.env.PLANTSTORE_ADMIN_TOKEN)}` +
        '  Ctrl-C to stop\n',
    );
    // One shutdown, whatever asks for it and however often (Ctrl-C, then the SIGTERM of a
    // supervisor that lost patience; bin/plantstore.js when the process that started it is gone).
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      logger.info(`${signal}: shutting down`);
      void server.close().then(() => {
        process.exitCode = 0;
      });
    };
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
  },
};
