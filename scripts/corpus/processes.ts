// Child processes the harness starts: the plantstore mock and Prism, each read for its "listening"
// line, each stopped by SIGTERM and, past a deadline, SIGKILL. Every child is tracked, so that a
// harness stopped by Ctrl-C leaves none behind.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';

export interface Started {
  child: ChildProcess;
  url: string;
  /** Spawn to the first answer to a request, in ms. */
  startMs: number;
}
export type StartResult = { ok: true; server: Started } | { ok: false; error: string; elapsedMs: number };

const children = new Set<ChildProcess>();
export function killAll(): void {
  for (const child of children) child.kill('SIGKILL');
}

export function spawnTracked(command: string, args: string[], cwd: string): ChildProcess {
  const child = spawn(command, args, {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export function plantstoreArgs(root: string, file: string): string[] {
  return [join(root, 'bin', 'plantstore.js'), 'mock', '--spec', file, '--port', '0', '--quiet'];
}

export function prismArgs(root: string, file: string, port: number): string[] {
  return [join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js'), 'mock', '-p', String(port), file];
}

/** A port nothing listens on now (Prism has no --port 0 that reports back). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

// The first two lines: plantstore's error line and its first detail (the reason or the pointer).
const firstLine = (text: string) =>
  text
    .split('\n')
    .map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trim())
    .filter((l) => l.length > 0)
    .slice(0, 2)
    .join(' / ');

/**
 * Spawns a server and waits for `listening` to match its output (group 1: the URL), then for the
 * first answer to any request. Fails with the first line of its output when it exits first.
 */
export function startServer(
  command: string,
  args: string[],
  cwd: string,
  listening: RegExp,
  timeoutMs: number,
): Promise<StartResult> {
  const started = performance.now();
  const child = spawnTracked(command, args, cwd);
  let output = '';
  let errors = '';
  return new Promise((done) => {
    let settled = false;
    const finish = (result: StartResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!result.ok) void stop(child, 2000);
      done(result);
    };
    const timer = setTimeout(
      () =>
        finish({
          ok: false,
          error: `no listening line within ${timeoutMs / 1000} s`,
          elapsedMs: performance.now() - started,
        }),
      timeoutMs,
    );
    const read = (chunk: Buffer, stream: 'out' | 'err') => {
      if (settled) return; // the stream keeps flowing (a full pipe would block the child), unread
      // Only the start-up output is kept: a long run's request lines are not the harness's business.
      if (output.length < 1_000_000) output += chunk.toString('utf8');
      if (stream === 'err' && errors.length < 100_000) errors += chunk.toString('utf8');
      const match = listening.exec(output.replace(/\x1b\[[0-9;]*m/g, ''));
      if (match && !settled) {
        const url = match[1].replace(/\/$/, '');
        output = '';
        void firstAnswer(url, timeoutMs).then(
          () => finish({ ok: true, server: { child, url, startMs: performance.now() - started } }),
          (error: Error) =>
            finish({
              ok: false,
              error: `listening, but no answer: ${error.message}`,
              elapsedMs: performance.now() - started,
            }),
        );
      }
    };
    child.stdout!.on('data', (chunk: Buffer) => read(chunk, 'out'));
    child.stderr!.on('data', (chunk: Buffer) => read(chunk, 'err'));
    child.once('error', (error) => finish({ ok: false, error: error.message, elapsedMs: performance.now() - started }));
    child.once('exit', (code, signal) =>
      finish({
        ok: false,
        error: `exited (${signal ?? code}) before listening: ${firstLine(errors) || firstLine(output) || 'no output'}`,
        elapsedMs: performance.now() - started,
      }),
    );
  });
}

async function firstAnswer(url: string, timeoutMs: number): Promise<void> {
  const answer = await request(`${url}/__corpus_start_probe`, { headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  await answer.body.dump();
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves with the ms from SIGTERM to exit. */
export function stop(child: ChildProcess, graceMs: number): Promise<number> {
  return new Promise((done) => {
    const sent = performance.now();
    if (child.exitCode !== null || child.signalCode !== null) return done(0);
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(killer);
      done(performance.now() - sent);
    });
    child.kill('SIGTERM');
  });
}
