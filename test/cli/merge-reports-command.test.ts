// `plantstore merge-reports` and the flags of this part: the merged run's exit code is the whole
// run's (0 passed, 1 a case failed), a set of files that is not one run's shards is exit 2 with the
// reason, and malformed --shard / --state values are usage errors.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { verify } from '../../src/runner/index.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('plantstore merge-reports', () => {
  const dir = tempDir('plantstore-merge-cli-');
  const files = [join(dir, 'shard-1.json'), join(dir, 'shard-2.json')];
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
    for (const [i, file] of files.entries())
      await verify({
        target: mock.url,
        token: 't',
        shard: { index: i + 1, count: 2 },
        reporters: [{ name: 'json', file }],
      });
  });
  afterAll(() => mock.close());

  it('exits 0 for a passing run and writes the JUnit report of the whole run', async () => {
    const junit = join(dir, 'out', 'verify.xml');
    const result = await runCli(['merge-reports', ...files, '--junit', junit]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/PASSED: \d+ passed, 0 failed/);
    expect(readFileSync(junit, 'utf8')).toContain('<testsuites');
  });

  it('exits 1 when a case of any shard failed', async () => {
    const report = JSON.parse(readFileSync(files[1], 'utf8')) as { cases: Array<{ status: string; failures: number }> };
    report.cases[0].status = 'failed';
    report.cases[0].failures = 1;
    const failing = join(dir, 'failing-2.json');
    writeFileSync(failing, JSON.stringify(report));
    const result = await runCli(['merge-reports', files[0], failing]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAILED: \d+ passed, 1 failed/);
  });

  it('exits 2 with the reason for a missing shard', async () => {
    const result = await runCli(['merge-reports', files[0]]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `plantstore: merge-reports: shard 2/2 is missing: got 1 of 2\n  Pass the --json report of every shard; a shard job that failed to write one must be run again.\n`,
    );
  });

  it.each([
    [['verify', '--target', 'http://127.0.0.1:9', '--shard', '3/2'], /--shard 3\/2: expected i\/n with 1 <= i <= n/],
    [
      ['mock', '--state', 'http://127.0.0.1:6379'],
      /--state must be a Redis URL, redis:\/\/host:port\/db, got http:\/\/127\.0\.0\.1:6379/,
    ],
    [['mock', '--state-prefix', 'a'], /--state-prefix needs --state redis:\/\/host:port\/db/],
    [
      ['mock', '--state', 'redis://127.0.0.1:6379/0', '--state-file', 'x.log'],
      /--state and --state-file both say where state lives: give one/,
    ],
  ])('refuses %j as a usage error', async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
