// The package as a project that depends on it gets it: `npm pack` (which compiles dist/ through
// `prepack`), the tarball installed into a fresh project as the README says, with msw and vitest
// beside it and a strict tsconfig, its public API imported by name. Installing must leave that
// project's Node alone (no `node` package, `npm exec -- node --version` unchanged), print no
// EBADENGINE warning on a supported Node and run no install script but msw's (and Prism's
// @scarf/scarf, named in the README). The library and the command must run from dist/ on Node 24;
// on a Node older than the range (the machine's Node 20, when there is one) each must refuse in one
// line that names the way out, with no stack. Installs come from npm's cache when `npm ci` filled
// it (--prefer-offline); Scarf's report is turned off (SCARF_ANALYTICS=false).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';

const root = resolve('.');
const version = (name: string) =>
  (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
const pathDirs = (process.env.PATH ?? '').split(delimiter);
// This checkout's node_modules/.bin (its Node 24 among them) is on vitest's PATH; a consumer's shell has none of it.
const ownBins = (dir: string) => resolve(dir).startsWith(join(root, 'node_modules'));

/**
 * npm's own script (npm-cli.js), to be run by the Node under test rather than by whichever `node` its #! line finds.
 *
 */
function npmCli(): string {
  for (const dir of pathDirs.filter((dir) => !ownBins(dir)))
    if (existsSync(join(dir, 'npm'))) return realpathSync(join(dir, 'npm'));
  throw new Error('no npm on PATH');
}

/**
 * A user's shell whose `node` is `node`: that Node's folder first on PATH, no node_modules/.bin, none of vitest's
 * variables.
 */
function shellOf(node: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith('VITEST') && !name.startsWith('npm_') && name !== 'NODE_ENV',
    ),
  );
  return {
    ...env,
    PATH: [dirname(node), ...pathDirs.filter((dir) => !ownBins(dir))].join(delimiter),
    SCARF_ANALYTICS: 'false',
    NO_COLOR: '1',
  };
}

/** npm, run by `node` in that Node's shell. */
function npm(node: string, args: string[], cwd: string, input?: string): SpawnSyncReturns<string> {
  return spawnSync(node, [npmCli(), '--no-audit', '--no-fund', '--no-update-notifier', ...args], {
    cwd,
    encoding: 'utf8',
    env: shellOf(node),
    input,
  });
}

function install(node: string, cwd: string, packages: string[]): string {
  writeFileSync(join(cwd, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const result = npm(node, ['install', '-D', '--prefer-offline', ...packages], cwd);
  if (result.status !== 0)
    throw new Error(`npm install failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout + result.stderr;
}

/**
 * The packages npm lists as having install scripts not covered by allowScripts (npm 11.16+ lists them after an
 * install).
 */
const listedInstallScripts = (output: string) =>
  [...output.matchAll(/^npm warn install-scripts {3}(\S+?)@\S+ \(/gm)].map((found) => found[1]).sort();

/**
 * The README's TypeScript blocks that import the library, by the path each names on its first line (`library.ts` for
 * the one that names none).
 */
function readmeLibraryBlocks(): Map<string, string> {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((found) => found[1])
    .filter((body) => body.includes("from 'plantstore';"));
  return new Map(blocks.map((body) => [/^\/\/ (\S+\.ts)\b/.exec(body)?.[1] ?? 'library.ts', body] as const));
}

let packedOnce: { tarball: string; files: string[] } | undefined;
/** `npm pack` of this checkout (its prepack compiles dist/), once per test file. */
function packed(): { tarball: string; files: string[] } {
  if (packedOnce) return packedOnce;
  const folder = tempDir('plantstore-pack-');
  const packing = npm(process.execPath, ['pack', '--json', '--loglevel=error', '--pack-destination', folder], root);
  if (packing.status !== 0) throw new Error(`npm pack failed (${packing.status}):\n${packing.stderr}`);
  const [pack] = JSON.parse(packing.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packedOnce = { tarball: join(folder, pack.filename), files: pack.files.map((file) => file.path) };
  return packedOnce;
}

/** A Node older than the package's range on PATH (the machine's Node), if there is one. */
function olderNode(): string | undefined {
  const oldest = (
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }
  ).engines.node.replace('>=', '');
  for (const dir of pathDirs.filter((dir) => !ownBins(dir))) {
    const node = join(dir, 'node');
    if (!existsSync(node)) continue;
    const older = spawnSync(
      node,
      ['-p', `process.versions.node.localeCompare(${JSON.stringify(oldest)}, undefined, { numeric: true }) < 0`],
      {
        encoding: 'utf8',
      },
    );
    if (older.stdout.trim() === 'true') return node;
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
  type MockServer, type StartMockServerOptions, type MockEngine, type HttpRequest, type HttpAnswer, type MockOptions,
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
const request: HttpRequest = { method: 'GET', path: '/__mock/health', query: '', headers: {}, body: '' };
const answer: HttpAnswer = await engine.handle(request);
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
  let installOutput = '';
  const consumer = tempDir('plantstore-consumer-');

  beforeAll(() => {
    ({ tarball, files } = packed());
    // The issue's own command, `npm install -D vitest msw ./plantstore-0.1.0.tgz`, plus the compiler.
    installOutput = install(process.execPath, consumer, [
      `vitest@${version('vitest')}`,
      `msw@${version('msw')}`,
      tarball,
      `typescript@${version('typescript')}`,
      `@types/node@${version('@types/node')}`,
    ]);
    writeFileSync(join(consumer, 'index.ts'), CONSUMER);
  }, 300_000);

  it('ships compiled JavaScript with its .d.ts types, the document and the fixtures, and no TypeScript source', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'bin/plantstore.js',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/cli/main.js',
        'openapi/plant-store.yaml',
        'package.json',
      ]),
    );
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((file) => file.startsWith('test/') || file.startsWith('src/'))).toEqual([]);
    // tsc rewrites the extensions of imports only: no compiled file may load a .ts module by name.
    const dist = join(consumer, 'node_modules', 'plantstore', 'dist');
    const js = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js'));
    expect(
      js.filter((file) =>
        /require\([^)]*\.ts['"`]|['"`]\.\.?\/[^'"`]*\.ts['"`]/.test(readFileSync(join(dist, file), 'utf8')),
      ),
    ).toEqual([]);
  });

  it('brings no Node and names no install script of its own', () => {
    const shipped = JSON.parse(readFileSync(join(consumer, 'node_modules', 'plantstore', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(shipped.dependencies).not.toHaveProperty('node');
    expect(
      Object.keys(shipped.scripts).filter((name) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(name)),
    ).toEqual([]);
    expect(existsSync(join(consumer, 'node_modules', 'node'))).toBe(false);
    expect(existsSync(join(consumer, 'node_modules', '.bin', 'node'))).toBe(false);
    const inProject = npm(process.execPath, ['exec', '--', 'node', '--version'], consumer);
    expect(inProject.stdout.trim()).toBe(process.version);
  });

  it("installs on a supported Node with no EBADENGINE warning, and the only install scripts are msw's and Prism's @scarf/scarf", () => {
    expect(installOutput).not.toContain('EBADENGINE');
    expect(listedInstallScripts(installOutput)).toEqual(['@scarf/scarf', 'msw']);
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
              compilerOptions: {
                ...STRICT_TSCONFIG.compilerOptions,
                module: 'es2022',
                moduleResolution: 'node10',
                ignoreDeprecations: '5.0',
              },
            };
      writeFileSync(join(consumer, `tsconfig.${resolution}.json`), JSON.stringify(config));
      const tsc = spawnSync(
        process.execPath,
        [
          join(consumer, 'node_modules', 'typescript', 'bin', 'tsc'),
          '-p',
          join(consumer, `tsconfig.${resolution}.json`),
        ],
        { cwd: consumer, encoding: 'utf8' },
      );
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.status).toBe(0);
    },
    300_000, // tsc with skipLibCheck off, on a loaded machine
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

  it("type-checks and runs the README's library example and its vitest global set-up, and type-checks its Playwright config", () => {
    const blocks = readmeLibraryBlocks();
    expect([...blocks.keys()].sort()).toEqual(['library.ts', 'test/mock-setup.ts']);
    mkdirSync(join(consumer, 'test'), { recursive: true });
    for (const [path, body] of blocks) writeFileSync(join(consumer, path), body);
    // The rest of the set-up the README names: the config line, the document, and a test that reads inject('apiUrl').
    copyFileSync(join(root, 'openapi', 'plant-store.yaml'), join(consumer, 'openapi.yaml'));
    writeFileSync(
      join(consumer, 'vitest.config.ts'),
      "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({ test: { globalSetup: './test/mock-setup.ts' } });\n",
    );
    writeFileSync(
      join(consumer, 'test', 'api.test.ts'),
      `import { expect, inject, it } from 'vitest';

it('creates a plant on the mock of the global set-up', async () => {
  const answer = await fetch(\`\${inject('apiUrl')}/plants\`, {
    method: 'POST',
    headers: { authorization: 'Bearer test-token', 'content-type': 'application/json' },
    body: JSON.stringify({ id: 3, name: 'Ivy' }),
  });
  expect(answer.status).toBe(200);
  expect(await answer.json()).toEqual({ name: 'Ivy' });
});
`,
    );
    // The Playwright recipe's config, type-checked against the @playwright/test of the same release
    // as this checkout's playwright-core (installed for this alone: no browser is downloaded).
    const playwrightConfig = /```ts\n(\/\/ playwright\.config\.ts\n[\s\S]*?)```/.exec(
      readFileSync(join(root, 'README.md'), 'utf8'),
    )?.[1];
    expect(playwrightConfig, 'the README has a playwright.config.ts block').toBeDefined();
    writeFileSync(join(consumer, 'playwright.config.ts'), playwrightConfig!);
    const added = npm(
      process.execPath,
      ['install', '-D', '--prefer-offline', `@playwright/test@${version('playwright-core')}`],
      consumer,
    );
    expect(added.status, added.stderr).toBe(0);
    writeFileSync(
      join(consumer, 'tsconfig.readme.json'),
      JSON.stringify({
        ...STRICT_TSCONFIG,
        include: ['library.ts', 'test/*.ts', 'vitest.config.ts', 'playwright.config.ts'],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(consumer, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.readme.json'],
      {
        cwd: consumer,
        encoding: 'utf8',
      },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    const library = spawnSync(process.execPath, ['library.ts'], { cwd: consumer, encoding: 'utf8' });
    expect(library.stderr).toBe('');
    expect(library.stdout).toMatch(/^passed \{ total: \d+, passed: \d+, failed: 0, skipped: 0, warned: \d+ \}\n$/);
    const tests = spawnSync(process.execPath, [join(consumer, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
      cwd: consumer,
      encoding: 'utf8',
      env: shellOf(process.execPath),
    });
    expect(tests.stdout + tests.stderr).toMatch(/Tests\s+1 passed \(1\)/);
    expect(tests.status).toBe(0);
  }, 300_000); // two installs and tsc on a loaded machine

  it('runs its command from dist/ with npx (no TypeScript is shipped to strip)', () => {
    const cli = npm(process.execPath, ['exec', '--', 'plantstore', 'validate', 'NewPlant'], consumer, '{"id":1}');
    expect(cli.stderr).toBe('');
    expect(cli.status).toBe(1);
    expect(cli.stdout).toMatch(/name/);
  });
});

const older = olderNode();
describe.runIf(older !== undefined)(
  "the packed package, installed on a Node older than its range (the machine's Node)",
  () => {
    const node = older!;
    const olderVersion = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    const oldest = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }
    ).engines.node.replace('>=', '');
    const major = oldest.split('.')[0];
    const project = tempDir('plantstore-older-');

    beforeAll(() => {
      install(node, project, [`msw@${version('msw')}`, packed().tarball]);
    }, 300_000);

    it("leaves the project's Node as it was", () => {
      expect(npm(node, ['exec', '--', 'node', '--version'], project).stdout.trim()).toBe(`v${olderVersion}`);
      expect(existsSync(join(project, 'node_modules', '.bin', 'node'))).toBe(false);
    });

    it('the command refuses in one line that names the way out, with no stack', () => {
      const cli = npm(node, ['exec', '--', 'plantstore', 'validate', 'NewPlant'], project, '{"id":1}');
      expect(cli.stderr).toBe(
        `plantstore needs Node ${oldest} or newer; this is Node ${olderVersion}. Run it on Node ${major} with \`npx -p node@${major} plantstore ...\`.\n`,
      );
      expect(cli.stdout).toBe('');
      expect(cli.status).toBe(2);
    });

    it('the library refuses at import in one line, with no stack and nothing from its dependencies', () => {
      const run = spawnSync(node, ['--input-type=module', '-e', "import 'plantstore'"], {
        cwd: project,
        encoding: 'utf8',
        env: shellOf(node),
      });
      expect(run.stderr).toBe(
        `plantstore needs Node ${oldest} or newer; this is Node ${olderVersion}. ` +
          `Run your program on Node ${major} (\`npx -p node@${major} node app.js\`) or the command as \`npx -p node@${major} plantstore ...\`.\n`,
      );
      expect(run.status).toBe(1);
    });

    it("the library's refusal is a PlantstoreError that a program can catch", () => {
      const program = "try { await import('plantstore'); } catch (error) { console.log(error.name, error.code); }";
      const run = spawnSync(node, ['--input-type=module', '-e', program], {
        cwd: project,
        encoding: 'utf8',
        env: shellOf(node),
      });
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe('PlantstoreError NODE_UNSUPPORTED\n');
      expect(run.status).toBe(0);
    });
  },
);
