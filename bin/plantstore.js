#!/usr/bin/env node
// The `plantstore` command. Plain JavaScript so that it starts on any Node: the toolkit needs
// Node 24 (native TypeScript type stripping, and its dependencies' engines), so on an older Node it
// re-runs itself with the Node 24 binary that the "node" dependency installs.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const major = Number(process.versions.node.split('.')[0]);
if (major >= 24) {
  // Node caches compiled code, and the type-stripped TypeScript, across runs: start-up ~60 ms faster.
  const { enableCompileCache } = await import('node:module');
  enableCompileCache?.(join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.cache', 'plantstore-compile'));
  const { main } = await import('../src/cli/main.ts');
  await main(process.argv.slice(2));
} else {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const node24 = [join(root, 'node_modules', '.bin', 'node'), join(root, 'node_modules', 'node', 'bin', 'node')].find(existsSync);
  if (!node24) {
    console.error(`plantstore: needs Node 24 (this is Node ${process.versions.node}). Run \`npm install\` in ${root} to fetch it.`);
    process.exit(2);
  }
  const child = spawn(node24, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
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
