import type { Argv } from 'yargs';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS } from '../../runner/defaults.ts';
import { REPORTER_NAMES, type ReporterName } from '../../runner/reporters/index.ts';
import { runCommand, withSpecOption } from '../command-support.ts';
import { exitCodeOfRun, reportersFor } from '../run-reporters.ts';

const builder = (y: Argv) =>
  withSpecOption(y)
    .option('target', {
      type: 'string',
      demandOption: true,
      describe: 'Base URL of the server under test, e.g. http://127.0.0.1:4010',
    })
    .option('token', {
      type: 'string',
      default: process.env.PLANTSTORE_TOKEN,
      defaultDescription: '$PLANTSTORE_TOKEN',
      describe: 'Bearer token for {{token}}; redacted from every report',
    })
    .option('auth', {
      type: 'string',
      array: true,
      describe:
        'Credentials of generated requests per security scheme: NAME=VALUE (bearer/oauth2: the token; basic: ' +
        'USER:PASSWORD; apiKey: the key); repeatable, redacted from every report',
    })
    .option('fixtures', {
      type: 'string',
      array: true,
      defaultDescription: 'fixtures/plant-store with the built-in document, else none',
      describe: 'Fixture files or folders (YAML/JSON), repeatable',
    })
    .option('generate', {
      type: 'number',
      default: 0,
      describe:
        'Valid generated requests per operation (parameters, bodies, credentials), plus the negative cases and N ' +
        'create/read/list/replace/delete sequences per collection (0: none)',
    })
    .option('hostile', {
      type: 'number',
      defaultDescription: 'the --generate count',
      describe:
        'Hostile requests per operation beside the valid ones: boundary and huge numbers, wrong types, a ' +
        'repeated query key, odd strings, format near-misses, bodies that are not JSON (0: none)',
    })
    .option('time-limit', {
      type: 'number',
      default: 0,
      describe: 'Stop starting cases after S seconds; the rest are skipped (0: no limit)',
    })
    .option('max-response-time', {
      type: 'number',
      default: 0,
      describe: 'An answer slower than MS milliseconds fails its case (0: not checked)',
    })
    .option('shrink', {
      type: 'boolean',
      default: true,
      describe: 'Shrink each distinct failure to the smallest request that still shows it (--no-shrink: off)',
    })
    .option('seed', { type: 'number', default: 1, describe: 'Seed of the generated cases (same seed, same cases)' })
    .option('timeout', {
      type: 'number',
      default: DEFAULT_TIMEOUT_MS,
      describe: 'Deadline per request in ms, connect to last body byte',
    })
    .option('max-response-size', {
      type: 'number',
      default: DEFAULT_MAX_RESPONSE_BYTES,
      describe: 'Largest response body in bytes; larger fails the case',
    })
    .option('concurrency', { type: 'number', default: 1, describe: 'Cases run in parallel' })
    .option('shard', {
      type: 'string',
      describe:
        'Run only part i of n of the cases (a CI matrix job); write --json, then join the parts with plantstore ' +
        'merge-reports',
    })
    .option('bail', { type: 'boolean', default: false, describe: 'Stop starting cases after the first failure' })
    .option('filter', {
      type: 'string',
      array: true,
      describe: 'Run only cases whose name or id contains TEXT (repeatable: any of them)',
    })
    .option('header', { type: 'string', array: true, describe: 'Extra request header "Name: value" (repeatable)' })
    .option('ca', { type: 'string', describe: 'PEM file of a certificate to trust (self-signed HTTPS server)' })
    .option('strict', {
      type: 'boolean',
      default: false,
      describe: 'Off-contract statuses (401, 404, 405, 415) fail instead of warn',
    })
    .option('reporter', {
      choices: REPORTER_NAMES,
      default: 'console' as ReporterName,
      describe: 'What to print on stdout',
    })
    .option('junit', { type: 'string', describe: 'Also write a JUnit XML report to FILE' })
    .option('json', { type: 'string', describe: 'Also write the full JSON report to FILE' })
    .option('html', {
      type: 'string',
      describe:
        'Also write a self-contained HTML page to FILE: summary, cases by operation, failures with request, ' +
        'answer, diff and curl, operations no case covered',
    })
    .option('exchanges', {
      type: 'string',
      describe: 'Also write every request and answer of the run to FILE, one JSON object a line (NDJSON)',
    })
    .example('$0 verify --target http://127.0.0.1:4010 --token test-token', 'Replay the shipped Plant Store fixtures')
    .example(
      '$0 verify --target $URL --generate 20 --seed 7 --junit out/verify.xml',
      'Add generated cases; write JUnit XML',
    )
    .example(
      '$0 verify --target $URL --fixtures my-fixtures/ --filter duplicate --bail',
      'Your own fixtures, only matching cases',
    )
    .example(
      '$0 verify --target $URL --generate 20 --shard 2/4 --json out/shard-2.json',
      'One job of a 4-job CI matrix',
    )
    .example(
      '$0 verify --target $URL --generate 3 --html out/verify.html',
      'A page to open in a browser or keep as a CI artifact',
    )
    .example(
      '$0 verify --spec api.yaml --target $URL --generate 5 --auth apiKeyAuth=$KEY --auth basicAuth=ci:$PASSWORD',
      'Generated cases for another document, with its credentials',
    )
    .epilogue(
      'Exit codes: 0 every case passed; 1 a case failed; 2 a usage or configuration error (no case was run); 3 ' +
        'the server could not be reached (refused, unresolved, TLS), or stopped answering part-way (3 cases in a ' +
        'row without an answer: the rest are skipped).',
    );

type VerifyArgs = Awaited<ReturnType<typeof builder>['argv']>;

export const verifyCommand = {
  command: 'verify',
  describe: 'Check a running server against the document: fixtures, contract checks, generated cases',
  builder,
  handler: (argv: VerifyArgs) =>
    runCommand(async () => {
      // Loaded here, not at the top: `plantstore mock` never pays for the runner (undici, yaml).
      const { parseAuthFlags, parseHeaderFlags, parseShard, verify } = await import('../../runner/index.ts');
      const report = await verify({
        target: argv.target,
        token: argv.token,
        spec: argv.spec,
        remoteRefs: argv['remote-refs'],
        fixtures: argv.fixtures?.map(String),
        generate: argv.generate,
        hostile: argv.hostile,
        timeLimitMs: Math.round(argv['time-limit'] * 1000),
        maxResponseTimeMs: argv['max-response-time'],
        shrink: argv.shrink,
        seed: argv.seed,
        timeoutMs: argv.timeout,
        maxResponseBytes: argv['max-response-size'],
        concurrency: argv.concurrency,
        bail: argv.bail,
        filter: argv.filter?.map(String),
        headers: parseHeaderFlags((argv.header ?? []).map(String)),
        auth: parseAuthFlags((argv.auth ?? []).map(String)),
        ca: argv.ca,
        strict: argv.strict,
        reporters: reportersFor(argv, process.stdout.isTTY === true),
        shard: argv.shard === undefined ? undefined : parseShard(argv.shard),
      });
      // 3: the server stopped answering part-way (an unreachable one throws TARGET_UNREACHABLE, also 3).
      return exitCodeOfRun(report);
    }),
};
