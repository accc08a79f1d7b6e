// Pins processes to cores with taskset: the server under test on one core, the load generator on
// the other, so they do not take turns on one core and the figures are a server's on one core.
// Without taskset or with one core, everything runs unpinned and the report says so.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';

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
