// Stopping the mock the ways a user starts and stops it: `npm start &` or `npx plantstore mock &`
// then `kill $!`, Ctrl-C (SIGINT to the foreground process group), `timeout` (SIGTERM to the
// group), and `node bin/plantstore.js mock` on an older Node, which runs the bundled Node 24 as a
// child. Each case waits for the started process's 'close' event: it comes once every process
// holding its stdout and stderr (npm, its shell, the mock, a child Node) has exited, so nothing is
// left behind; then the port must be free to listen on again.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join, resolve } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN } from '../helpers/cli.ts';

const root = resolve('.');

/** The environment of a user's shell: no npm script around it, the project's node_modules/.bin not on PATH. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!/^npm_/i.test(name) && name !== 'PLANTSTORE_STOP_WITH_PARENT') env[name] = value;
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => !resolve(dir).startsWith(join(root, 'node_modules')))
    .join(delimiter);
  return env;
}

/** A Node older than 24 on the user's PATH (the machine's Node), if there is one. */
function olderNode(): string | undefined {
  for (const dir of (userEnv().PATH ?? '').split(delimiter)) {
    const node = join(dir, 'node');
    if (!existsSync(node)) continue;
    const major = Number(spawnSync(node, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout);
    return major < 24 ? node : undefined;
  }
  return undefined;
}
const machineNode = olderNode();

/** The pids of a process and of every process below it (Linux: read from /proc). */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (command) state ppid ...": the command may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/**
 * Still running. Not a zombie (exited, its status not yet collected by whoever adopted it), nor a
 * process in the middle of exiting: the kernel closes its files (our pipe among them) before it
 * turns it into a zombie, so between the two it is listed with no open file.
 */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return (
      stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z' &&
      readdirSync(`/proc/${pid}/fd`).length > 0
    );
  } catch {
    return false;
  }
};

/** Starts a command in a process group of its own, as a shell starts a job, and resolves with the mock's URL. */
async function startJob(command: string, args: string[]): Promise<{ job: ChildProcess; url: string; tree: number[] }> {
  const job = spawn(command, args, { cwd: root, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stderr = '';
  const url = await new Promise<string>((done, fail) => {
    job.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const found = /on (http:\/\/\S+)/.exec(stderr)?.[1];
      if (found) done(found);
    });
    job.once('exit', (code) => fail(new Error(`${command} exited with ${code} before the mock started: ${stderr}`)));
  });
  job.stdout!.resume();
  const tree = processTree(job.pid!);
  // Whatever the test's outcome (a timeout included), nothing it started outlives it.
  onTestFinished(() => {
    for (const pid of tree.filter(alive)) process.kill(pid, 'SIGKILL');
  });
  return { job, url, tree };
}

async function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  server.listen(port, '127.0.0.1');
  const [outcome] = await Promise.race([
    once(server, 'listening').then(() => ['free']),
    once(server, 'error').then(() => ['taken']),
  ]);
  if (outcome === 'free') await new Promise((done) => server.close(done));
  return outcome === 'free';
}

const STARTS: Array<[string, string, string[], boolean]> = [
  ['npm start', 'npm', ['start', '--', '--port', '0'], true],
  ['npx plantstore mock', 'npx', ['plantstore', 'mock', '--port', '0'], true],
  [
    'node bin/plantstore.js mock on an older Node',
    machineNode ?? 'node',
    [BIN, 'mock', '--port', '0'],
    machineNode !== undefined,
  ],
];

const STOPS: Array<[string, (job: ChildProcess) => void]> = [
  ['kill $! (SIGTERM to the job)', (job) => job.kill('SIGTERM')],
  ['Ctrl-C (SIGINT to the process group)', (job) => process.kill(-job.pid!, 'SIGINT')],
  ['timeout (SIGTERM to the job and its group)', (job) => process.kill(-job.pid!, 'SIGTERM')],
];

describe.runIf(existsSync('/proc/self/stat'))('stopping the mock', () => {
  for (const [started, command, args, available] of STARTS) {
    it.runIf(available).each(STOPS)(
      `started with ${started}, stopped with %s, leaves no process and frees the port`,
      async (_, stop) => {
        const { job, url, tree } = await startJob(command, args);
        const health = await fetch(`${url}/__mock/health`);
        expect(health.status).toBe(200);
        await health.arrayBuffer();
        const closed = once(job, 'close');
        stop(job);
        await closed;
        expect(tree.filter(alive)).toEqual([]);
        expect(await portIsFree(Number(new URL(url).port))).toBe(true);
      },
    );
  }

  it.runIf(machineNode !== undefined)(
    'started on an older Node, stops with the Node 24 child when that Node is killed outright (kill -9)',
    async () => {
      const { job, url, tree } = await startJob(machineNode!, [BIN, 'mock', '--port', '0']);
      expect(tree.length).toBe(2); // this Node and the bundled Node 24
      const closed = once(job, 'close');
      job.kill('SIGKILL');
      await closed; // the child held the same stderr: it has exited too
      expect(tree.filter(alive)).toEqual([]);
      expect(await portIsFree(Number(new URL(url).port))).toBe(true);
    },
  );

  it.runIf(machineNode !== undefined)(
    'started on an older Node, ends with the exit status of the Node 24 child',
    async () => {
      const run = (args: string[], input = '') =>
        spawnSync(machineNode!, [BIN, ...args], { cwd: root, env: userEnv(), encoding: 'utf8', input });
      expect(run(['validate', 'NewPlant'], '{"id":1,"name":"Fern"}').status).toBe(0);
      expect(run(['validate', 'NewPlant'], '{"id":1}').status).toBe(1);
      expect(run(['mock', '--port', '70000']).status).toBe(2);
    },
  );
});
