// The processes a benchmark starts: each one tracked so that none outlives the run (a normal end,
// an error, Ctrl-C or SIGTERM; only these, by pid), pinned to a core with taskset (the server
// under test on one core, the load generator on the other, so they never take turns), and given a
// free port. Without taskset or with one core everything runs unpinned and the reports say so.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, cpus, loadavg } from 'node:os';

const running = new Set<ChildProcess>();
let installed = false;
let stopping = false;

function killAll(signal: NodeJS.Signals): void {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
}

function install(): void {
  if (installed) return;
  installed = true;
  // A last resort when the benchmark exits while a child still runs: no async work is possible here.
  process.on('exit', () => killAll('SIGKILL'));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      stopping = true;
      // Said only when there is something to stop: a test worker that loaded this module gets
      // SIGTERM from vitest at its end, with nothing running.
      if (running.size > 0) process.stderr.write(`\nbench: ${signal}, stopping ${running.size} process(es)\n`);
      killAll('SIGTERM');
      // Give them a moment to go (a profiled mock writes its profile on exit), then force it.
      setTimeout(() => process.exit(130), 1500).unref();
      const check = setInterval(() => {
        if (running.size === 0) process.exit(130);
      }, 50);
      check.unref();
    });
  }
}

/** Registers a started process; it is forgotten when it exits. */
export function track<T extends ChildProcess>(child: T): T {
  install();
  running.add(child);
  child.once('exit', () => running.delete(child));
  // The benchmark goes on until it exits; whatever it starts meanwhile is stopped at once.
  if (stopping) child.kill('SIGTERM');
  return child;
}

/** Asks a process to stop with `signal`, and kills it if it has not exited after `graceMs`. */
export function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGINT', graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

const TASKSET = '/usr/bin/taskset';

export const SERVER_CORE = 1;
export const LOAD_CORE = 0;

/** Why pinning is off, or undefined when it is on. */
export const pinningUnavailable: string | undefined = !existsSync(TASKSET)
  ? `${TASKSET} not found`
  : availableParallelism() < 2
    ? `${availableParallelism()} core(s)`
    : undefined;

/** The command and arguments that run `command args` on `core` (unchanged when pinning is off). */
export function pinned(core: number, command: string, args: string[]): [string, string[]] {
  return pinningUnavailable ? [command, args] : [TASKSET, ['-c', String(core), command, ...args]];
}

/**
 * Lets this process (all its threads) and what it starts from now on run on every core again.
 * Nothing pins it any more; the large-document part calls it before it starts its servers.
 */
export function unpinSelf(): void {
  if (!pinningUnavailable)
    execFileSync(TASKSET, ['-a', '-p', '-c', `0-${cpus().length - 1}`, String(process.pid)], { stdio: 'ignore' });
}

/** A port that is free on 127.0.0.1 now (Prism needs an explicit one); the window before the server's listen is harmless on a quiet machine. */ export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A size from /proc/PID/status (VmRSS: resident now, VmHWM: its peak) in bytes; NaN when unreadable. */
export function procStatusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** The machine a suite's report names: its cores, Node, and the load average as the suite starts (and, later, ends). */
export function machineAtStart(): {
  cores: number;
  node: string;
  loadAverageBefore: number[];
  loadAverageAfter: number[];
} {
  return { cores: availableParallelism(), node: process.version, loadAverageBefore: loadavg(), loadAverageAfter: [] };
}
