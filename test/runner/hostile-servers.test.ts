// Hostile cases against small servers written for the test: a correct one passes with no false
// alarm, and each defect real servers have is found, named by its input, grouped into one
// distinct fault, and shrunk to the smallest request that still shows it, printed as curl.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verify, type VerifyReport } from '../../src/runner/index.ts';
import { startHistoryServer, type HistoryDefect, type HistoryServer } from '../fixtures-servers/history-server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const SPEC = 'test/documents/hostile-history.yaml';
let server: HistoryServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(
  defect: HistoryDefect | undefined,
  options: Parameters<typeof verify>[0] | object = {},
): Promise<VerifyReport> {
  server = await startHistoryServer(defect);
  return verify({ target: server.url, spec: SPEC, generate: 8, seed: 4, timeoutMs: 1000, ...options });
}

const failures = (report: VerifyReport) => (report.faults ?? []).filter((fault) => fault.severity === 'failure');

describe('hostile cases', () => {
  it('pass a correct server: no false alarm, every operation reached', async () => {
    const report = await run(undefined);
    expect(failures(report).map((fault) => `${fault.key}: ${fault.example.message}`)).toEqual([]);
    expect(report.cases.filter((c) => c.probe !== undefined).length).toBeGreaterThan(20);
    expect(report.coverage!.map((row) => `${row.operationId} ${row.requests > 0}`)).toEqual([
      'getHistory true',
      'getCountry true',
      'getCountries true',
      'addNote true',
    ]);
  });

  it('find a handler that never answers a repeated query key, name the input, and keep the run going', async () => {
    const report = await run('repeated-key-hangs');
    const [fault, ...others] = failures(report);
    expect(others).toEqual([]);
    expect(fault).toMatchObject({
      operationId: 'getHistory',
      check: 'timeout',
      signature: 'query lastdays: repeated-key',
    });
    expect(fault.shrunk?.curl).toMatch(/\/history\?lastdays=1&lastdays=2'$/);
    expect(report.stopped).toBeUndefined();
  });

  it("find a 5xx from a huge number where text is expected, signed by the error's first line, and shrink it", async () => {
    const report = await run('huge-number-throws');
    const found = failures(report);
    expect(found.map((fault) => `${fault.operationId} ${fault.check} ${fault.signature}`)).toEqual([
      'getHistory server-error 500 RangeError: Invalid time value',
    ]);
    // Every case that hit it is counted under the one fault; the shrunk request keeps only what breaks the server.
    expect(found[0].count).toBeGreaterThanOrEqual(1);
    expect(found[0].shrunk?.curl).toMatch(/\/history\?lastdays=\d+'$/);
    expect(found[0].shrunk?.curl).not.toContain('x-trace');
  });

  it('find invalid data accepted, one fault per input place whatever value class showed it', async () => {
    const report = await run('no-validation');
    const checks = failures(report).map((fault) => `${fault.operationId} ${fault.check} ${fault.signature}`);
    expect(checks).toEqual(
      expect.arrayContaining([
        'getHistory invalid-data-accepted expected 4xx, got 200 · query region',
        'getCountry invalid-data-accepted expected 4xx, got 200 · path country',
        'addNote invalid-data-accepted expected 4xx, got 201 · body /stars',
      ]),
    );
    expect(new Set(checks).size).toBe(checks.length);
  });

  it('count the wrong-typed elements of one array as one fault', async () => {
    const report = await run('wrong-types');
    const typed = failures(report).filter((fault) => fault.check === 'wrong-field-type');
    expect(typed.map((fault) => `${fault.operationId} ${fault.signature}`)).toEqual(['getHistory /*/cases']);
  });

  it('print one line per distinct fault with its count and curl, and a closing summary', async () => {
    let out = '';
    server = await startHistoryServer('huge-number-throws');
    await verify({
      target: server.url,
      spec: SPEC,
      generate: 8,
      seed: 4,
      timeoutMs: 1000,
      reporters: [{ name: 'console', stream: { write: (chunk: string) => void (out += chunk) } }],
    });
    expect(out).toMatch(/Distinct faults: 1\n/);
    expect(out).toMatch(/FAIL {2}getHistory {2}server-error {2}500 RangeError: Invalid time value {2}×\d+\n/);
    expect(out).toMatch(/smallest: curl -sS -i -X GET 'http:\/\/127\.0\.0\.1:\d+\/history\?lastdays=\d+'/);
    expect(out).toMatch(
      /1 distinct fault in \d+ cases; operations reached: 4 of 4 declared; declared statuses reached: \d+ of 10; \d+\.\d s/,
    );
  });
});
