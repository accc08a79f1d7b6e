#!/usr/bin/env -S node --max-semi-space-size=8
// The `plantstore` command. Plain JavaScript so that it starts on any Node: the toolkit needs
// Node 24 (native TypeScript type stripping, and its dependencies' engines), so on an older Node it
// re-runs itself with the Node 24 binary that the "node" dependency installs.
//
// V8's young generation: left alone, V8 grows it to 32 MB a half-space under load, which alone is
// ~50 MB of a busy mock's RSS; at 8 MB the mock measured ~30 MB smaller after the benchmark's load
// at the same req/s (docs/performance.md). The line above gives the flag when the file is run as a
// command (npx plantstore, node_modules/.bin/plantstore); `node bin/plantstore.js mock` lacks it,
// so the mock then replaces its process (same pid) with one that has it: ~25 ms more start-up
// (measured: ~15% of the mock's start-up, which is why the #! line carries the flag at all).
// `env -S` is in GNU coreutils 8.30+, macOS and FreeBSD, not in BusyBox; the Node 24 that the
// set-up installs is a glibc build, so BusyBox/musl systems are outside what it supports anyway.
// A size the user chose (NODE_OPTIONS=--max-semi-space-size=N) wins.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HEAP_FLAG = '--max-semi-space-size=8';
const major = Number(process.versions.node.split('.')[0]);
const args = process.argv.slice(2);
const sized = (flags) => flags.some((flag) => flag.includes('--max-semi-space-size'));
const userSized = sized([process.env.NODE_OPTIONS ?? '']);
// What the Node 24 process must be started with: the flag this one got, else ours for the mock.
const heapFlags = userSized ? [] : sized(process.execArgv) ? process.execArgv.filter((flag) => sized([flag])) : args.includes('mock') ? [HEAP_FLAG] : [];
// (A flag the user set leaves heapFlags empty; one this process already has needs no new start.)
if (major >= 24 && heapFlags.length > 0 && !sized(process.execArgv) && typeof process.execve === 'function') {
  // V8 reads the flag only when it starts: replace this process (same pid) with one that has it.
  try {
    process.execve(process.execPath, [process.execPath, ...process.execArgv, ...heapFlags, fileURLToPath(import.meta.url), ...args], process.env);
  } catch {
    // No execve on this platform (Windows): run with V8's default young generation.
  }
}
if (major >= 24) {
  // Node caches compiled code, and the type-stripped TypeScript, across runs: start-up ~60 ms faster.
  const { enableCompileCache } = await import('node:module');
  enableCompileCache?.(join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.cache', 'plantstore-compile'));
  const { main } = await import('../src/cli/main.ts');
  await main(args);
} else {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const node24 = [join(root, 'node_modules', '.bin', 'node'), join(root, 'node_modules', 'node', 'bin', 'node')].find(existsSync);
  if (!node24) {
    console.error(`plantstore: needs Node 24 (this is Node ${process.versions.node}). Run \`npm install\` in ${root} to fetch it.`);
    process.exit(2);
  }
  const child = spawn(node24, [...heapFlags, fileURLToPath(import.meta.url), ...args], { stdio: 'inherit' });
  // Signals go to the child too (same process group for Ctrl-C); forward the ones sent to us alone.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    }
    else process.exit(code ?? 1);
  });
}
