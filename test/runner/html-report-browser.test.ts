// `plantstore verify --html FILE`, opened in headless Chromium (Debian's package; .ci/run installs
// it): what a person sees, not what the text holds. One scenario: the plantstore mock of a small
// document, one fixture that passes, one that expects the wrong status, one operation left alone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { CHROMIUM, warnIfNoChromium } from '../helpers/chromium.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

// Loud on purpose when skipped: CI (.ci/run) installs chromium first.
warnIfNoChromium(import.meta.url);

const TOKEN = 'tok-html-5e1d0c9b-secret';
const FIXTURES = `
- name: creates a job named <b>nightly</b>
  request:
    method: POST
    path: /jobs
    headers:
      Authorization: Bearer {{token}}
    body:
      name: "nightly {{token}} </pre><script>document.title = 'script ran'</script>"
  expect:
    status: 201

- name: lists jobs, expecting a status the server does not send
  request:
    method: GET
    path: /jobs
  expect:
    status: 204
`;

const dir = tempDir('plantstore-html-');
const file = join(dir, 'out', 'verify.html');
let mock: MockServer;
let run: CliResult;
let browser: Browser;
let page: Page;
const fetched: string[] = [];

describe.skipIf(!CHROMIUM)('verify --html, seen in a browser', () => {
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, spec: 'test/documents/forced-errors.yaml' });
    writeFileSync(join(dir, 'jobs.yaml'), FIXTURES);
    run = await runCli([
      'verify',
      '--target',
      mock.url,
      '--spec',
      'test/documents/forced-errors.yaml',
      '--fixtures',
      join(dir, 'jobs.yaml'),
      '--token',
      TOKEN,
      '--html',
      file,
    ]);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('request', (request) => fetched.push(request.url()));
    await page.goto(pathToFileURL(file).href);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await mock?.close();
  });

  it('was written by the run, which failed (exit 1) on the wrong expectation', () => {
    expect(run.code, run.stderr).toBe(1);
    expect(existsSync(file)).toBe(true);
  });

  it('loads nothing but itself, and runs no script from an answer', async () => {
    expect(fetched).toEqual([pathToFileURL(file).href]);
    expect(await page.title()).toMatch(/^plantstore verify: FAILED, 1 failed of 2/);
  });

  it('shows the summary counts', async () => {
    const count = (kind: string) => page.locator(`#summary .count.${kind} dd`).innerText();
    expect([await count('total'), await count('passed'), await count('failed'), await count('covered')]).toEqual([
      '2',
      '1',
      '1',
      '2 of 3',
    ]);
    await expect.poll(() => page.locator('.verdict').innerText()).toBe('FAILED');
  });

  it('shows the failure open, with its diff, request, answer and curl command visible', async () => {
    const failure = page.locator('details.case.fail');
    expect(await failure.count()).toBe(1);
    const diff = failure.locator('pre.diff');
    expect(await diff.isVisible()).toBe(true);
    expect(await diff.innerText()).toBe('- expected status: 204\n+ actual   status: 200');
    expect(await failure.locator('pre.request').innerText()).toMatch(/^GET \/jobs/);
    expect(await failure.locator('pre.response').innerText()).toMatch(/^200\n/);
    expect(await failure.locator('pre.curl').isVisible()).toBe(true);
    expect(await failure.locator('pre.curl').innerText()).toMatch(
      /^curl -sS -i -X GET 'http:\/\/127\.0\.0\.1:\d+\/jobs'/,
    );
  });

  it('lists the operation no case covered', async () => {
    const row = page.locator('#uncovered tbody tr');
    expect(await row.count()).toBe(1);
    expect(await row.isVisible()).toBe(true);
    expect((await row.innerText()).split('\t').map((cell) => cell.trim())).toEqual([
      'GET',
      '/reports',
      'getReport',
      'no case sent a request to it (add a fixture, or --generate N)',
    ]);
  });

  it('groups the cases under their operations, the passing one folded until clicked', async () => {
    expect(await page.locator('section.operation h3').allInnerTexts()).toEqual([
      expect.stringMatching(/^GET \/jobs listJobs\s+1 failed$/),
      expect.stringMatching(/^POST \/jobs createJob\s+1 passed$/),
    ]);
    const passing = page.locator('details.case.pass');
    const line = passing.locator('.step-line');
    expect(await line.isVisible()).toBe(false);
    await passing.locator('summary').click();
    expect(await line.isVisible()).toBe(true);
    expect(await line.innerText()).toMatch(/^POST \/jobs -> 201 \(createJob, \d+ ms\)$/);
  });

  it('shows a case name holding markup as the text it is', async () => {
    expect(await page.locator('details.case.pass summary').innerText()).toContain('creates a job named <b>nightly</b>');
    expect(await page.locator('summary b').count()).toBe(0);
  });

  it('never shows the token, in the page or in the file', async () => {
    for (const details of await page.locator('details').all())
      await details.evaluate((element) => element.setAttribute('open', ''));
    expect(await page.locator('body').innerText()).not.toContain(TOKEN);
    expect(readFileSync(file, 'utf8')).not.toContain(TOKEN);
  });
});
