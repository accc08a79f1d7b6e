// The package as a project that depends on it gets it: `npm pack` (which compiles dist/ through
// `prepare`), the tarball installed into a fresh project with a strict tsconfig, its public API
// imported by name. The consumer's TypeScript must find no error in the shipped types, the library
// must run from dist/ on Node 24, and on a Node older than its range it must fail at import with
// one line that names the versions (not undici's "reading 'bind'" from deep inside a dependency).
// One scenario: it costs a build and an install (the install from npm's cache when `npm ci` filled it).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';

const root = resolve('.');
const version = (name: string) => (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** npm, run on this Node (24), quietly. */
function npm(args: string[], cwd: string): SpawnSyncReturns<string> {
  const result = spawnSync('npm', [...args, '--loglevel=error', '--no-audit', '--no-fund', '--no-update-notifier'], {
    cwd,
    encoding: 'utf8',
    env: process.env,
  });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** A Node older than the library's range on PATH (the machine's Node), if there is one. */
function olderNode(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const node = join(dir, 'node');
    if (resolve(dir).startsWith(join(root, 'node_modules')) || !existsSync(node)) continue;
    const major = Number(spawnSync(node, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout);
    if (major < 22) return node;
  }
  return undefined;
}

const STRICT_TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    skipLibCheck: false, // the shipped .d.ts files are checked too
    noEmit: true,
    types: ['node'],
  },
  include: ['index.ts'],
};

// Every export the README describes, used the way its examples use them.
const CONSUMER = `import {
  startMockServer, createMockEngine, DEFAULT_MOCK_OPTIONS, createLogger, silentLogger, createMemoryStore, StateFullError,
  loadSpec, DEFAULT_SPEC_PATH, listOperations, createValidators, parseJson, stringifyJson, PlantstoreError,
  verify, loadFixtures, REPORTERS, OFF_CONTRACT_STATUSES, FIXTURE_SCHEMA_PATH,
  type MockServer, type StartMockServerOptions, type MockEngine, type MockRequest, type MockResponse, type MockOptions,
  type Logger, type StateStore, type LoadedSpec, type Operation, type Validators, type ValidationResult, type JsonValue,
  type VerifyReport, type PlantstoreErrorCode,
} from 'plantstore';
import { createHandlers, type PlantstoreHandlers, type CreateHandlersOptions } from 'plantstore/msw';
import { setupServer } from 'msw/node';

const options: StartMockServerOptions = { port: 0, tokens: ['test-token'], logger: silentLogger };
const mock: MockServer = await startMockServer(options);
const spec: LoadedSpec = await loadSpec(DEFAULT_SPEC_PATH);
const operations: Operation[] = listOperations(spec);
const validators: Validators = createValidators(spec);
const checked: ValidationResult = validators.at('#/components/schemas/NewPlant')({ id: 1, name: 'Fern' });
const engine: MockEngine = createMockEngine({ spec, options: DEFAULT_MOCK_OPTIONS, logger: createLogger({ format: 'json', quiet: true, stream: process.stderr }), store: createMemoryStore() });
const request: MockRequest = { method: 'GET', path: '/__mock/health', query: '', headers: {}, body: '' };
const answer: MockResponse = await engine.handle(request);
const parsed = parseJson('{"id": 9007199254740993}');
const value: JsonValue = parsed.ok ? parsed.value : null;
const report: VerifyReport = await verify({ target: mock.url, token: 'test-token', generate: 1, seed: 1 });
const logger: Logger = silentLogger;
const store: StateStore = createMemoryStore({ maxBytes: 1024 });
const code: PlantstoreErrorCode = new PlantstoreError('USAGE', 'x').code;
const defaults: MockOptions = DEFAULT_MOCK_OPTIONS;
void [operations.length, checked.ok, answer.status, stringifyJson(value), report, logger, store, code, defaults, StateFullError, loadFixtures, REPORTERS, OFF_CONTRACT_STATUSES, FIXTURE_SCHEMA_PATH];
await mock.close();
const handlerOptions: CreateHandlersOptions = { spec, baseUrl: 'https://api.test' };
const handlers: PlantstoreHandlers = await createHandlers(handlerOptions);
const server = setupServer(...handlers);
server.listen({ onUnhandledRequest: 'error' });
const created = await fetch('https://api.test/plants', { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: '{"id": 7, "name": "Fern"}' });
server.close();
console.log(JSON.stringify({ operations: operations.length, health: answer.status, valid: checked.ok, exact: stringifyJson(value), msw: created.status, stored: handlers.state.list() }));
`;

describe('the packed package, installed by a TypeScript project', () => {
  let tarball = '';
  let files: string[] = [];
  const consumer = tempDir('plantstore-consumer-');

  beforeAll(() => {
    const packed = tempDir('plantstore-pack-');
    const [pack] = JSON.parse(npm(['pack', '--json', '--pack-destination', packed], root).stdout) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    tarball = join(packed, pack.filename);
    files = pack.files.map((file) => file.path);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(join(consumer, 'index.ts'), CONSUMER);
    // Install scripts are skipped: the "node" dependency's would fetch Node 24, which the library does not use.
    npm(
      [
        'install',
        '--ignore-scripts',
        '--prefer-offline',
        tarball,
        `msw@${version('msw')}`,
        `typescript@${version('typescript')}`,
        `@types/node@${version('@types/node')}`,
      ],
      consumer,
    );
  }, 240_000);

  it('ships compiled JavaScript with its .d.ts types, the document and the fixtures, and no TypeScript source', () => {
    expect(files).toEqual(
      expect.arrayContaining(['bin/plantstore.js', 'dist/index.js', 'dist/index.d.ts', 'dist/cli/main.js', 'openapi/plant-store.yaml', 'package.json']),
    );
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((file) => file.startsWith('test/') || file.startsWith('src/'))).toEqual([]);
    // tsc rewrites the extensions of imports only: no compiled file may load a .ts module by name.
    const dist = join(consumer, 'node_modules', 'plantstore', 'dist');
    const js = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
    expect(js.filter((file) => /require\([^)]*\.ts['"`]|['"`]\.\.?\/[^'"`]*\.ts['"`]/.test(readFileSync(join(dist, file), 'utf8')))).toEqual([]);
  });

  // nodenext reads the package's "exports"; node10, still common, reads "types" and "main".
  it.each(['nodenext', 'node10'])(
    'type-checks in a strict consumer with no error (moduleResolution %s)',
    (resolution) => {
      const config =
        resolution === 'nodenext'
          ? STRICT_TSCONFIG
          : {
              ...STRICT_TSCONFIG,
              compilerOptions: { ...STRICT_TSCONFIG.compilerOptions, module: 'es2022', moduleResolution: 'node10', ignoreDeprecations: '5.0' },
            };
      writeFileSync(join(consumer, `tsconfig.${resolution}.json`), JSON.stringify(config));
      const tsc = spawnSync(
        process.execPath,
        [join(consumer, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(consumer, `tsconfig.${resolution}.json`)],
        { cwd: consumer, encoding: 'utf8' },
      );
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.status).toBe(0);
    },
    120_000,
  );

  it('runs from dist/ on Node 24: a mock, the engine, the validator, exact JSON, a verify run and the MSW handlers', () => {
    // Node strips the types of the consumer's own file (outside node_modules).
    const run = spawnSync(process.execPath, [join(consumer, 'index.ts')], { cwd: consumer, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      operations: 1,
      health: 200,
      valid: true,
      exact: '{"id":9007199254740993}',
      msw: 200,
      stored: { '/plants': [{ id: 7, name: 'Fern' }] },
    });
  });

  it('runs its command from dist/ (no TypeScript is shipped to strip)', () => {
    const cli = spawnSync(process.execPath, [join(consumer, 'node_modules', 'plantstore', 'bin', 'plantstore.js'), 'validate', 'NewPlant'], {
      cwd: consumer,
      encoding: 'utf8',
      input: '{"id":1}',
    });
    expect(cli.stderr).toBe('');
    expect(cli.status).toBe(1);
    expect(cli.stdout).toMatch(/name/);
  });

  const older = olderNode();
  it.runIf(older !== undefined)('fails at import on an older Node with one line that names both versions', () => {
    const run = spawnSync(older!, ['--input-type=module', '-e', "import 'plantstore'"], { cwd: consumer, encoding: 'utf8' });
    const olderVersion = spawnSync(older!, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      `PlantstoreError: plantstore's library needs Node 22.19 or newer; this is Node ${olderVersion}. The plantstore command works on Node 20 through its bundled Node 24.`,
    );
    expect(run.stderr).not.toContain('undici');
  });
});
