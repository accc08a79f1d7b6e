#!/usr/bin/env -S node --max-semi-space-size=8
// The `plantstore` command. Plain JavaScript so that it starts on any Node and can say, in one line,
// when that Node is too old (package.json's `engines.node`). In this repository's checkout, where the
// "node" devDependency installed a Node 24, an older Node re-runs the command on that Node 24; an
// installed package never brings a Node of its own, so there it names the way out instead.
//
// V8's young generation: left alone, V8 grows it under load to a large share of a busy mock's RSS;
// held at 8 MB the mock stays smaller at the same req/s (fast path: see docs/performance.md §10.18).
// The line above gives the flag when the file is run as a command (npx plantstore,
// node_modules/.bin/plantstore); `node bin/plantstore.js mock` lacks it, so the mock then replaces
// its process (same pid) with one that has it, which costs start-up: hence the flag on the #! line.
// `env -S` is in GNU coreutils 8.30+, macOS and FreeBSD, not in BusyBox.
// A size the user chose (NODE_OPTIONS=--max-semi-space-size=N) wins.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Taken first: the process that started this one, which `stopWithParent` below watches.
const parentAtStart = process.ppid;
const HEAP_FLAG = '--max-semi-space-size=8';
const args = process.argv.slice(2);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The oldest Node the toolkit supports: `engines.node` is ">=X.Y.Z" (src/node-version.ts reads it too).
const oldest = /^>=\s*(\d+)\.(\d+)\.(\d+)$/
  .exec(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node)
  .slice(1)
  .map(Number);
const running = process.versions.node.split('.').map(Number);
const supported =
  running[0] !== oldest[0]
    ? running[0] > oldest[0]
    : running[1] !== oldest[1]
      ? running[1] > oldest[1]
      : running[2] >= oldest[2];
// A checkout runs src/ as it is; an installed package ships the compiled dist/ (Node strips no
// types under node_modules), and no src/.
const source = join(root, 'src', 'cli', 'main.ts');
const checkout = existsSync(source);
const sized = (flags) => flags.some((flag) => flag.includes('--max-semi-space-size'));
const userSized = sized([process.env.NODE_OPTIONS ?? '']);
// What the Node 24 process must be started with: the flag this one got, else ours for the mock.
const heapFlags = userSized
  ? []
  : sized(process.execArgv)
    ? process.execArgv.filter((flag) => sized([flag]))
    : args.includes('mock')
      ? [HEAP_FLAG]
      : [];
// (A flag the user set leaves heapFlags empty; one this process already has needs no new start.)

/**
 * Stopping with the process that started this one. npm passes no signal on to a script's command:
 * after `npm start &` (or `npx plantstore mock &`) and `kill $!`, npm and its shell end and the
 * mock would live on as an orphan that holds the port. So when npm started plantstore (npm start,
 * npm run, npx), or this file started it on Node 24 (below), it acts as if sent SIGTERM once the
 * process that started it is gone: the mock closes and frees the port, any other command stops.
 * PLANTSTORE_STOP_WITH_PARENT=0 turns this off (a mock meant to outlive the npm that started it),
 * =1 turns it on for any parent. The check is a getppid() and a kill(pid, 0) five times a second.
 */
function stopWithParent(onGone) {
  const chosen = process.env.PLANTSTORE_STOP_WITH_PARENT;
  const startedByNpm = process.env.npm_lifecycle_event !== undefined;
  if (chosen === '0' || (chosen !== '1' && !startedByNpm)) return;
  // A parent that went while this process started is found at the first check.
  const gone = () => process.ppid !== parentAtStart || !alive(parentAtStart);
  const timer = setInterval(() => {
    if (!gone()) return;
    clearInterval(timer);
    onGone();
  }, 200);
  timer.unref(); // the watch alone keeps no process alive
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM'; // there, but another user's
  }
}

if (supported && heapFlags.length > 0 && !sized(process.execArgv) && typeof process.execve === 'function') {
  // V8 reads the flag only when it starts: replace this process (same pid) with one that has it.
  try {
    process.execve(
      process.execPath,
      [process.execPath, ...process.execArgv, ...heapFlags, fileURLToPath(import.meta.url), ...args],
      process.env,
    );
  } catch {
    // No execve on this platform (Windows): run with V8's default young generation.
  }
}
if (supported) {
  stopWithParent(() => process.kill(process.pid, 'SIGTERM'));
  // Node caches compiled code, and the type-stripped TypeScript, across runs (docs/performance.md §10.18).
  const { enableCompileCache } = await import('node:module');
  enableCompileCache?.(join(root, 'node_modules', '.cache', 'plantstore-compile'));
  if (!checkout && !existsSync(join(root, 'dist', 'cli', 'main.js'))) {
    // `npm pack` compiles dist/ (the prepack script); a git checkout installed as a package has none.
    console.error(
      `plantstore: ${root} has no dist/: install the package from a tarball made by \`npm pack\`, not from a git URL.`,
    );
    process.exit(2);
  }
  const { main } = await import(checkout ? '../src/cli/main.ts' : '../dist/cli/main.js');
  await main(args);
} else if (!checkout) {
  // An installed package: the project's own Node runs it, or nothing does. One line, no stack (and
  // not the arguments, which may hold a token).
  console.error(
    `plantstore needs Node ${oldest.join('.')} or newer; this is Node ${process.versions.node}. Run it on Node ${oldest[0]} with \`npx -p node@${oldest[0]} plantstore ...\`.`,
  );
  process.exitCode = 2;
} else {
  // This repository's checkout on an older Node (`node bin/plantstore.js ...`): the Node 24 of the
  // "node" devDependency runs it as a child process (one more process, its memory and start-up:
  // docs/performance.md §10.18; Node 20 has no execve); this one passes signals on and ends as the child ended.
  // `npm start`, `npm test` and `npx plantstore` need no child: npm puts node_modules/.bin (Node 24)
  // first on PATH.
  const node24 = join(root, 'node_modules', '.bin', 'node');
  if (!existsSync(node24)) {
    console.error(
      `plantstore needs Node ${oldest.join('.')} or newer; this is Node ${process.versions.node}. Run \`npm ci\` in ${root} to fetch it.`,
    );
    process.exit(2);
  }
  // The mock runs in a process group of its own, so that a signal sent to this one's group
  // (Ctrl-C, `timeout`) reaches it once, from here: a second SIGINT that lands while Node exits
  // ends the process by that signal, and the exit status would be 130 instead of 0. Every other
  // command stays in this group, where it can read the terminal, and ends on the first signal.
  const ownGroup = process.platform !== 'win32' && args.find((arg) => !arg.startsWith('-')) === 'mock';
  const child = spawn(node24, [...heapFlags, fileURLToPath(import.meta.url), ...args], {
    stdio: 'inherit',
    detached: ownGroup,
    env: { ...process.env, PLANTSTORE_STOP_WITH_PARENT: '1' },
  });
  const forward = (signal) => child.exitCode === null && child.signalCode === null && child.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => forward(signal));
  stopWithParent(() => forward('SIGTERM'));
  child.on('error', (error) => {
    console.error(`plantstore: cannot run ${node24}: ${error.message}`);
    process.exit(2);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      // Ended by a signal: end the same way, so the caller sees what its child saw.
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
}
