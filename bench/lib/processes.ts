// The processes a suite starts: tracked so that none outlives the run (an end, an error, Ctrl-C or
// SIGTERM stops them by pid), pinned with taskset (servers on one core, load generators on the other),
// given a free port, and read from /proc (CPU time, RSS).
import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, cpus, loadavg } from 'node:os';

const running = new Set<ChildProcess>();
let stopping = false;
const killAll = (signal: NodeJS.Signals) => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
};
let installed = false;
function install(): void {
  if (installed) return;
  installed = true;
  // Only once something runs: a test worker that imports this module gets SIGTERM from vitest at its end.
  process.on('exit', () => killAll('SIGKILL')); // a last resort: no async work is possible there
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => {
      stopping = true;
      if (running.size > 0) process.stderr.write(`\nbench: ${signal}, stopping ${running.size} process(es)\n`);
      killAll('SIGTERM');
      setTimeout(() => process.exit(130), 1500).unref();
      setInterval(() => running.size === 0 && process.exit(130), 50).unref();
    });
}

/** Registers a started process; it is forgotten when it exits. */
export function track<T extends ChildProcess>(child: T): T {
  install();
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (stopping) child.kill('SIGTERM');
  return child;
}

/** Asks a process to stop with `signal`, and kills it if it has not exited after `graceMs`. */
export function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGINT', graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => resolve(clearTimeout(timer)));
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
export const pinned = (core: number, command: string, args: string[]): [string, string[]] =>
  pinningUnavailable ? [command, args] : [TASKSET, ['-c', String(core), command, ...args]];

/** Lets this process and what it starts from now on use every core (start-up of a large document uses several). */
export function unpinSelf(): void {
  if (!pinningUnavailable)
    execFileSync(TASKSET, ['-a', '-p', '-c', `0-${cpus().length - 1}`, String(process.pid)], { stdio: 'ignore' });
}

/** A port free on 127.0.0.1 now (Prism needs an explicit one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const proc = (pid: number | undefined, file: 'stat' | 'status') => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return ''; // not Linux, or the process is gone
  }
};

/** Resident set size now (VmRSS in /proc/PID/status), in bytes; NaN when unreadable. */
export const rssBytes = (pid: number) => Number(/^VmRSS:\s+(\d+) kB/m.exec(proc(pid, 'status'))?.[1] ?? NaN) * 1024;

/** Microseconds the process has spent on a CPU so far (utime + stime; USER_HZ is 100), or undefined. */
export function cpuMicros(pid: number | undefined): number | undefined {
  const fields = proc(pid, 'stat').split(') ')[1]?.split(' ');
  return fields ? (Number(fields[11]) + Number(fields[12])) * 10_000 : undefined;
}

/** The load average now: how much of the machine other work took (every rate moves with it). */
export const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** The machine as a report's first line names it. */
export const machineLine = () =>
  `${availableParallelism()} cores, Node ${process.version}, load average ${loadAverage()}; ${pinningUnavailable ? `unpinned (${pinningUnavailable})` : `servers on core ${SERVER_CORE}, load on core ${LOAD_CORE}`}`;
