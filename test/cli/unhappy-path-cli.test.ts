// Smoke test of the unhappy path as a user meets it: `plantstore mock` with the flags, curl as the
// client (its exit codes name what it saw), and SIGTERM while answers are still waiting.
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp-dir.ts';
import { once } from 'node:events';
import { describe, expect, it, onTestFinished } from 'vitest';
import { exitOf, runCli, startCliMock } from '../helpers/cli.ts';

const DOC = 'test/documents/unhappy-path.yaml';
const CURL = existsSync('/usr/bin/curl') ? '/usr/bin/curl' : undefined;
if (!CURL)
  console.warn(
    '\n*** SKIPPED the curl cases of test/cli/unhappy-path-cli.test.ts: no /usr/bin/curl (apt-get install -y curl) ***\n',
  );

/** curl's exit code and what it printed (status and body). */
const curl = (args: string[]) =>
  new Promise<{ code: number; out: string }>((done) => {
    execFile(CURL!, ['-sS', '-w', ' %{http_code}', ...args], (error, stdout) =>
      done({ code: error ? Number((error as { code?: number }).code) : 0, out: stdout }),
    );
  });

describe('plantstore mock, the unhappy path from curl', () => {
  it.skipIf(!CURL).each([
    // curl's exit codes: 56 a receive failure (reset), 52 an empty reply, 18 a partial body, 28 a time-out.
    ['reset', 56],
    ['close', 52],
    ['malformed', 18],
    ['slow-body', 0],
  ])('Prefer: fault=%s ends curl with exit code %i', async (fault, code) => {
    const mock = await startCliMock(['--spec', DOC, '--quiet']);
    onTestFinished(() => void mock.child.kill('SIGKILL'));
    const seen = await curl([`${mock.url}/plants`, '-H', `Prefer: fault=${fault}`]);
    expect(seen.code).toBe(code);
    if (fault === 'slow-body') expect(seen.out).toMatch(/^\[.*\] 200$/s);
  });

  it.skipIf(!CURL)('fault=timeout leaves curl without an answer until its -m gives up', async () => {
    const mock = await startCliMock(['--spec', DOC, '--quiet']);
    onTestFinished(() => void mock.child.kill('SIGKILL'));
    expect((await curl(['-m', '1', `${mock.url}/plants?__fault=timeout`])).code).toBe(28);
  });

  it.skipIf(!CURL)(
    'stops on SIGTERM while a 60 s delay and a timeout wait, answering the one and closing the other',
    async () => {
      const mock = await startCliMock(['--spec', DOC, '--latency', '60000']);
      onTestFinished(() => void mock.child.kill('SIGKILL'));
      const delayed = curl([`${mock.url}/plants`]);
      const hung = curl([`${mock.url}/plants`, '-H', 'Prefer: fault=timeout, delay=0']);
      // Both are waiting once the timeout is journaled (the delayed one waits before the journal sees it).
      while (!/fault: timeout/.test(mock.stderr())) await once(mock.child.stderr!, 'data');
      const started = performance.now();
      mock.child.kill('SIGTERM');
      expect(await exitOf(mock.child)).toBe(0);
      const stoppedMs = performance.now() - started;
      expect(await delayed).toMatchObject({ code: 0, out: expect.stringMatching(/ 200$/) });
      expect((await hung).code).toBe(52);
      // Far from the delay it cut short (the bench and the report give the figure).
      expect(stoppedMs).toBeLessThan(30_000);
      console.log(`SIGTERM with a 60 s delay and a timeout pending: stopped in ${Math.round(stoppedMs)} ms`);
    },
  );

  it('--watch: says what it watches, reloads on a save, and says when a save does not load', async () => {
    const dir = tempDir('plantstore-watch-cli-');
    const file = join(dir, 'api.yaml');
    copyFileSync(DOC, file);
    const mock = await startCliMock(['--spec', file, '--watch']);
    onTestFinished(() => void mock.child.kill('SIGKILL'));
    const logged = async (pattern: RegExp) => {
      while (!pattern.test(mock.stderr())) await once(mock.child.stderr!, 'data');
    };
    await logged(/--watch: reloading on changes to .*api\.yaml/);
    writeFileSync(file, readFileSync(DOC, 'utf8').replace('title: Unhappy path', 'title: Unhappy path, edited'));
    await logged(/reloaded .*api\.yaml in \d+ ms: 3 operations/);
    expect(await (await fetch(`${mock.url}/__mock/health`)).json()).toMatchObject({ api: 'Unhappy path, edited' });
    writeFileSync(file, 'openapi: 3.1.0\ninfo: [broken\n');
    await logged(/reload failed; still serving the last good document/);
    expect((await fetch(`${mock.url}/plants`)).status).toBe(200);
    mock.child.kill('SIGTERM');
    expect(await exitOf(mock.child)).toBe(0);
  });

  it('refuses a --latency or --fault-rate it cannot read, naming what it takes', async () => {
    const bad = await runCli(['mock', '--spec', DOC, '--latency', 'fast']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--latency: "fast" is not a delay in ms (200), a range (100-800) or a profile');
    const rate = await runCli(['mock', '--spec', DOC, '--fault-rate', '5']);
    expect(rate.code).toBe(2);
    expect(rate.stderr).toContain('--fault-rate must be from 0 to 1 (0.05 is 5%), got 5');
  });
});
