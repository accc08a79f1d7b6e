// The contract battery inside a page in Chromium (Debian's; .ci/run installs it): every suite's
// handlers (the packaged plantstore/msw, each document as `plantstore msw` writes it) behind one
// service worker, each suite under its own base path, and the battery run by the page itself,
// sending with the page's fetch. Every case that applies to MSW must pass, as in Node.
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { prepareDocument, preparedModule } from '../../src/msw/prepare.ts';
import {
  BATTERY_DOCUMENTS,
  BATTERY_SUITES,
  casesFor,
  type BatteryResult,
  type SuiteId,
} from '../battery/contract-battery.ts';
import { CHROMIUM, warnIfNoChromium } from '../helpers/chromium.ts';
import { pageProject } from '../helpers/page-project.ts';
import type { StaticServer } from '../helpers/static-server.ts';

warnIfNoChromium(import.meta.url);

const HTML = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>plantstore battery</title></head>
<body><script type="module" src="/src/battery.js"></script></body></html>
`;

// The page's transport: what test/battery/node-transports.ts does with setupServer, with setupWorker.
const BATTERY = `import { http } from 'msw';
import { setupWorker } from 'msw/browser';
import { BATTERY_SUITES, runBattery } from ${JSON.stringify(resolve('test/battery/contract-battery.ts'))};
import { parseJson, stringifyJson } from ${JSON.stringify(resolve('src/json/exact-json.ts'))};
import { byDocument } from './mocks/index.js';

const UNHANDLED = 'x-battery-unhandled';
const base = (suite) => '/b/' + suite;

async function fetchAnswer(suite, request) {
  const url = base(suite) + request.path + (request.query ? '?' + request.query : '');
  const response = await fetch(url, {
    method: request.method,
    headers: request.headers ?? {},
    body: request.body === undefined ? undefined : new TextEncoder().encode(request.body),
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const headers = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const unhandled = headers[UNHANDLED] === '1';
  return { status: response.status, headers, text: new TextDecoder().decode(bytes), bytes, ...(unhandled ? { unhandled } : {}) };
}

function transportFor(suite, handlers) {
  return {
    kind: 'msw',
    send: (request) => fetchAnswer(suite, request),
    async seed(collectionsJson) {
      const parsed = parseJson(collectionsJson);
      if (!parsed.ok) throw new Error('not JSON: ' + parsed.message);
      try {
        await handlers.state.seed(parsed.value);
        return { ok: true };
      } catch (error) {
        return { ok: false, message: error.message };
      }
    },
    state: async () => stringifyJson(handlers.state.list()),
    async reset() {
      await handlers.state.reset();
      handlers.journal.clear();
    },
    journal: async () => handlers.journal.list(),
  };
}

const handlersOf = {};
for (const [suite, { document, options }] of Object.entries(BATTERY_SUITES))
  handlersOf[suite] = await byDocument[document]({ ...options, baseUrl: base(suite) });
// After the mock's handlers, as an application's own would sit: marks what they leave alone.
const fallback = http.all('/b/*', () => new Response(null, { status: 599, headers: { [UNHANDLED]: '1' } }));
await setupWorker(...Object.values(handlersOf).flat(), fallback).start({ onUnhandledRequest: 'bypass', quiet: true });
window.runSuite = (suite) => runBattery(transportFor(suite, handlersOf[suite]), { suite });
document.body.dataset.mock = 'ready';
`;

/** One prepared module per document, as `plantstore msw` writes it, and an index of them. */
async function preparedModules(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const index: string[] = [];
  for (const [n, document] of BATTERY_DOCUMENTS.entries()) {
    const prepared = await prepareDocument(await loadSpec(resolve(document)));
    files[`src/mocks/document-${n}.js`] = preparedModule(
      prepared,
      `plantstore msw --spec ${document} --out src/mocks/document-${n}.js`,
    ).js;
    index.push(`  ${JSON.stringify(document)}: (await import('./document-${n}.js')).createHandlers,`);
  }
  files['src/mocks/index.js'] = `export const byDocument = {\n${index.join('\n')}\n};\n`;
  return files;
}

let site: StaticServer;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const suites = Object.keys(BATTERY_SUITES) as SuiteId[];

describe.skipIf(!CHROMIUM)('the contract battery, run by a page in Chromium against the MSW handlers', () => {
  beforeAll(async () => {
    const project = pageProject({ 'battery.html': HTML, 'src/battery.js': BATTERY, ...(await preparedModules()) });
    site = await project.build(['battery.html']);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
    page = await browser.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(`${site.url}/battery.html`);
    await page.locator('body[data-mock="ready"]').waitFor({ state: 'attached' });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it.each(suites)('passes every case of %s that applies to MSW', async (suite) => {
    const results = await page.evaluate(
      (suite) => (globalThis as unknown as { runSuite(s: string): Promise<BatteryResult[]> }).runSuite(suite),
      suite,
    );
    expect(results.map((result) => result.name)).toEqual(casesFor(suite, 'msw').map((c) => c.name));
    expect(results.filter((result) => !result.ok)).toEqual([]);
  });

  it('saw no error in the page', () => {
    expect(problems).toEqual([]);
  });
});
