// The README's "Frontend: MSW" recipe, followed word for word in a fresh Vite project: the files in
// test/msw/vite-recipe/ (package.json, index.html and src/main.js: `npm create vite`'s vanilla app, cut down),
// then its commands with the package installed from `npm pack` of this checkout:
//   npm install -D msw plantstore-0.1.0.tgz (and vite, which the cut-down app lacks)
//   npx msw init public --save
//   npx plantstore msw --spec openapi.yaml --out src/mocks/plantstore.js
//   npm run dev                (and `npx vite build --mode mock`, `npm run build`)
// and the app used in headless Chromium (Debian's; .ci/run installs it). The install comes from
// npm's cache when `npm ci` filled it (--prefer-offline), with install scripts off: msw's own copies
// its worker only where package.json asks, which `npx msw init public --save` does here, and the
// packed-package test (test/package/consumer.test.ts) covers an install with scripts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtPackage } from '../../bench/msw/built-package.ts';
import { CHROMIUM, warnIfNoChromium } from '../helpers/chromium.ts';
import { serveFolder } from '../helpers/static-server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

warnIfNoChromium(import.meta.url);

const root = resolve('.');
const version = (name: string) =>
  (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
// The commands run on this Node (24): npx, the plantstore command and Vite find it first on PATH.
// Without vitest's NODE_ENV=test, which would make `vite build` a development build, as a user's shell would.
const env = Object.fromEntries(
  Object.entries({
    ...process.env,
    PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}`,
    NO_COLOR: '1',
  }).filter(([name]) => name !== 'NODE_ENV' && !name.startsWith('VITEST')),
);

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout + result.stderr;
}

const npmQuiet = ['--loglevel=error', '--no-audit', '--no-fund', '--no-update-notifier'];
const app = tempDir('plantstore-vite-app-');
let dev: ChildProcess;
/** What the dev server printed. */
let output = '';
let url: string;
let browser: Browser;
let page: Page;
const problems: string[] = [];

/** `npm run dev` (vite), resolved with the URL it prints. */
function startDevServer(): Promise<string> {
  dev = spawn(
    process.execPath,
    [join(app, 'node_modules', 'vite', 'bin', 'vite.js'), '--host', '127.0.0.1', '--port', '0', '--strictPort'],
    {
      cwd: app,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((started, failed) => {
    dev.stdout!.on('data', (chunk) => {
      output += chunk;
      const local = /Local:\s+(http:\/\/\S+?)\/?\s/.exec(output);
      if (local) started(local[1]);
    });
    dev.stderr!.on('data', (chunk) => (output += chunk));
    dev.once('exit', (code) => failed(new Error(`vite exited (${code}) before it was ready:\n${output}`)));
  });
}

/** Does `action`, and waits for the app's list request it causes, which the worker must answer. */
async function listedAfter(action: () => Promise<unknown>): Promise<void> {
  const listed = page.waitForResponse(
    (response) => response.url().endsWith('/api/plants') && response.request().method() === 'GET',
  );
  await action();
  expect((await listed).fromServiceWorker()).toBe(true);
}

/** A new page whose errors are kept for the last test. */
async function watchedPage(): Promise<Page> {
  const opened = await browser.newPage();
  opened.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  // Chromium logs every 4xx answer as "Failed to load resource"; the 400 below is one on purpose.
  opened.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(`console: ${message.text()}`);
  });
  return opened;
}

const shownPlants = () => page.locator('#plants li').allInnerTexts();

describe.skipIf(!CHROMIUM)("the README's Vite recipe, in a fresh project", () => {
  beforeAll(async () => {
    const packed = tempDir('plantstore-vite-pack-');
    run('npm', ['pack', '--ignore-scripts', '--pack-destination', packed, ...npmQuiet], builtPackage());
    const tarball = join(packed, readdirSync(packed)[0]);
    cpSync(join(root, 'test', 'msw', 'vite-recipe'), app, { recursive: true });
    copyFileSync(join(root, 'test', 'documents', 'plant-store-grown.yaml'), join(app, 'openapi.yaml'));
    run(
      'npm',
      [
        'install',
        '-D',
        '--ignore-scripts',
        '--prefer-offline',
        ...npmQuiet,
        tarball,
        `msw@${version('msw')}`,
        `vite@${version('vite')}`,
      ],
      app,
    );
    run('npx', ['--no-install', 'msw', 'init', 'public', '--save'], app);
    run(
      'npx',
      ['--no-install', 'plantstore', 'msw', '--spec', 'openapi.yaml', '--out', 'src/mocks/plantstore.js'],
      app,
    );
    url = await startDevServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
    page = await watchedPage();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    dev?.kill();
  });

  it('left the worker in public/ and its folder in package.json, and the module beside its types', () => {
    expect(readdirSync(join(app, 'public'))).toEqual(['mockServiceWorker.js']);
    expect(JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).msw).toEqual({ workerDirectory: ['public'] });
    expect(readdirSync(join(app, 'src', 'mocks')).sort()).toEqual(['plantstore.d.ts', 'plantstore.js']);
  });

  it('shows an empty list, answered by the mock in the service worker', async () => {
    await listedAfter(() => page.goto(url));
    expect(await shownPlants()).toEqual([]);
  });

  it('adds a plant through the form and lists it', async () => {
    await page.fill('input[name=id]', '7');
    await page.fill('input[name=name]', 'Fern');
    await listedAfter(() => page.click('button'));
    await expect.poll(shownPlants).toEqual(['Fern']);
    expect(await page.locator('#problem').innerText()).toBe('');
  });

  it("shows the mock's 400 message for an id that is not an integer", async () => {
    await page.fill('input[name=id]', '1.5');
    await page.fill('input[name=name]', 'Moss');
    await listedAfter(() => page.click('button'));
    await expect.poll(() => page.locator('#problem').innerText()).toMatch(/\bid\b/);
    expect(await shownPlants()).toEqual(['Fern']);
  });

  it('still lists the plant after a reload (persist: true)', async () => {
    await listedAfter(() => page.reload());
    await expect.poll(shownPlants).toEqual(['Fern']);
  });

  it('leaves the mock out of a production build (npm run build)', () => {
    run(process.execPath, [join(app, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], app);
    const assets = readdirSync(join(app, 'dist', 'assets')).filter((file) => file.endsWith('.js'));
    expect(assets.length).toBeGreaterThan(0);
    const code = assets.map((file) => readFileSync(join(app, 'dist', 'assets', file), 'utf8')).join('\n');
    expect(code).toContain('/plants');
    expect(code).not.toContain('OpenAPI Plant Store (grown)');
    expect(code).not.toContain('setupWorker');
    expect(code.length).toBeLessThan(10_000);
  });

  it('runs the mock from a `vite build --mode mock` build too, served as static files', async () => {
    run(
      process.execPath,
      [
        join(app, 'node_modules', 'vite', 'bin', 'vite.js'),
        'build',
        '--mode',
        'mock',
        '--outDir',
        'dist-mock',
        '--logLevel',
        'error',
      ],
      app,
    );
    const site = await serveFolder(join(app, 'dist-mock'));
    try {
      page = await watchedPage(); // another origin (port): its own worker and storage
      await listedAfter(() => page.goto(site.url));
      await page.fill('input[name=id]', '8');
      await page.fill('input[name=name]', 'Ivy');
      await listedAfter(() => page.click('button'));
      await expect.poll(shownPlants).toEqual(['Ivy']);
      expect(site.requests.filter((path) => path.startsWith('/api'))).toEqual([]);
    } finally {
      await site.close();
    }
  });

  it('printed no warning while it served and bundled the dependencies (no Node built-in externalized)', () => {
    expect(output).not.toMatch(/warn|error|externalized|failed/i);
  });

  it('saw no error in the page', () => {
    expect(problems).toEqual([]);
  });
});
