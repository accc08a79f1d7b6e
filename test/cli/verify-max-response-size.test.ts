// An answer past --max-response-size fails its case; the run goes on and ends with its summary
// (a body announced by Content-Length was destroyed unread, and its abort error was unhandled).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
});
afterAll(() => mock.close());

describe('verify --max-response-size', () => {
  it('fails each case whose answer is larger, with body-too-large, and still reports every case', async () => {
    const run = await runCli(['verify', '--target', mock.url, '--token', 't', '--max-response-size', '10']);
    expect(run.stderr).not.toMatch(/Unhandled|AbortError|at /);
    expect(run.stdout).toContain('body-too-large');
    expect(run.stdout).toMatch(/FAILED: \d+ passed, \d+ failed/);
    expect(run.code).toBe(1);
  });
});
