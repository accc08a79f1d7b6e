// scripts/setup.js, which runs before `npm start` and `npm test`: after the user's own `npm ci`
// or `npm install` it starts at once, trusting npm's record of node_modules when that matches the
// lock file; it installs when the lock file asks for something node_modules does not hold.
import { spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript for Node 20, without types
import { installedMatchesLock } from '../../scripts/installed-matches-lock.js';
import { tempDir } from '../helpers/temp-dir.ts';

const root = resolve('.');
type Lock = { packages: Record<string, Record<string, unknown>> };

/** A project whose package.json, lock file and npm's record are given, with the recorded folders made. */
function project(
  manifest: object,
  lock: Lock,
  installed: Lock | undefined,
  folders = Object.keys(installed?.packages ?? {}),
): string {
  const dir = tempDir('plantstore-setup-');
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock));
  mkdirSync(join(dir, 'node_modules'));
  if (installed) writeFileSync(join(dir, 'node_modules', '.package-lock.json'), JSON.stringify(installed));
  for (const folder of folders) mkdirSync(join(dir, folder), { recursive: true });
  return dir;
}

const MANIFEST = { name: 'app', dependencies: { a: '^1.0.0' }, devDependencies: { b: '^2.0.0' } };
const entry = (name: string, version: string, extra: object = {}) => ({
  version,
  resolved: `https://registry.example/${name}-${version}.tgz`,
  integrity: `sha512-${name}${version}`,
  ...extra,
});
const LOCK: Lock = {
  packages: {
    '': { name: 'app', dependencies: { a: '^1.0.0' }, devDependencies: { b: '^2.0.0' } },
    'node_modules/a': entry('a', '1.2.0'),
    'node_modules/b': entry('b', '2.0.1', { dev: true }),
    'node_modules/c-other-platform': entry('c', '1.0.0', { optional: true, os: ['win32'] }),
  },
};
const INSTALLED: Lock = {
  packages: { 'node_modules/a': entry('a', '1.2.0'), 'node_modules/b': entry('b', '2.0.1', { dev: true }) },
};
const without = (lock: Lock, path: string): Lock => ({
  packages: Object.fromEntries(Object.entries(lock.packages).filter(([key]) => key !== path)),
});
const withEntry = (lock: Lock, path: string, value: Record<string, unknown>): Lock => ({
  packages: { ...lock.packages, [path]: value },
});

describe("npm's record of node_modules against the lock file", () => {
  it.each<[string, () => string, boolean]>([
    [
      "matches when every locked package is installed (another platform's optional one may be absent)",
      () => project(MANIFEST, LOCK, INSTALLED),
      true,
    ],
    [
      "does not match without npm's record (node_modules made by hand, or an old npm)",
      () => project(MANIFEST, LOCK, undefined),
      false,
    ],
    [
      'does not match when the lock file asks for another version',
      () => project(MANIFEST, withEntry(LOCK, 'node_modules/a', entry('a', '1.3.0')), INSTALLED),
      false,
    ],
    [
      'does not match when the lock file adds a package',
      () => project(MANIFEST, withEntry(LOCK, 'node_modules/d', entry('d', '1.0.0')), INSTALLED),
      false,
    ],
    [
      'does not match when a package was installed that the lock file no longer names',
      () => project(MANIFEST, without(LOCK, 'node_modules/b'), INSTALLED),
      false,
    ],
    [
      "does not match when an installed package's folder is gone",
      () => project(MANIFEST, LOCK, INSTALLED, ['node_modules/a']),
      false,
    ],
    [
      'does not match when package.json asks for a dependency the lock file lacks',
      () => project({ ...MANIFEST, dependencies: { a: '^1.0.0', e: '^1.0.0' } }, LOCK, INSTALLED),
      false,
    ],
  ])('%s', (_, make, expected) => {
    expect(installedMatchesLock(make())).toBe(expected);
  });

  it('matches this checkout as npm installed it', () => {
    expect(installedMatchesLock(root)).toBe(true);
  });
});

/**
 * A copy of this project whose node_modules holds links to the real packages and a copy of npm's
 * record, with an `npm` that only notes it was called: the set-up script runs there as
 * `npm start` runs it, without ever installing anything.
 */
function checkoutCopy(): { dir: string; npmCalls: () => number } {
  const dir = tempDir('plantstore-setup-copy-');
  for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(root, file), join(dir, file));
  // Relative to the project: a checkout whose own path holds "corpus" must still be copied.
  cpSync(join(root, 'scripts'), join(dir, 'scripts'), {
    recursive: true,
    filter: (path) => !relative(root, path).includes('corpus'),
  });
  mkdirSync(join(dir, 'node_modules'));
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (name === '.plantstore-setup' || name === '.package-lock.json') continue;
    symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name));
  }
  copyFileSync(join(root, 'node_modules', '.package-lock.json'), join(dir, 'node_modules', '.package-lock.json'));
  const calls = join(dir, 'npm-calls');
  writeFileSync(
    join(dir, 'fake-npm.cjs'),
    `require('node:fs').appendFileSync(${JSON.stringify(calls)}, process.argv.slice(2).join(' ') + '\\n'); process.exit(3);`,
  );
  return { dir, npmCalls: () => (existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n').length : 0) };
}

const runSetup = (dir: string) =>
  spawnSync(process.execPath, [join(dir, 'scripts', 'setup.js')], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, npm_execpath: join(dir, 'fake-npm.cjs') },
  });

describe('the set-up before npm start and npm test', () => {
  it("starts at once after the user's own npm ci, with no stamp of its own, and leaves one", () => {
    const { dir, npmCalls } = checkoutCopy();
    const result = runSetup(dir);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(npmCalls()).toBe(0);
    expect(existsSync(join(dir, 'node_modules', '.plantstore-setup'))).toBe(true);
  });

  it('installs when the lock file changed since', () => {
    const { dir, npmCalls } = checkoutCopy();
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as Lock;
    lock.packages['node_modules/yaml'].version = '0.0.1';
    writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock, null, 2));
    const result = runSetup(dir);
    expect(result.stderr).toContain(
      'plantstore: first run: installing dependencies and a Node 24 for this checkout (npm ci',
    );
    expect(npmCalls()).toBe(1);
    expect(result.status).toBe(3); // the fake npm's failure is passed on
  });

  it('says how long a first install usually takes, then shows progress every few seconds until npm is done', async () => {
    const { dir, npmCalls } = checkoutCopy();
    // One package the lock file asks for is not in place yet: npm has work to do, and the count shows it.
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as Lock;
    lock.packages['node_modules/not-yet-installed'] = { version: '1.0.0' };
    writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock, null, 2));
    const locked = Object.entries(lock.packages).filter(
      ([path, entry]) => path !== '' && !entry.optional && !entry.link,
    ).length;
    // An npm that works until the test lets it go (a file appears), then succeeds.
    const release = join(dir, 'release');
    writeFileSync(
      join(dir, 'slow-npm.cjs'),
      `const fs = require('node:fs'); fs.appendFileSync(${JSON.stringify(join(dir, 'npm-calls'))}, 'ci\\n');
       const timer = setInterval(() => { if (fs.existsSync(${JSON.stringify(release)})) { clearInterval(timer); process.exit(0); } }, 10);`,
    );
    const setup = spawn(process.execPath, [join(dir, 'scripts', 'setup.js')], {
      cwd: dir,
      env: { ...process.env, npm_execpath: join(dir, 'slow-npm.cjs'), PLANTSTORE_SETUP_PROGRESS_MS: '50' },
    });
    let stderr = '';
    setup.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
      // Two progress lines seen: npm may finish.
      if ((stderr.match(/still installing/g) ?? []).length >= 2) writeFileSync(release, '');
    });
    const code = await new Promise((done) => setup.on('exit', done));
    const lines = stderr.trim().split('\n');
    expect(lines[0]).toBe(
      'plantstore: first run: installing dependencies and a Node 24 for this checkout (npm ci --no-audit --no-fund --loglevel=error); this usually takes about 1–2 minutes ...',
    );
    expect(lines[1]).toMatch(
      new RegExp(`^plantstore: still installing \\(\\d+ s\\): ${locked - 1} of ${locked} packages in place \\.\\.\\.$`),
    );
    expect(lines.at(-1)).toMatch(/^plantstore: installed in \d+ s\.$/);
    expect(code).toBe(0);
    expect(npmCalls()).toBe(1);
    expect(existsSync(join(dir, 'node_modules', '.plantstore-setup'))).toBe(true);
  });
});
