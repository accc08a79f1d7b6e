// The README's test-runner recipe, followed in a fresh project: the files in test/msw/vitest-recipe/
// (vitest.config.js, vitest.setup.js, src/mocks/server.js with setupServer, a test of the app's
// API), the module written by the installed `plantstore msw`, and vitest run in that project.
// The package as it ships (bench/built-package.ts), msw and vitest linked from this checkout.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtPackage } from '../../bench/built-package.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const root = resolve('.');
// A user's shell, not this vitest's: its VITEST_* variables would make the inner run a worker of this one.
const env = Object.fromEntries(Object.entries({ ...process.env, NO_COLOR: '1' }).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('VITEST')));
const project = tempDir('plantstore-vitest-app-');

describe("the README's test-runner recipe (vitest, setupServer), in a fresh project", () => {
  let written: ReturnType<typeof spawnSync>;
  beforeAll(() => {
    const packageDir = builtPackage();
    cpSync(join(root, 'test', 'msw', 'vitest-recipe'), project, { recursive: true });
    copyFileSync(join(root, 'test', 'documents', 'plant-store-grown.yaml'), join(project, 'openapi.yaml'));
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(packageDir, join(project, 'node_modules', 'plantstore'), 'dir');
    for (const name of ['msw', 'vitest']) symlinkSync(join(root, 'node_modules', name), join(project, 'node_modules', name), 'dir');
    written = spawnSync(process.execPath, [join(packageDir, 'bin', 'plantstore.js'), 'msw', '--spec', 'openapi.yaml', '--out', 'src/mocks/plantstore.js'], {
      cwd: project,
      env,
      encoding: 'utf8',
    });
  }, 60_000);

  it('writes the module with the installed command', () => {
    expect(written.stderr).toMatch(/^plantstore: wrote src\/mocks\/plantstore\.js \(\d+ KB\) and its \.d\.ts\n$/);
    expect(written.status).toBe(0);
  });

  it("passes the project's tests: create and read back, state reset between tests and seeded, a 400 in the error shape, the journal", () => {
    const run = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter', 'verbose'], {
      cwd: project,
      env,
      encoding: 'utf8',
    });
    expect(run.stdout + run.stderr).toMatch(/Tests\s+3 passed \(3\)/);
    expect(run.status).toBe(0);
  }, 60_000);
});
