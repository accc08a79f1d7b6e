import type { Argv } from 'yargs';
import { createLogger } from '../../log/logger.ts';
import { DEFAULT_MOCK_OPTIONS, ISOLATION_MODES, LOG_FORMATS, type IsolationMode, type LogFormat } from '../../mock/options.ts';
import { startMockServer } from '../../mock/server.ts';
import { withSpecOption } from '../command-support.ts';

const d = DEFAULT_MOCK_OPTIONS;

const builder = (y: Argv) =>
  withSpecOption(y)
    .option('port', { alias: 'p', type: 'number', default: d.port, describe: 'Port to listen on (0 picks a free one)' })
    .option('host', { type: 'string', default: d.host, describe: 'Address to listen on (0.0.0.0 for every interface)' })
    .option('token', { type: 'string', array: true, default: [] as string[], defaultDescription: 'any well-formed token', describe: 'Accept only this bearer token (repeatable)' })
    .option('cors', { type: 'boolean', default: d.cors, describe: 'Answer CORS preflights and reflect Origin (--no-cors turns it off)' })
    .option('declared-only', { type: 'boolean', default: d.declaredOnly, describe: 'Answer every error with a status the operation declares (400 here)' })
    .option('seed', { type: 'number', default: d.seed, describe: 'Seed for generated response bodies (Prefer: dynamic=true)' })
    .option('log-format', { choices: LOG_FORMATS, default: d.logFormat, describe: 'Request log format (to stderr)' })
    .option('quiet', { alias: 'q', type: 'boolean', default: d.quiet, describe: 'No request lines; warnings and errors only' })
    .option('journal-size', { type: 'number', default: d.journalSize, describe: 'Requests kept for GET /__mock/requests (0 turns it off)' })
    .option('max-body', { type: 'number', default: d.maxBodyBytes, describe: 'Largest request body in bytes (larger: 413)' })
    .option('max-depth', { type: 'number', default: d.maxDepth, describe: 'Deepest JSON nesting accepted in a body' })
    .option('isolate-by', { choices: ISOLATION_MODES, default: d.isolateBy, describe: 'token: each bearer token gets its own state (parallel e2e suites)' })
    .option('webhook-url', { type: 'string', describe: "Deliver the document's webhooks (e.g. newPlant on a create) to this URL" })
    .option('webhook-retries', { type: 'number', default: d.webhookRetries, describe: 'Retries of a failed webhook delivery, with doubling backoff from 0.5 s' })
    .option('state-file', { type: 'string', describe: 'Keep state across restarts in this append-only file (fsynced before each 200)' })
    .check((argv) => {
      if (!Number.isInteger(argv.port) || argv.port < 0 || argv.port > 65535) throw new Error(`--port must be a whole number from 0 to 65535, got ${argv.port}`);
      if (argv['webhook-url'] !== undefined && !/^https?:\/\/\S+$/.test(argv['webhook-url'])) throw new Error(`--webhook-url must be an http(s) URL, got ${argv['webhook-url']}`);
      for (const name of ['journal-size', 'max-body', 'max-depth', 'webhook-retries'] as const) {
        if (!Number.isInteger(argv[name]) || argv[name] < 0) throw new Error(`--${name} must be a whole number of 0 or more, got ${argv[name]}`);
      }
      return true;
    })
    .example('$0 mock', 'Mock the Plant Store on http://127.0.0.1:4010')
    .example('$0 mock --spec api.yaml --port 8080 --token secret', 'Mock another document; accept only "Bearer secret"')
    .example('$0 mock --declared-only --log-format json', 'Nothing off-contract; JSON log lines')
    .example('$0 mock --state-file plants.log', 'Keep created plants across restarts')
    .example('$0 mock --spec grown.yaml --webhook-url http://127.0.0.1:9000/hooks --isolate-by token', 'Deliver webhooks; one state per token');

type MockArgs = Awaited<ReturnType<typeof builder>['argv']>;

export const mockCommand = {
  command: 'mock',
  describe: 'Run the stateful mock server',
  builder,
  handler: async (argv: MockArgs) => {
    const logger = createLogger({ format: argv['log-format'] as LogFormat, quiet: argv.quiet, stream: process.stderr });
    const server = await startMockServer({
      spec: argv.spec,
      port: argv.port,
      host: argv.host,
      tokens: argv.token.map(String),
      cors: argv.cors,
      declaredOnly: argv['declared-only'],
      seed: argv.seed,
      logFormat: argv['log-format'] as LogFormat,
      quiet: argv.quiet,
      journalSize: argv['journal-size'],
      maxBodyBytes: argv['max-body'],
      maxDepth: argv['max-depth'],
      stateFile: argv['state-file'] ?? null,
      isolateBy: argv['isolate-by'] as IsolationMode,
      webhookUrl: argv['webhook-url'] ?? null,
      webhookRetries: argv['webhook-retries'],
      logger,
    });
    const ops = server.engine.operations;
    // The banner goes out even with --quiet: with --port 0 it is the only way to learn the port.
    process.stderr.write(`plantstore mock: ${ops.length} operation${ops.length === 1 ? '' : 's'} (${ops.map((op) => `${op.method} ${op.path}`).join(', ')}) on ${server.url}\n`);
    process.stderr.write(`admin API: ${server.url}/__mock/  (state, requests, health)  Ctrl-C to stop\n`);
    const stop = (signal: string) => {
      logger.info(`${signal}: shutting down`);
      void server.close().then(() => {
        process.exitCode = 0;
      });
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  },
};
