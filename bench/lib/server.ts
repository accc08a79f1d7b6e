// The measuring core's server: started on the server core on this Node 24 (so the pid is the server's),
// its output to a file, ready once it has answered a create (spawn to that answer is its start-up).
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, pinned, rssBytes, SERVER_CORE, stop, track } from './processes.ts';
import { headersOf, scenario } from './scenarios.ts';

/** The checkout's root. */
export const ROOT = join(import.meta.dirname, '..', '..');
export const PLANT_STORE = join(ROOT, 'openapi', 'plant-store.yaml');
export const RESULTS = join(ROOT, 'bench', 'results');
export const LOGS = join(RESULTS, 'logs');
export const prismCli = () => createRequire(import.meta.url).resolve('@stoplight/prism-cli/dist/index.js');

/** How to start a server on a port. */
export interface ServerCommand {
  title: string;
  /** Node's arguments (script first) for a server on `port`. */
  args(port: number): string[];
  /** Run the script as a command (its #! line picks Node and its flags, as `npx plantstore` does). */
  asCommand?: boolean;
}

/** `plantstore mock` of the tree at `root` (this checkout by default), started as a user starts it. */
export const mockCommand = (title: string, extra: string[] = [], root = ROOT): ServerCommand => ({
  title,
  args: (port) => [join(root, 'bin', 'plantstore.js'), 'mock', '--port', String(port), ...extra],
  asCommand: true,
});

/** A server of bench/lib/ (the baseline, the pass-through proxy) with its arguments. */
export const benchServer = (title: string, script: string, args: string[]): ServerCommand => ({
  title,
  args: (port) => [join(import.meta.dirname, script), ...args, '--port', String(port)],
});

export interface RunningServer {
  url: string;
  pid: number;
  startupMs: number;
  logFile: string;
  /** Resident set size now, in bytes, from /proc/PID/status (VmRSS). */
  memory(): { rssBytes: number };
  /** How it ended (its exit code or signal), or undefined while it runs. */
  exit(): string | undefined;
  stop(): Promise<void>;
}

type Request = { method: string; headers: Record<string, string>; body?: string };

/** One request's status once its answer has fully arrived; undefined when refused, reset, or too slow. */
export function statusOf(url: string, init: Request, timeoutMs: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const req = request(url, { ...init, agent: false }, (res) => {
      res.once('end', () => resolve(res.statusCode)).once('error', () => resolve(undefined));
      res.resume();
    });
    req.setTimeout(timeoutMs, () => req.destroy()).once('error', () => resolve(undefined));
    req.end(init.body);
  });
}

let probeId = 0;
/** One POST of a valid create (negative ids: the loads' are positive). */
const probe = (url: string) => {
  const body = JSON.stringify({ id: -1_000_000 - probeId++, name: 'probe' });
  return statusOf(`${url}/plants`, { method: 'POST', headers: headersOf(scenario('valid')), body }, 2000);
};

const tail = (file: string) => readFileSync(file, 'utf8').split('\n').slice(-12).join('\n');

/** Starts `server` on a free port and resolves once it has answered a create with 200 (60 s at most). */
export async function startServer(server: ServerCommand, options: { logFile: string }): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  mkdirSync(dirname(options.logFile), { recursive: true });
  const log = openSync(options.logFile, 'w');
  const script = server.args(port);
  const [command, args] = server.asCommand
    ? pinned(SERVER_CORE, script[0], script.slice(1))
    : pinned(SERVER_CORE, process.execPath, script);
  // A command finds its Node on PATH: this benchmark's Node 24, whatever else the shell has.
  const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` };
  const started = performance.now();
  // Output to a file: the server pays for its logging as a user redirecting it would.
  const child = track(spawn(command, args, { stdio: ['ignore', log, log], env }));
  closeSync(log);
  const exit = () => (child.exitCode ?? child.signalCode ?? undefined)?.toString();
  const fail = (why: string) => new Error(`${server.title} ${why}; its output:\n${tail(options.logFile)}`);
  for (let status; (status = await probe(url)) !== 200; await sleep(5)) {
    if (exit()) throw fail(`exited before answering (${exit()})`);
    if (performance.now() - started > 60_000) {
      await stop(child);
      throw fail(`answered no create within 60 s (last status ${status})`);
    }
  }
  const pid = child.pid as number;
  return {
    url,
    pid,
    startupMs: performance.now() - started,
    logFile: options.logFile,
    memory: () => ({ rssBytes: rssBytes(pid) }),
    exit,
    stop: () => stop(child),
  };
}
