import type { Argv } from 'yargs';
import { createLogger } from '../../log/logger.ts';
import { LOG_FORMATS, type LogFormat } from '../../mock/options.ts';
import { DEFAULT_PROXY_OPTIONS } from '../../proxy/options.ts';
import { runCommand, withSpecOption } from '../command-support.ts';

const d = DEFAULT_PROXY_OPTIONS;

const EPILOGUE = [
  'Every answer carries Plantstore-Source: upstream or mock; one that breaks the contract (either way)',
  'carries Plantstore-Violations: a JSON array of {where, code, pointer, message}.',
  'Admin API, under /__mock/ (plain JSON, outside the document):',
  '  GET /__mock/violations      violation counts by operation and code (DELETE resets them)',
  '  GET /__mock/requests?limit=N  the newest exchanges with their violations, credentials redacted',
  "  GET /__mock/state           what --mock-missing serves from (and the rest of the mock's admin API)",
  '',
  'Docs: README.md ("Proxy and record"). Exit codes: 0 stopped, 2 usage or configuration error.',
].join('\n');

const builder = (y: Argv) =>
  withSpecOption(y)
    .option('upstream', {
      type: 'string',
      demandOption: true,
      describe: 'Base URL of the server to forward to; its path is kept (http://127.0.0.1:8080/api)',
    })
    .option('port', { alias: 'p', type: 'number', default: d.port, describe: 'Port to listen on (0 picks a free one)' })
    .option('host', { type: 'string', default: d.host, describe: 'Address to listen on' })
    .option('errors', {
      type: 'boolean',
      default: d.errors,
      describe:
        "Refuse an invalid request with the mock's own 4xx (not forwarded); turn an answer that breaks the " +
        'contract into a 502',
    })
    .option('record', {
      type: 'string',
      describe:
        'Write each exchange into DIR as a fixture that verify --fixtures DIR replays ({{token}} for credentials)',
    })
    .option('record-skip-violations', {
      type: 'boolean',
      default: d.recordSkipViolations,
      describe:
        'With --record: leave out exchanges that break the contract (by default they are recorded, expecting ' +
        'what the contract says, with the violations as comments)',
    })
    .option('mock-missing', {
      type: 'boolean',
      default: d.mockMissing,
      describe:
        'Answer from the stateful mock where the upstream lacks a documented operation (404, 405, 501, or ' +
        'connection refused)',
    })
    .option('ca', { type: 'string', describe: 'PEM file of a certificate to trust (self-signed HTTPS upstream)' })
    .option('timeout', {
      type: 'number',
      default: d.timeoutMs,
      describe: "Milliseconds to the upstream's headers, and between two chunks of its body (past it: 504)",
    })
    .option('max-body', {
      type: 'number',
      default: d.maxBodyBytes,
      describe: 'Largest body validated, in bytes: a larger request or answer streams through unvalidated',
    })
    .option('admin-token', {
      type: 'string',
      defaultDescription: '$PLANTSTORE_ADMIN_TOKEN',
      describe: 'Bearer token the admin API asks for; needed to use it when --host is not loopback',
    })
    .option('journal-size', {
      type: 'number',
      default: d.journalSize,
      describe: 'Exchanges kept for GET /__mock/requests (0 turns it off)',
    })
    .option('log-format', { choices: LOG_FORMATS, default: d.logFormat, describe: 'Exchange log format (to stderr)' })
    .option('quiet', {
      alias: 'q',
      type: 'boolean',
      default: d.quiet,
      describe: 'No exchange lines; warnings and errors only',
    })
    .check((argv) => {
      if (!Number.isInteger(argv.port) || argv.port < 0 || argv.port > 65535)
        throw new Error(`--port must be a whole number from 0 to 65535, got ${argv.port}`);
      for (const name of ['timeout', 'max-body', 'journal-size'] as const) {
        if (!Number.isInteger(argv[name]) || argv[name] < 0)
          throw new Error(`--${name} must be a whole number of 0 or more, got ${argv[name]}`);
      }
      return true;
    })
    .example(
      '$0 proxy --upstream http://127.0.0.1:8080',
      'Validate every exchange with your server, on http://127.0.0.1:4010',
    )
    .example(
      '$0 proxy --upstream https://staging.example.com/api --ca ca.pem --errors',
      'Refuse what breaks the contract, either way',
    )
    .example(
      '$0 proxy --upstream http://127.0.0.1:8080 --record recorded/',
      'Record; then: plantstore verify --target URL --fixtures recorded/ --token T',
    )
    .example(
      '$0 proxy --upstream http://127.0.0.1:8080 --spec grown.yaml --mock-missing',
      'The mock answers what the server does not implement yet',
    )
    .epilogue(EPILOGUE);

type ProxyArgs = Awaited<ReturnType<typeof builder>['argv']>;

export const proxyCommand = {
  command: 'proxy',
  describe: 'Forward to a real server, validating both directions; record fixtures; mock what is missing',
  builder,
  handler: (argv: ProxyArgs) =>
    runCommand(async () => {
      const { startProxyServer } = await import('../../proxy/proxy-server.ts');
      const logger = createLogger({
        format: argv['log-format'] as LogFormat,
        quiet: argv.quiet,
        stream: process.stderr,
      });
      const proxy = await startProxyServer({
        upstream: argv.upstream,
        spec: argv.spec,
        remoteRefs: argv['remote-refs'],
        port: argv.port,
        host: argv.host,
        errors: argv.errors,
        record: argv.record ?? null,
        recordSkipViolations: argv['record-skip-violations'],
        mockMissing: argv['mock-missing'],
        ca: argv.ca ?? null,
        timeoutMs: argv.timeout,
        maxBodyBytes: argv['max-body'],
        journalSize: argv['journal-size'],
        // The variable keeps the token out of `ps` and shell history; the flag wins.
        adminToken: argv['admin-token'] ?? (process.env.PLANTSTORE_ADMIN_TOKEN || null),
        logFormat: argv['log-format'] as LogFormat,
        quiet: argv.quiet,
        logger,
      });
      const modes = [
        argv.errors && '--errors',
        argv.record && `recording into ${argv.record}`,
        argv['mock-missing'] && '--mock-missing',
      ]
        .filter(Boolean)
        .join(', ');
      // The banner goes out even with --quiet: with --port 0 it is the only way to learn the port.
      process.stderr.write(
        `plantstore proxy: ${proxy.url} -> ${argv.upstream}${modes ? ` (${modes})` : ''}\n` +
          `violations: ${proxy.url}/__mock/violations  exchanges: ${proxy.url}/__mock/requests  Ctrl-C to stop\n`,
      );
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          logger.info(`${signal}: shutting down`);
          void proxy.close().then(resolve);
        };
        process.once('SIGINT', () => stop('SIGINT'));
        process.once('SIGTERM', () => stop('SIGTERM'));
      });
      return 0;
    }),
};
