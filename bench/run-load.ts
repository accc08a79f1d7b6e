// Runs the load generator as a child process on the load core and returns its figures.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { stop, track } from './child-processes.ts';
import { LOAD_CORE, pinned } from './cpu-pinning.ts';
import type { LoadOutput, LoadPlan } from './load-generator.ts';

export function runLoad(plan: LoadPlan): Promise<LoadOutput> {
  const [command, args] = pinned(LOAD_CORE, process.execPath, [join(import.meta.dirname, 'load-generator.ts'), JSON.stringify(plan)]);
  const child = track(spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk));
  // Warm-up, measurement and the wind-down (in-flight answers, autocannon's own); past this the
  // generator is stuck.
  const limit = setTimeout(() => void stop(child, 'SIGKILL'), (plan.warmupSeconds + plan.durationSeconds + 30) * 1000);
  return new Promise((resolve, reject) => {
    child.once('exit', (code, signal) => {
      clearTimeout(limit);
      try {
        if (code !== 0) throw new Error(`load generator failed (${signal ?? `exit ${code}`}): ${err.trim()}`);
        resolve(JSON.parse(out.trim().split('\n').at(-1) ?? '') as LoadOutput);
      } catch (error) {
        reject(error);
      }
    });
  });
}
