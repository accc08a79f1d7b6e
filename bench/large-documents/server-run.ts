// One start of one server on one large document, timed from spawn: until its port accepts a
// connection (listening), until the probe request gets an answer (first answer), then the first
// request of each sampled operation, the server's RSS after them, and how long SIGTERM takes to end
// it. A request that gets no answer in time ends the run's requests: a server busy for that long
// answers nothing else either, and the SIGTERM that follows is then sent to a busy server.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, procStatusBytes, track } from '../lib/processes.ts';
import type { BenchRequest } from '../lib/document-requests.ts';

const POLL_MS = 10;
/** How long SIGTERM may take before the run kills the server and reports "over" this. */
export const TERM_LIMIT_MS = 5000;

export interface ServerCommand {
  command: string;
  args(port: number): string[];
  /** Read at each spawn (the plantstore configurations change their cache folder between starts). */
  env?(): NodeJS.ProcessEnv;
}

export interface OperationAnswer {
  operation: string;
  /** Milliseconds from sending to the whole answer; undefined: no answer within the time limit. */
  ms?: number;
  status?: number;
}

export interface RunResult {
  listeningMs?: number;
  firstAnswerMs?: number;
  probeStatus?: number;
  answers: OperationAnswer[];
  rssBytes?: number;
  /** Milliseconds from SIGTERM to exit; undefined: still running after TERM_LIMIT_MS (then killed). */
  termMs?: number;
  /** What stopped the run early, if anything ("no answer to GET /v1/account within 90 s"). */
  stalled?: string;
  /**
   * Milliseconds from spawn until `settled` held (plantstore's warm-up wrote its compiled validators); undefined: not
   * asked, or not within the time-out.
   */
  settledMs?: number;
}

/** The answer's status once it has fully arrived, or undefined (refused, reset, or too slow). */
function send(url: string, req: BenchRequest, timeoutMs: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const outgoing = request(
      `${url}${req.target}`,
      { method: req.method, headers: req.headers, agent: false },
      (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode));
        res.once('error', () => resolve(undefined));
      },
    );
    outgoing.setTimeout(timeoutMs, () => outgoing.destroy());
    outgoing.once('error', () => resolve(undefined));
    outgoing.end();
  });
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** Sends SIGTERM; resolves to the ms until exit, or undefined after TERM_LIMIT_MS (then SIGKILL). */
export function timeTerm(child: ChildProcess): Promise<number | undefined> {
  if (exited(child)) return Promise.resolve(0);
  return new Promise((resolve) => {
    const sent = performance.now();
    const limit = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(undefined);
    }, TERM_LIMIT_MS);
    child.once('exit', () => {
      clearTimeout(limit);
      resolve(performance.now() - sent);
    });
    child.kill('SIGTERM');
  });
}

/** Spawns the server with its output to `logFile`; the port is free a moment before. */
export async function spawnServer(
  server: ServerCommand,
  logFile: string,
): Promise<{ child: ChildProcess; port: number; started: number }> {
  const port = await freePort();
  const log = openSync(logFile, 'w');
  const started = performance.now();
  const child = track(
    spawn(server.command, server.args(port), { stdio: ['ignore', log, log], env: server.env?.() ?? process.env }),
  );
  closeSync(log);
  return { child, port, started };
}

/** One start, measured; the server is stopped (SIGTERM, timed) before this resolves. */
export async function measureRun(
  server: ServerCommand,
  probe: BenchRequest,
  sample: readonly BenchRequest[],
  options: { logFile: string; answerTimeoutMs: number; requestTimeoutMs: number; settled?: () => boolean },
): Promise<RunResult> {
  const { child, port, started } = await spawnServer(server, options.logFile);
  const url = `http://127.0.0.1:${port}`;
  const result: RunResult = { answers: [] };
  const deadline = started + options.answerTimeoutMs;
  const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
  try {
    while (result.listeningMs === undefined && result.stalled === undefined) {
      // A server that refuses the document is a result to report, not a reason to stop the benchmark.
      if (exited(child)) {
        result.stalled = `exited before listening (${child.exitCode ?? child.signalCode}); see ${options.logFile}`;
        break;
      }
      if (await accepts(port)) result.listeningMs = performance.now() - started;
      else if (performance.now() > deadline) break;
      else await sleep(POLL_MS);
    }
    while (result.listeningMs !== undefined && result.firstAnswerMs === undefined && performance.now() < deadline) {
      const status = await send(url, probe, Math.max(1, deadline - performance.now()));
      if (status !== undefined) {
        result.firstAnswerMs = performance.now() - started;
        result.probeStatus = status;
      } else if (exited(child)) {
        result.stalled = `exited before answering (${child.exitCode ?? child.signalCode}); see ${options.logFile}`;
        break;
      } else await sleep(POLL_MS);
    }
    if (result.firstAnswerMs === undefined)
      result.stalled ??= `no answer to ${probe.operation} within ${seconds(options.answerTimeoutMs)} of spawn`;
    for (const req of result.stalled ? [] : sample) {
      const sent = performance.now();
      const status = await send(url, req, options.requestTimeoutMs);
      if (status === undefined) {
        result.answers.push({ operation: req.operation });
        result.stalled = `no answer to ${req.operation} within ${seconds(options.requestTimeoutMs)}`;
        break;
      }
      result.answers.push({ operation: req.operation, ms: performance.now() - sent, status });
    }
    const rss = procStatusBytes(child.pid as number, 'VmRSS');
    result.rssBytes = Number.isNaN(rss) ? undefined : rss;
    // Left running, as a user's first session would be, until its background work is done.
    const settleDeadline = performance.now() + options.answerTimeoutMs;
    while (options.settled && !result.stalled && performance.now() < settleDeadline && !exited(child)) {
      if (options.settled()) {
        result.settledMs = performance.now() - started;
        break;
      }
      await sleep(POLL_MS);
    }
  } finally {
    result.termMs = await timeTerm(child);
  }
  return result;
}

/**
 * SIGTERM while the server is still loading: sent `delayMs` after spawn (the caller picks a moment
 * inside the measured loading time). Whether the port already accepted is reported too.
 */
export async function measureTermWhileLoading(
  server: ServerCommand,
  delayMs: number,
  logFile: string,
): Promise<{ termMs?: number; listening: boolean }> {
  const { child, port, started } = await spawnServer(server, logFile);
  await sleep(Math.max(0, started + delayMs - performance.now()));
  const listening = await accepts(port);
  return { termMs: await timeTerm(child), listening };
}
