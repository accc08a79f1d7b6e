// The report says which operations --generate gave no case and why: in the JSON report, in the
// console summary, and as skipped test cases of a "not covered" JUnit suite.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify, type ReporterName, type VerifyReport } from '../../src/runner/index.ts';
import { startMediaServer, type MediaServer } from '../fixtures-servers/media-server.ts';

let server: MediaServer;
let report: VerifyReport;
const written: Record<string, string> = { console: '', junit: '' };
const stream = (name: ReporterName) => ({ name, stream: { write: (chunk: string) => (written[name] += chunk) } });

beforeAll(async () => {
  server = await startMediaServer();
  report = await verify({
    target: server.url,
    spec: 'test/documents/runner-media.yaml',
    generate: 1,
    reporters: [stream('console'), stream('junit')],
  });
});
afterAll(() => server.close());

const REASON = 'no generator for its request body (application/x-protobuf); write a fixture for it';

describe('operations without a generated case', () => {
  it('are listed in the report with their reason', () => {
    expect(report.uncovered).toEqual([
      { operationId: 'importProtobuf', method: 'POST', path: '/imports', reason: REASON },
    ]);
    expect(report.outcome).toBe('passed');
  });

  it('are listed by the console reporter before the verdict', () => {
    expect(written.console).toContain(
      `1 operation got no generated case:\n  NONE  POST /imports (importProtobuf): ${REASON}\n\nPASSED`,
    );
  });

  it('are skipped test cases of a "not covered" JUnit suite, counted in the totals', () => {
    expect(written.junit).toContain(`<testsuite name="not covered" tests="1" failures="0" errors="0" skipped="1"`);
    expect(written.junit).toContain(
      `<testcase name="importProtobuf: no generated case" classname="not-covered" time="0.000">\n      <skipped message="${REASON}"/>`,
    );
    expect(written.junit).toMatch(new RegExp(`<testsuites [^>]*tests="${report.cases.length + 1}" [^>]*skipped="1"`));
  });
});
