// Starts one server under test pinned to its core, with its output (the request log included) going
// to a file, and measures its start-up: from spawn to the first successful create answered (a POST
// polled every few ms), which is what a test suite waiting for its mock actually waits for.
// Every server runs on the Node 24 running the benchmark (process.execPath), directly, so that the
// pid we spawn is the server's own process (its RSS and CPU time are what we read).
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, pinned, procStatusBytes, SERVER_CORE, stop, track } from './processes.ts';

/** The checkout's root. */
export const ROOT = join(import.meta.dirname, '..', '..');
export const PLANT_STORE = join(ROOT, 'openapi', 'plant-store.yaml');
export const RESULTS = join(ROOT, 'bench', 'results');
export const prismCli = () => createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');

/** How to start a server on a port. */
export interface ServerCommand {
  title: string;
  /** Node's arguments (script first) for a server on `port`. */
  args(port: number): string[];
  /**
   * Run the script as a command (its #! line picks Node and its flags, as `npx plantstore` does),
   * with this Node first on PATH.
   */
  asCommand?: boolean;
}

/** `plantstore mock` of the tree at `root` (this checkout by default), started as a user starts it. */
export const mockCommand = (title: string, extra: string[] = [], root = ROOT): ServerCommand => ({
  title,
  args: (port) => [join(root, 'bin', 'plantstore.js'), 'mock', '--port', String(port), ...extra],
  asCommand: true,
});

/** A server of this folder's (the baseline, the pass-through proxy) with its arguments. */
export const benchServer = (title: string, script: string, args: string[]): ServerCommand => ({
  title,
  args: (port) => [join(import.meta.dirname, script), ...args, '--port', String(port)],
});

const POLL_MS = 5;
const START_DEADLINE_MS = 60_000;

export interface RunningServer {
  url: string;
  pid: number;
  startupMs: number;
  logFile: string;
  /** Resident set size now, in bytes, from /proc/PID/status (VmRSS), and its peak (VmHWM). */
  memory(): { rssBytes: number; peakRssBytes: number };
  /** How it ended ('code 1', 'signal SIGKILL'), or undefined while it runs. */
  exit(): string | undefined;
  stop(): Promise<void>;
}

let probeId = 0;

/** One POST of a valid create; resolves to its status, or undefined when nothing answers yet. */
function probe(url: string): Promise<number | undefined> {
  // Negative ids: the load's ids are positive, so a probe never collides with them.
  const body = JSON.stringify({ id: -1_000_000 - probeId++, name: 'probe' });
  return new Promise((resolve) => {
    const req = request(
      `${url}/plants`,
      {
        method: 'POST',
        agent: false,
        headers: {
          authorization: 'Bearer bench-token',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode));
      },
    );
    req.setTimeout(2000, () => req.destroy());
    req.once('error', () => resolve(undefined));
    req.end(body);
  });
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-12).join('\n');
  } catch {
    return '(no output)';
  }
}

/** Starts `server` on a free port and resolves once it has answered a create with 200. */
export async function startServer(server: ServerCommand, options: { logFile: string }): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = openSync(options.logFile, 'w');
  const script = server.args(port);
  const [command, args] = server.asCommand
    ? pinned(SERVER_CORE, script[0], script.slice(1))
    : pinned(SERVER_CORE, process.execPath, script);
  // A command finds its Node on PATH: this benchmark's Node 24, whatever else the shell has.
  const env = server.asCommand
    ? { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` }
    : process.env;
  const started = performance.now();
  // stdout and stderr to a file: the server pays for its logging as a user redirecting it would,
  // and nothing in this process has to drain a pipe meanwhile.
  const child: ChildProcess = track(spawn(command, args, { stdio: ['ignore', log, log], env }));
  closeSync(log);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  for (;;) {
    const status = await probe(url);
    if (status === 200) break;
    if (exited)
      throw new Error(
        `${server.title} exited before answering (code ${child.exitCode}); its output:\n${tail(options.logFile)}`,
      );
    if (performance.now() - started > START_DEADLINE_MS) {
      await stop(child);
      throw new Error(
        `${server.title} did not answer a create within ${START_DEADLINE_MS} ms (last status ${status ?? 'none'}); its output:\n${tail(options.logFile)}`,
      );
    }
    await sleep(POLL_MS);
  }
  const startupMs = performance.now() - started;
  const pid = child.pid as number;
  return {
    url,
    pid,
    startupMs,
    logFile: options.logFile,
    memory: () => ({ rssBytes: procStatusBytes(pid, 'VmRSS'), peakRssBytes: procStatusBytes(pid, 'VmHWM') }),
    exit: () =>
      child.exitCode !== null
        ? `code ${child.exitCode}`
        : child.signalCode !== null
          ? `signal ${child.signalCode}`
          : undefined,
    stop: () => stop(child),
  };
}
