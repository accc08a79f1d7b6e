// Every process the benchmark starts is registered here, so that none outlives it: on a normal
// end, on an error, and on Ctrl-C (SIGINT) or SIGTERM. Only these processes, by their pid.
import type { ChildProcess } from 'node:child_process';

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
