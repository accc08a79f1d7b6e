// A server that is down, or that stops answering, is not a broken contract: verify says so in
// one line (exit 3), or stops after OUTAGE_LIMIT cases in a row without an answer and skips the rest.
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUT_MS, verify } from '../../src/runner/index.ts';
import { LIVENESS_TIMEOUT_MS } from '../../src/runner/defaults.ts';
import { OUTAGE_LIMIT } from '../../src/runner/run/outage.ts';
import { runCli } from '../helpers/cli.ts';

/** A port nobody listens on: bound on port 0, then closed. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A server that takes every connection and reads every request, and never answers one. */
async function silentServer(): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let requests = 0;
  const server: NetServer = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('data', (chunk) => {
      requests += (chunk.toString('latin1').match(/ HTTP\/1\.1\r\n/g) ?? []).length;
    });
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let silent: Awaited<ReturnType<typeof silentServer>> | undefined;
afterEach(async () => {
  await silent?.close();
  silent = undefined;
});

describe('a server that refuses connections or does not resolve', () => {
  it('exits 3 with at most 5 lines, naming the refusal', async () => {
    const port = await closedPort();
    const result = await runCli([
      'verify',
      '--target',
      `http://127.0.0.1:${port}`,
      '--token',
      'cli-token',
      '--generate',
      '2',
    ]);
    expect(result.code).toBe(3);
    const lines = `${result.stdout}${result.stderr}`.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(5);
    expect(result.stderr).toContain(`cannot reach http://127.0.0.1:${port}: connection refused`);
    expect(result.stdout).toBe('');
  });

  it('exits 3 when the host name does not resolve', async () => {
    const result = await runCli(['verify', '--target', 'http://no-such-host.invalid', '--token', 'cli-token']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('cannot reach http://no-such-host.invalid: cannot reach the server: ENOTFOUND');
    expect(`${result.stdout}${result.stderr}`.trimEnd().split('\n').length).toBeLessThanOrEqual(5);
  });

  it('throws TARGET_UNREACHABLE from the library, before any reporter starts', async () => {
    const port = await closedPort();
    const written: string[] = [];
    await expect(
      verify({
        target: `http://127.0.0.1:${port}`,
        token: 't',
        reporters: [{ name: 'console', stream: { write: (chunk: string) => written.push(chunk) } }],
      }),
    ).rejects.toMatchObject({ code: 'TARGET_UNREACHABLE' });
    expect(written).toEqual([]);
  });
});

describe('a server that takes connections and never answers', () => {
  it(`stops after ${OUTAGE_LIMIT} time-outs in a row and skips the rest with the reason`, async () => {
    silent = await silentServer();
    const report = await verify({ target: silent.url, token: 'silent-token', timeoutMs: 150 });
    expect(report.cases.filter((c) => c.status === 'failed').map((c) => c.steps[0].findings[0].code)).toEqual([
      'timeout',
      'timeout',
      'timeout',
    ]);
    const skipped = report.cases.filter((c) => c.status === 'skipped');
    expect(skipped).toHaveLength(report.cases.length - OUTAGE_LIMIT);
    expect(new Set(skipped.map((c) => c.skipReason))).toEqual(
      new Set([`not run: the server stopped answering (${OUTAGE_LIMIT} time-outs in a row)`]),
    );
    expect(report.stopped).toContain('the server stopped answering');
    // The cases' requests, and one plain GET that asks whether the server answers anything at all.
    expect(silent.requests()).toBe(OUTAGE_LIMIT + 1);
  });

  it('stops as soon with cases in parallel: at most the cases started before the third time-out ran', async () => {
    silent = await silentServer();
    const report = await verify({ target: silent.url, token: 'silent-token', timeoutMs: 150, concurrency: 4 });
    // Each worker that saw a time-out may have started one more case before the third arrived.
    expect(report.summary.failed).toBeGreaterThanOrEqual(4);
    expect(report.summary.failed).toBeLessThanOrEqual(4 + OUTAGE_LIMIT - 1);
    expect(report.summary.skipped).toBe(report.cases.length - report.summary.failed);
    // Plus a plain GET from each worker that saw a third time-out in a row.
    expect(silent.requests()).toBeGreaterThan(report.summary.failed);
    expect(silent.requests()).toBeLessThanOrEqual(report.summary.failed + 4);
  });

  it('keeps a default run under 40 s: the time-outs that stop it, plus the reachability check', () => {
    // The run above sends OUTAGE_LIMIT requests one after another, each waiting out the deadline, then the liveness
    // GET.
    expect(OUTAGE_LIMIT * DEFAULT_TIMEOUT_MS + 5000 + LIVENESS_TIMEOUT_MS).toBeLessThan(40_000);
  });

  it('exits 3 from the CLI, and says why the run stopped', async () => {
    silent = await silentServer();
    const result = await runCli(['verify', '--target', silent.url, '--token', 'cli-token', '--timeout', '150']);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('Stopped early, the server stopped answering: 3 time-outs in a row');
    expect(result.stdout).toContain('SKIP  ');
  });
});
