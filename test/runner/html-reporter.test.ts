// The HTML page, read as text: escaped, self-contained, grouped by operation, listing what no case
// reached. (html-report-browser.test.ts looks at the same page the way a person does.)
import { describe, expect, it } from 'vitest';
import type { CaseResult, StepResult, VerifyReport } from '../../src/runner/report.ts';
import { renderHtml } from '../../src/runner/reporters/html.ts';
import { REPORTER_NAMES } from '../../src/runner/reporters/index.ts';

const OPERATIONS = [
  { operationId: 'createJob', method: 'POST', path: '/jobs' },
  { operationId: 'listJobs', method: 'GET', path: '/jobs' },
  { operationId: 'getReport', method: 'GET', path: '/reports' },
  { operationId: 'deleteJob', method: 'DELETE', path: '/jobs/{id}' },
];

const step = (operationId: string | undefined, partial: Partial<StepResult> = {}): StepResult => ({
  name: 'request',
  operationId,
  durationMs: 2,
  findings: [],
  request: { method: 'GET', path: '/jobs', query: '', headers: {} },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body: [] },
  ...partial,
});

const testCase = (id: string, status: CaseResult['status'], steps: StepResult[], name = id): CaseResult => ({
  id,
  name,
  source: 'fixtures/jobs.yaml',
  status,
  durationMs: 3,
  steps,
  failures: steps.flatMap((s) => s.findings).filter((f) => f.severity === 'failure').length,
  warnings: steps.flatMap((s) => s.findings).filter((f) => f.severity === 'warning').length,
});

const failing = step('createJob', {
  request: {
    method: 'POST',
    path: '/jobs',
    query: 'x=<1>',
    headers: { authorization: 'Bearer [redacted]' },
    body: { name: '</pre><script>alert(1)</script>' },
  },
  response: { status: 200, headers: {}, body: { name: '</pre><script>alert(1)</script>', note: 'x'.repeat(20_000) } },
  findings: [
    {
      code: 'unexpected-status',
      severity: 'failure',
      message: 'expected status 400, got 200',
      expected: 400,
      actual: 200,
    },
  ],
  curl: `curl -sS -i -X POST 'http://127.0.0.1:4010/jobs?x=<1>' -H 'authorization: Bearer '"$PLANTSTORE_TOKEN"`,
});

const report: VerifyReport = {
  reportVersion: 1,
  target: 'http://127.0.0.1:4010/',
  spec: 'jobs.yaml',
  seed: 1,
  strict: false,
  startedAt: '2026-11-25T10:00:00.000Z',
  durationMs: 1234,
  outcome: 'failed',
  summary: { total: 4, passed: 2, failed: 1, skipped: 1, warned: 0 },
  cases: [
    testCase('rejects <b>bad</b> & "odd" names', 'failed', [failing]),
    testCase('lists jobs', 'passed', [step('listJobs')]),
    testCase('a job lives and dies', 'passed', [
      step('createJob', { name: 'create' }),
      step('listJobs', { name: 'find-in-list' }),
    ]),
    { ...testCase('not run', 'skipped', []), skipReason: 'after the first failure (--bail)' },
  ],
  uncovered: [
    {
      operationId: 'deleteJob',
      method: 'DELETE',
      path: '/jobs/{id}',
      reason: 'no generator for its request body (application/xml); write a fixture for it',
    },
  ],
};

const html = renderHtml(report, OPERATIONS);

describe('the HTML report', () => {
  it('is a registered reporter, so --reporter html and --html FILE both write it', () => {
    expect(REPORTER_NAMES).toContain('html');
  });

  it('escapes every text from the report: a hostile body or case name stays text', () => {
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('rejects &lt;b&gt;bad&lt;/b&gt; &amp; &quot;odd&quot; names');
    expect(html).not.toContain('<b>bad</b>');
  });

  it('loads nothing from anywhere: no script, stylesheet, image or link to another origin, and a policy forbidding them', () => {
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">/,
    );
    expect(html).not.toMatch(/<(?:script|link|img|iframe|object)\b/i);
    expect(html).not.toMatch(/\b(?:src|href)="(?!#)/);
  });

  it('shows a failure with its request, answer, diff and curl command', () => {
    const failure = html.slice(html.indexOf('id="case-0"'), html.indexOf('</details>', html.indexOf('id="case-0"')));
    expect(failure).toContain(' open>');
    expect(failure).toContain('<span class="expected">- expected status: 400</span>');
    expect(failure).toContain('<span class="actual">+ actual   status: 200</span>');
    expect(failure).toContain('POST /jobs?x=&lt;1&gt;\nauthorization: Bearer [redacted]');
    expect(failure).toContain('curl -sS -i -X POST');
    expect(failure).toContain('&quot;$PLANTSTORE_TOKEN&quot;');
    expect(failure).toMatch(/… \(\d+ more characters; the JSON report has them all\)/);
  });

  it('groups cases by the one operation they reach; sequences across operations and cases not run apart', () => {
    const headings = [...html.matchAll(/<section class="operation"><h3>([^<]*)/g)].map((m) => m[1].trim());
    expect(headings).toEqual(['POST /jobs', 'GET /jobs', 'Sequences across operations', 'Cases not run']);
  });

  it("lists the operations no case reached, with the generator's reason where it gave one", () => {
    const table = html.slice(html.indexOf('id="uncovered"'), html.indexOf('id="cases"'));
    expect(table).toContain('Operations no case covered (2)');
    expect(table).toContain(
      '<td class="method">GET</td><td><code>/reports</code></td><td>getReport</td><td>no case sent a request to it (add a fixture, or --generate N)</td>',
    );
    expect(table).toContain(
      '<td>deleteJob</td><td>no generator for its request body (application/xml); write a fixture for it</td>',
    );
    expect(html).toContain('<dt>operations covered</dt><dd>2 of 4</dd>');
  });

  it('links every failed case from the summary', () => {
    expect(html).toContain(
      '<ol class="failed-list">\n<li><a href="#case-0">rejects &lt;b&gt;bad&lt;/b&gt; &amp; &quot;odd&quot; names</a></li>\n</ol>',
    );
  });

  it('turns control characters into U+FFFD', () => {
    const odd = renderHtml({ ...report, target: 'http://h/\u0001\u001b[31m' }, OPERATIONS);
    expect(odd).toContain('http://h/\uFFFD\uFFFD[31m');
  });
});
