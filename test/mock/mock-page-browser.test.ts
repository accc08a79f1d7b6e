// The /__mock/ page in headless Chromium (Debian's; .ci/run installs it), as a frontend developer
// uses it: a refused request and why, seeding and resetting state, and a latency switch that the
// next request feels.
import { chromium, type Browser, type Page } from 'playwright-core';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { CHROMIUM, warnIfNoChromium } from '../helpers/chromium.ts';
import { startProxyServer } from '../../src/proxy/proxy-server.ts';
import { startPlantServer } from '../fixtures-servers/plant-server.ts';

warnIfNoChromium(import.meta.url);

const DOC = 'test/documents/unhappy-path.yaml';
let server: MockServer;
let browser: Browser;
const problems: string[] = [];

async function openPage(): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      problems.push(`console: ${message.text()}`);
  });
  await page.goto(`${server.url}/__mock/`);
  return page;
}

const stored = async () =>
  ((await (await request(`${server.url}/__mock/state`)).body.json()) as { collections: Record<string, unknown[]> })
    .collections;

describe.skipIf(!CHROMIUM)('the /__mock/ page in Chromium', () => {
  beforeAll(async () => {
    server = await startMockServer({ spec: DOC, port: 0 });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    expect(problems).toEqual([]);
  });

  it('shows a refused request with the check that refused it and the pointer', async () => {
    const refused = await request(`${server.url}/plants`, {
      method: 'POST',
      body: '{"id":1,"name":""}',
      headers: { 'content-type': 'application/json' },
    });
    expect(refused.statusCode).toBe(400);
    await refused.body.dump();
    const page = await openPage();
    const row = page
      .locator('#requests tr.request')
      .filter({ has: page.locator('td', { hasText: /^POST \/plants$/ }) })
      .first();
    await row.waitFor();
    await expect.poll(() => row.textContent()).toContain('400');
    expect(await row.textContent()).toContain('The request body does not fit its schema');
    expect(await row.locator('code').allTextContents()).toContain('/name');
    // The page itself leaves nothing in the journal (no favicon request).
    expect(server.engine.journal.entries().map((entry) => entry.path)).toEqual(['/plants']);
    await page.close();
  });

  it('seeds a collection and resets the state', async () => {
    const page = await openPage();
    const plants = page.locator('details.collection[data-name="/plants"]');
    await plants.locator('summary').click();
    await plants.locator('textarea').fill('[{"id": 5, "name": "Ivy"}, {"id": 6, "name": "Moss"}]');
    await plants.locator('button.seed').click();
    await page.locator('#message', { hasText: 'Seeded /plants.' }).waitFor();
    await expect.poll(() => plants.locator('.count').textContent()).toBe('2 records');
    expect((await stored())['/plants']).toEqual([
      { id: 5, name: 'Ivy' },
      { id: 6, name: 'Moss' },
    ]);
    await page.locator('#reset-state').click();
    await page.locator('#message', { hasText: 'State reset' }).waitFor();
    await expect.poll(() => plants.locator('.count').textContent()).toBe('0 records');
    expect((await stored())['/plants'] ?? []).toEqual([]);
    await page.close();
  });

  it('sets a latency switch that the next request feels, and clears it', async () => {
    const page = await openPage();
    const latency = page.getByLabel('latency of GET /plants', { exact: true });
    await latency.fill('400');
    await latency.press('Enter');
    await page.locator('#message', { hasText: 'GET /plants: latency 400' }).waitFor();
    const started = performance.now();
    const answer = await request(`${server.url}/plants`);
    await answer.body.dump();
    expect(answer.statusCode).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(399);
    // Other operations are not slowed: the switch is per operation.
    const switches = (await (await request(`${server.url}/__mock/switches`)).body.json()) as {
      operations: Array<{ operation: string; switch: { latency: string | null } }>;
    };
    expect(switches.operations.filter((op) => op.switch.latency !== null).map((op) => op.operation)).toEqual([
      'GET /plants',
    ]);
    await latency.fill('');
    await latency.press('Enter');
    await page.locator('#message', { hasText: 'GET /plants: latency as before' }).waitFor();
    await page.close();
  });

  it('sets a fault switch: the next request to the operation gets it', async () => {
    const page = await openPage();
    await page.getByLabel('fault of GET /plants', { exact: true }).selectOption('503');
    await page.locator('#message', { hasText: 'fault 503' }).waitFor();
    const answer = await request(`${server.url}/plants`);
    expect(answer.statusCode).toBe(503);
    expect(await answer.body.json()).toEqual({
      error: 503,
      message: expect.stringContaining("the /__mock/ page's fault switch for GET /plants"),
    });
    await page.getByLabel('fault of GET /plants', { exact: true }).selectOption('');
    await page.locator('#message', { hasText: 'fault none' }).waitFor();
    expect((await request(`${server.url}/plants`)).statusCode).toBe(200);
    await page.close();
  });

  it("shows the proxy's violations by operation, and the exchange's own on its request", async () => {
    const upstream = await startPlantServer('missing-required-field');
    const proxy = await startProxyServer({ upstream: upstream.url, port: 0 });
    try {
      const answer = await request(`${proxy.url}/plants`, {
        method: 'POST',
        body: '{"id": 1, "name": "Fern"}',
        headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
      });
      await answer.body.dump();
      const page = await browser.newPage();
      await page.goto(`${proxy.url}/__mock/`);
      const row = page.locator('#violations tbody tr').first();
      await row.waitFor();
      expect(await row.textContent()).toMatch(/^createPlantresponse\/missing-required-\S+1$/);
      await expect.poll(() => page.locator('#requests tr.request').first().textContent()).toContain('response ');
      // The mock's own switches are not the proxy's.
      expect(await page.locator('#switches-section').isHidden()).toBe(true);
      await page.close();
    } finally {
      await proxy.close();
      await upstream.close();
    }
  });
});
