// The MSW handlers in a real page: a small app built by Vite from the package as it ships, the
// module `plantstore msw` writes for the grown Plant Store, MSW's service worker registered as
// `npx msw init` would place it, opened in headless Chromium (Debian's; .ci/run installs it).
// One scenario: create, read back, a bad body, a reload with persistence on and one with it off.
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, warnIfNoChromium } from '../helpers/chromium.ts';
import { runCli } from '../helpers/cli.ts';
import { pageProject } from '../helpers/page-project.ts';
import type { StaticServer } from '../helpers/static-server.ts';

warnIfNoChromium(import.meta.url);

const MAIN = `import { setupWorker } from 'msw/browser';
import { createHandlers } from './mocks/plantstore.js';

// ?persist keeps the plants in localStorage across reloads.
const persist = new URLSearchParams(location.search).has('persist');
const handlers = await createHandlers({ persist, baseUrl: '/api' });
await setupWorker(...handlers).start({ onUnhandledRequest: 'bypass', quiet: true });
window.plantstore = handlers;
document.body.dataset.mock = 'ready';
`;

const HTML = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>plantstore msw page</title></head>
<body><script type="module" src="/src/main.js"></script></body></html>
`;

interface Answer {
  status: number;
  type: string | null;
  json: unknown;
}

/** fetch in the page, as the app would call its API. */
const call = (page: Page, method: string, path: string, body?: string): Promise<Answer> =>
  page.evaluate(
    async ([method, path, body]) => {
      const headers: Record<string, string> = { authorization: 'Bearer page-token' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const answer = await fetch(path, { method, headers, body });
      const text = await answer.text();
      return {
        status: answer.status,
        type: answer.headers.get('content-type'),
        json: text ? JSON.parse(text) : undefined,
      };
    },
    [method, path, body] as const,
  );

let site: StaticServer;
let browser: Browser;
const problems: string[] = [];

/** A page of its own (fresh storage) on `query`, once the worker has started. */
async function openApp(query: string, context = browser): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  // Chromium logs every 4xx answer as "Failed to load resource"; the 400 below is one on purpose.
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(`console: ${message.text()}`);
  });
  await page.goto(`${site.url}/${query}`);
  await page.locator('body[data-mock="ready"]').waitFor({ state: 'attached' });
  return page;
}

describe.skipIf(!CHROMIUM)('the MSW handlers in a page, in Chromium', () => {
  beforeAll(async () => {
    const project = pageProject({ 'index.html': HTML, 'src/main.js': MAIN });
    const written = await runCli([
      'msw',
      '--spec',
      'test/documents/plant-store-grown.yaml',
      '--out',
      join(project.dir, 'src', 'mocks', 'plantstore.js'),
    ]);
    expect(written.code, written.stderr).toBe(0);
    site = await project.build(['index.html']);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it('creates a plant with fetch and reads it back, answered by the service worker, not the server', async () => {
    const page = await openApp('');
    const created = page.waitForResponse(
      (response) => response.url().endsWith('/api/plants') && response.request().method() === 'POST',
    );
    expect(await call(page, 'POST', '/api/plants', '{"id":7,"name":"Fern","tag":"shade"}')).toEqual({
      status: 200,
      type: 'application/json',
      json: { name: 'Fern', tag: 'shade' },
    });
    expect((await created).fromServiceWorker()).toBe(true);
    expect(await call(page, 'GET', '/api/plants/7')).toMatchObject({
      status: 200,
      json: { name: 'Fern', tag: 'shade' },
    });
    expect(site.requests.filter((path) => path.startsWith('/api/'))).toEqual([]);
    await page.close();
  });

  it("answers a bad body with 400 in the document's Error shape", async () => {
    const page = await openApp('');
    const answer = await call(page, 'POST', '/api/plants', '{"id":"seven","name":5}');
    expect(answer).toMatchObject({ status: 400, type: 'application/json' });
    expect(Object.keys(answer.json as object).sort()).toEqual(['error', 'message']);
    expect(answer.json).toEqual({ error: 400, message: expect.stringMatching(/\S/) });
    await page.close();
  });

  it('keeps the plants across a reload with persistence on', async () => {
    const context = await browser.newContext();
    const page = await openApp('?persist', context as unknown as Browser);
    expect((await call(page, 'POST', '/api/plants', '{"id":9007199254740993,"name":"Big"}')).status).toBe(200);
    await page.reload();
    await page.locator('body[data-mock="ready"]').waitFor({ state: 'attached' });
    expect(await call(page, 'GET', '/api/plants')).toMatchObject({ status: 200, json: [{ name: 'Big' }] });
    expect(await call(page, 'GET', '/api/plants/9007199254740993')).toMatchObject({
      status: 200,
      json: { name: 'Big' },
    });
    await context.close();
  });

  it('starts empty after a reload with persistence off', async () => {
    const context = await browser.newContext();
    const page = await openApp('', context as unknown as Browser);
    expect((await call(page, 'POST', '/api/plants', '{"id":3,"name":"Moss"}')).status).toBe(200);
    expect((await call(page, 'GET', '/api/plants')).json).toEqual([{ name: 'Moss' }]);
    await page.reload();
    await page.locator('body[data-mock="ready"]').waitFor({ state: 'attached' });
    expect(await call(page, 'GET', '/api/plants')).toMatchObject({ status: 200, json: [] });
    await context.close();
  });

  it('carries out through the service worker what a page can see of the unhappy path', async () => {
    const page = await openApp('');
    const seen = (prefer: string) =>
      page.evaluate(async (prefer) => {
        const started = performance.now();
        try {
          const answer = await fetch('/api/plants', { headers: { authorization: 'Bearer page-token', prefer } });
          const pieces: number[] = [];
          const reader = answer.body!.getReader();
          try {
            for (let read = await reader.read(); !read.done; read = await reader.read()) pieces.push(read.value.length);
          } catch (error) {
            return { status: answer.status, bodyError: (error as Error).name, ms: performance.now() - started };
          }
          return { status: answer.status, pieces: pieces.length, ms: performance.now() - started };
        } catch (error) {
          return { error: (error as Error).name, ms: performance.now() - started };
        }
      }, prefer);
    const delayed = await seen('delay=300');
    expect(delayed).toMatchObject({ status: 200 });
    expect(delayed.ms).toBeGreaterThanOrEqual(299);
    expect(await seen('fault=reset')).toMatchObject({ error: 'TypeError' });
    expect(await seen('fault=close')).toMatchObject({ error: 'TypeError' });
    expect(await seen('fault=malformed')).toMatchObject({ status: 200, bodyError: 'TypeError' });
    // The worker passes the stream on as it comes: the page reads the pieces one by one.
    expect(await seen('fault=slow-body')).toMatchObject({ status: 200, pieces: 10 });
    await page.close();
  });

  it('saw no error in any page', () => {
    expect(problems).toEqual([]);
  });
});
