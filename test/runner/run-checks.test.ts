// The checks beside the contract: credentials that are wrong but present, an undeclared method,
// a slow answer, look-alike paths, the time budget, and the files of a run (NDJSON exchanges, the
// HTML coverage grid), each on a small server written for the test.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verify, type VerifyReport } from '../../src/runner/index.ts';
import { smaller } from '../../src/runner/run/shrink.ts';
import { startHistoryServer, type HistoryServer } from '../fixtures-servers/history-server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const SPEC = 'test/documents/hostile-history.yaml';
let server: HistoryServer | undefined;
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await server?.close();
  await close?.();
  server = undefined;
  close = undefined;
});

const failures = (report: VerifyReport) => (report.faults ?? []).filter((fault) => fault.severity === 'failure');

describe('auth ignored', () => {
  it('fails a server that answers malformed credentials as if they were right', async () => {
    // Any Authorization at all will do for this server; none gets a 401.
    const http = createServer((req, res) => {
      res.writeHead(req.headers.authorization ? 200 : 401, { 'content-type': 'application/json' });
      res.end(req.headers.authorization ? '{"name":"me"}' : '{"error":"who are you"}');
    });
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
    close = () => new Promise((done) => http.close(() => done()));
    const report = await verify({
      target: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
      spec: 'test/documents/bearer-me.yaml',
      token: 't0ken',
      generate: 1,
    });
    expect(failures(report).map((fault) => `${fault.check} ${fault.signature}`)).toEqual([
      'auth-ignored expected 4xx, got 200 · wrong-credentials',
    ]);
  });
});

describe('auth ignored, for API keys in a header, the query and a cookie', () => {
  const KEYS = { headerKey: 'h-key-1', queryKey: 'q-key-2', cookieKey: 'c-key-3' };
  /** The key each path takes, as the server reads it. */
  const keyOf = (req: import('node:http').IncomingMessage): string | undefined => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/by-header') return req.headers['x-api-key'] as string | undefined;
    if (url.pathname === '/by-query') return url.searchParams.get('api_key') ?? undefined;
    const cookie = /(?:^|;\s*)session=([^;]*)/.exec(req.headers.cookie ?? '');
    return cookie?.[1];
  };
  const RIGHT: Record<string, string> = { '/by-header': 'h-key-1', '/by-query': 'q-key-2', '/by-cookie': 'c-key-3' };

  async function serve(accepts: (key: string | undefined, path: string) => boolean): Promise<string> {
    const http = createServer((req, res) => {
      const ok = accepts(keyOf(req), new URL(req.url ?? '/', 'http://x').pathname);
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(ok ? '{"name":"me"}' : '{}');
    });
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
    close = () => new Promise((done) => http.close(() => done()));
    return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  }
  const run = (target: string, strict = false) =>
    verify({ target, spec: 'test/documents/api-keys.yaml', auth: KEYS, generate: 1, hostile: 0, strict });
  const signatures = (report: VerifyReport, severity: 'failure' | 'warning') =>
    (report.faults ?? [])
      .filter((fault) => fault.severity === severity && fault.check === 'auth-ignored')
      .map((fault) => `${fault.operationId} ${fault.signature}`)
      .sort();

  it('fails a server that takes an empty key as a key, in every place', async () => {
    const report = await run(await serve((key) => key !== undefined));
    expect(signatures(report, 'failure')).toEqual([
      'byCookie expected 4xx, got 200 · wrong-credentials',
      'byHeader expected 4xx, got 200 · wrong-credentials',
      'byQuery expected 4xx, got 200 · wrong-credentials',
    ]);
  });

  it('warns of a server that takes any key it was not given, and fails it under --strict', async () => {
    const target = await serve((key) => key !== undefined && key !== '');
    const lenient = await run(target);
    expect(failures(lenient)).toEqual([]);
    expect(signatures(lenient, 'warning')).toEqual([
      'byCookie expected 4xx, got 200 · wrong-api-key',
      'byHeader expected 4xx, got 200 · wrong-api-key',
      'byQuery expected 4xx, got 200 · wrong-api-key',
    ]);
    expect(signatures(await run(target, true), 'failure')).toHaveLength(3);
  });

  it('passes a server that takes only the key it was given, and never shows the key', async () => {
    const report = await run(await serve((key, path) => key === RIGHT[path]));
    expect((report.faults ?? []).filter((fault) => fault.check !== 'unsupported-method')).toEqual([]);
    expect(report.cases.filter((c) => /wrong-(credentials|api-key)$/.test(c.id))).toHaveLength(6);
    expect(JSON.stringify(report)).not.toMatch(/[hqc]-key-\d/);
  });
});

describe('an undeclared method', () => {
  it('is answered 405 with Allow by a correct server', async () => {
    server = await startHistoryServer();
    const report = await verify({ target: server.url, spec: SPEC, generate: 1, hostile: 0, strict: true });
    const probes = report.cases.filter((c) => c.id.startsWith('generated/unsupported-method/'));
    expect(probes.map((c) => `${c.name} ${c.status}`)).toEqual([
      'DELETE /history: answers an undeclared method with 405 and Allow passed',
      'DELETE /countries/{country}: answers an undeclared method with 405 and Allow passed',
      'DELETE /countries/{countries}: answers an undeclared method with 405 and Allow passed',
      'DELETE /notes: answers an undeclared method with 405 and Allow passed',
    ]);
  });

  it('answered 404 warns, as one fault for the run, and fails under --strict', async () => {
    server = await startHistoryServer('no-405');
    const lenient = await verify({ target: server.url, spec: SPEC, generate: 1, hostile: 0 });
    expect(failures(lenient)).toEqual([]);
    const warned = (lenient.faults ?? []).find((fault) => fault.check === 'unsupported-method');
    expect(warned).toMatchObject({
      severity: 'warning',
      operationId: '*',
      signature: 'answered 404 without Allow',
      count: 4,
    });
    const strict = await verify({ target: server.url, spec: SPEC, generate: 1, hostile: 0, strict: true });
    expect(failures(strict).map((fault) => `${fault.check} ${fault.signature} ${fault.count}`)).toContain(
      'unsupported-method answered 404 without Allow 4',
    );
  });
});

describe('response time, when asked', () => {
  it('fails answers slower than --max-response-time', async () => {
    server = await startHistoryServer('slow');
    const report = await verify({
      target: server.url,
      spec: SPEC,
      generate: 1,
      hostile: 0,
      maxResponseTimeMs: 50,
      filter: ['getHistory'],
    });
    expect(failures(report).map((fault) => fault.check)).toEqual(['slow-response']);
    expect(failures(report)[0].example.message).toMatch(/^the answer took \d+ ms, over --max-response-time 50 ms$/);
  });
});

describe('look-alike paths', () => {
  it('stay two operations, each judged as itself, with a warning that names both', async () => {
    server = await startHistoryServer();
    const report = await verify({ target: server.url, spec: SPEC, generate: 2 });
    expect(report.warnings).toEqual([
      "GET /countries/{country} and /countries/{countries} differ only in their parameters' names (OpenAPI forbids it): a server cannot tell them apart; each is judged as the operation its cases were built for",
    ]);
    const judgedAs = new Set(report.cases.flatMap((c) => c.steps.map((step) => step.operationId)));
    expect(judgedAs).toEqual(new Set(['getHistory', 'getCountry', 'getCountries', 'addNote', undefined]));
    expect(report.coverage!.find((row) => row.operationId === 'getCountries')?.statuses['200']).toBe('reached');
  });
});

describe('the time budget', () => {
  it('skips the cases not started once --time-limit is reached, and says so', async () => {
    server = await startHistoryServer();
    const report = await verify({ target: server.url, spec: SPEC, generate: 5, timeLimitMs: 1 });
    expect(report.summary.skipped).toBeGreaterThan(0);
    expect(report.cases.find((c) => c.status === 'skipped')?.skipReason).toBe(
      'not run: --time-limit 0.001 s was reached',
    );
    expect(report.warnings).toContain('--time-limit 0.001 s cut the run: the cases not started are skipped');
    expect(report.stopped).toBeUndefined();
  });
});

describe('the files of a run', () => {
  it('write every exchange as NDJSON and draw the coverage grid in the HTML page', async () => {
    server = await startHistoryServer('wrong-types');
    const dir = tempDir('plantstore-run-files-');
    const report = await verify({
      target: server.url,
      spec: SPEC,
      generate: 2,
      reporters: [
        { name: 'ndjson', file: join(dir, 'exchanges.ndjson') },
        { name: 'html', file: join(dir, 'report.html') },
      ],
    });
    const lines = readFileSync(join(dir, 'exchanges.ndjson'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(report.cases.reduce((sum, c) => sum + c.steps.length, 0));
    expect(JSON.parse(lines[0])).toMatchObject({
      case: report.cases[0].id,
      step: 'request',
      request: { method: 'GET', path: '/history' },
      response: { status: 200 },
    });
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toContain('<h2 id="coverage-title">Coverage: operations by declared status</h2>');
    expect(html).toMatch(/<td class="cell failed" title="getHistory 200: failed">failed<\/td>/);
    expect(html).toMatch(/<td class="cell reached" title="addNote 201: reached">reached<\/td>/);
    expect(html).toMatch(/<td class="cell not-reached" title="getCountry 404: not-reached">not reached<\/td>/);
    expect(html).toContain('<h2 id="faults-title">Distinct faults (1)</h2>');
  });
});

describe('shrinking steps', () => {
  it('drop a query piece, a header, a body field, and halve a long value, one at a time', () => {
    const steps = [
      ...smaller({
        method: 'POST',
        path: `/a/${'p'.repeat(100)}`,
        rawQuery: ['x=1', `q=${'y'.repeat(100)}`],
        headers: { 'x-trace': 't', 'content-type': 'application/json' },
        body: { a: 1, b: 2 },
      }),
    ];
    expect(
      steps.map(
        (s) =>
          `${s.rawQuery?.join('&')} ${Object.keys(s.headers ?? {}).join(',')} ${JSON.stringify(s.body)} ${s.path.length}`,
      ),
    ).toEqual([
      `q=${'y'.repeat(100)} x-trace,content-type {"a":1,"b":2} 103`,
      'x=1 x-trace,content-type {"a":1,"b":2} 103',
      `x=1&q=${'y'.repeat(100)} content-type {"a":1,"b":2} 103`,
      `x=1&q=${'y'.repeat(100)} x-trace,content-type {"b":2} 103`,
      `x=1&q=${'y'.repeat(100)} x-trace,content-type {"a":1} 103`,
      `x=1&q=${'y'.repeat(50)} x-trace,content-type {"a":1,"b":2} 103`,
      `x=1&q=${'y'.repeat(100)} x-trace,content-type {"a":1,"b":2} 53`,
    ]);
  });
});

describe('shrinking a case made to be refused', () => {
  it('keeps the parameter it is about, and its value whole', () => {
    const request = {
      method: 'GET',
      path: '/states',
      rawQuery: [
        'sort=not-in-the-enum-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
        'yesterday=true',
      ],
    };
    const steps = [...smaller(request, { query: 'sort', values: true, body: true })];
    expect(steps.map((s) => s.rawQuery)).toEqual([[request.rawQuery[0]]]);
  });
});

describe('declared response headers', () => {
  async function quotaServer(limit: string | undefined) {
    const http = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...(limit !== undefined && { 'x-rate-limit': limit }) });
      res.end('{}');
    });
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
    close = () => new Promise((done) => http.close(() => done()));
    return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  }
  const codes = (report: VerifyReport) =>
    report.cases.flatMap((c) => c.steps.flatMap((s) => s.findings.map((f) => `${f.severity} ${f.code}`)));

  it('pass a header that matches its schema', async () => {
    const report = await verify({
      target: await quotaServer('42'),
      spec: 'test/documents/rate-limited.yaml',
      generate: 1,
      hostile: 0,
      strict: true,
      filter: ['getQuota'],
    });
    expect(codes(report)).toEqual([]);
  });

  it('fail a header that breaks its schema', async () => {
    const report = await verify({
      target: await quotaServer('many'),
      spec: 'test/documents/rate-limited.yaml',
      generate: 1,
      hostile: 0,
      filter: ['getQuota'],
    });
    expect(codes(report)).toEqual(['failure invalid-response-header']);
  });

  it('warn about a required header left out, and fail under --strict', async () => {
    const target = await quotaServer(undefined);
    const lenient = await verify({
      target,
      spec: 'test/documents/rate-limited.yaml',
      generate: 1,
      hostile: 0,
      filter: ['getQuota'],
    });
    expect(codes(lenient)).toEqual(['warning missing-response-header']);
    const strict = await verify({
      target,
      spec: 'test/documents/rate-limited.yaml',
      generate: 1,
      hostile: 0,
      strict: true,
      filter: ['getQuota'],
    });
    expect(codes(strict)).toEqual(['failure missing-response-header']);
  });
});
