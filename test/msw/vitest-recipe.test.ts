// The README's vitest recipe, followed in a fresh TypeScript project: its files are taken from the
// README's own code blocks (each names its path on its first line), its commands are the README's
// (the install as links: the package as it ships, bench/msw/built-package.ts, and this checkout's msw and
// vitest), and the project's own test of its API sits beside them (test/msw/vitest-recipe/src/plants.spec.ts, a name
// this suite's own run leaves alone). The
// project must type-check under a strict tsconfig (skipLibCheck off, so the written .d.ts is
// checked too) and its tests must pass.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtPackage } from '../../bench/msw/built-package.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const root = resolve('.');
// A user's shell, not this vitest's: its VITEST_* variables would make the inner run a worker of this one.
const env = Object.fromEntries(
  Object.entries({ ...process.env, NO_COLOR: '1' }).filter(
    ([name]) => name !== 'NODE_ENV' && !name.startsWith('VITEST'),
  ),
);
const project = tempDir('plantstore-vitest-app-');

/** The README's vitest recipe: from its heading to the paragraph after it. */
function recipe(): { commands: string[]; files: Map<string, string> } {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('**vitest**');
  const section = readme.slice(start, readme.indexOf('In a test:', start));
  const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(([, lang, body]) => ({ lang, body }));
  const commands = blocks
    .filter((block) => block.lang === 'sh')
    .flatMap((block) => block.body.split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
  const files = new Map(
    blocks
      .filter((block) => block.lang === 'ts')
      .map((block) => [/^\/\/ (\S+)\n/.exec(block.body)?.[1] ?? '(a block without a path)', block.body] as const),
  );
  return { commands, files };
}

describe("the README's vitest recipe (setupServer, TypeScript), in a fresh project", () => {
  const { commands, files } = recipe();
  let written: ReturnType<typeof spawnSync>;

  beforeAll(() => {
    const packageDir = builtPackage();
    cpSync(join(root, 'test', 'msw', 'vitest-recipe'), project, { recursive: true });
    copyFileSync(join(root, 'test', 'documents', 'plant-store-grown.yaml'), join(project, 'openapi.yaml'));
    for (const [path, text] of files) {
      mkdirSync(dirname(join(project, path)), { recursive: true });
      writeFileSync(join(project, path), text);
    }
    // `npm install -D vitest msw <tarball>`, as links; the compiler and Node's types for the type check.
    mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
    symlinkSync(packageDir, join(project, 'node_modules', 'plantstore'), 'dir');
    for (const name of ['msw', 'vitest', 'typescript', '@types/node'])
      symlinkSync(join(root, 'node_modules', name), join(project, 'node_modules', name), 'dir');
    const msw = commands.find((command) => command.startsWith('npx plantstore msw '))!;
    written = spawnSync(process.execPath, [join(packageDir, 'bin', 'plantstore.js'), ...msw.split(/\s+/).slice(2)], {
      cwd: project,
      env,
      encoding: 'utf8',
    });
  }, 240_000); // a build of the package when the sources changed, under load

  it('has the three commands and the three files, each block naming its path', () => {
    expect(commands).toEqual([
      'npm install -D vitest msw ../plantstore/plantstore-0.1.0.tgz',
      'npx plantstore msw --spec openapi.yaml --out src/mocks/plantstore.js',
      'npx vitest run',
    ]);
    expect([...files.keys()].sort()).toEqual(['src/mocks/server.ts', 'vitest.config.ts', 'vitest.setup.ts']);
  });

  it('writes the module with the installed command', () => {
    expect(written.stderr).toMatch(/^plantstore: wrote src\/mocks\/plantstore\.js \(\d+ KB\) and its \.d\.ts\n$/);
    expect(written.status).toBe(0);
  });

  it('type-checks under a strict tsconfig, the written .d.ts included', () => {
    const tsc = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
      {
        cwd: project,
        env,
        encoding: 'utf8',
      },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 300_000); // tsc over msw, vitest and Node types (skipLibCheck off) takes minutes on a loaded machine

  it("passes the project's tests: create and read back, state reset between tests and seeded, a 400 in the error shape, the journal", () => {
    const run = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter', 'verbose'],
      {
        cwd: project,
        env,
        encoding: 'utf8',
      },
    );
    expect(run.stdout + run.stderr).toMatch(/Tests\s+3 passed \(3\)/);
    expect(run.status).toBe(0);
  }, 60_000);
});
