import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export const BIN = resolve('bin/plantstore.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `plantstore ARGS` to the end (with this Node unless another is given). */
export function runCli(
  args: string[],
  options: { input?: string; node?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(options.node ?? process.execPath, [BIN, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** Starts `plantstore mock ARGS --port 0` and resolves once it prints its URL. */
export function startCliMock(
  args: string[],
  node = process.execPath,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  return new Promise((done, fail) => {
    const child = spawn(node, [BIN, 'mock', '--port', '0', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // never leave a mock behind
      fail(new Error(`mock did not start: ${stderr}`));
    }, 15_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const url = /on (http:\/\/\S+)/.exec(stderr)?.[1];
      if (url) {
        clearTimeout(timer);
        done({ child, url, stderr: () => stderr });
      }
    });
    child.on('exit', (code) => fail(new Error(`mock exited with ${code}: ${stderr}`)));
  });
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((done) => child.once('exit', (code) => done(code)));
}
