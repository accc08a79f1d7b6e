// Runs the `plantstore` command pinned to a core and times it, as a user's shell would run it.
import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { pinned, stop, track } from './processes.ts';
import { ROOT } from './server.ts';

export interface CliRun {
  code: number | null;
  wallMs: number;
  stderr: string;
}

/** Runs `plantstore ...args` with stdout to `stdoutFile` (default /dev/null); wall time from spawn to exit. */
export function runCli(
  args: string[],
  options: { core: number; stdoutFile?: string; timeoutMs?: number },
): Promise<CliRun> {
  const out = openSync(options.stdoutFile ?? '/dev/null', 'w');
  const [command, commandArgs] = pinned(options.core, process.execPath, [join(ROOT, 'bin', 'plantstore.js'), ...args]);
  const started = performance.now();
  const child = track(spawn(command, commandArgs, { stdio: ['ignore', out, 'pipe'] }));
  closeSync(out);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk));
  const limit = setTimeout(() => void stop(child, 'SIGKILL'), options.timeoutMs ?? 120_000);
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      clearTimeout(limit);
      resolve({ code, wallMs: performance.now() - started, stderr });
    });
  });
}
