// The mock's log: one line per request, in text or JSON. A request line is formatted as it is
// noted and added to a batch, which is written at most FLUSH_AFTER_MS after its first line (or at
// once past FLUSH_AT_LINES lines or BATCH_CHARS): writing a line as each request ended cost the
// mock a share of its rate (fast path: see docs/performance.md §10.7). Messages (info, warnings, errors) are
// written at once, after the lines noted before them, and flush() writes what is left.
import { isoTimestamp } from './clock.ts';

export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface RequestLine {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  operationId?: string;
  problems?: string[];
  /** When the request ended, in epoch milliseconds; now when absent. */
  time?: number;
}

export interface Logger {
  /** Notes a request line: formatted at once (the object is not kept), written with its batch. */
  request(line: RequestLine): void;
  info(message: string): void;
  warn(message: string): void;
  /** For bugs and fatal conditions: always written, whatever the verbosity. */
  error(message: string): void;
  /** Writes what is buffered now. */
  flush(): void;
}

export interface LoggerOptions {
  format: LogFormat;
  /** Leave out request lines and info. */
  quiet: boolean;
  /**
   * Where lines go. A stream that fails (its reader went away: `plantstore mock 2>&1 | head`) ends the log, never the
   * mock.
   */
  stream: { write(chunk: string): unknown; on?(event: 'error', listener: (error: Error) => void): unknown };
}

/** A line waits at most this long before it is written: a person reading the log sees no lag. */
export const FLUSH_AFTER_MS = 20;
/** ...or until this many wait, so a burst never holds much: they are written at once. */
export const FLUSH_AT_LINES = 512;

/** Characters a batch of lines may hold before it is written, whatever its line count. */
const BATCH_CHARS = 64 * 1024;

/** A logger that writes to a stream (stderr for the CLI). */
export function createLogger({ format, quiet, stream }: LoggerOptions): Logger {
  let timer: NodeJS.Timeout | undefined;
  // A log nobody can read any more is dropped: the mock goes on serving (a write error, thrown or
  // emitted, would otherwise end the process).
  let broken = false;
  stream.on?.('error', () => {
    broken = true;
  });
  const output = (chunk: string) => {
    if (broken) return;
    try {
      stream.write(chunk);
    } catch {
      broken = true;
    }
  };
  let batch = '';
  let lines = 0;
  const stopTimer = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  const take = () => {
    const chunk = batch;
    batch = '';
    lines = 0;
    return chunk;
  };
  const flush = () => {
    stopTimer();
    if (lines > 0) output(take());
  };
  // Messages are few (start-up, warnings, errors) and someone may be waiting for one (a test
  // runner for "listening on"): written at once, with the request lines noted before them.
  const message = (level: 'info' | 'warn' | 'error', text: string) => {
    const line =
      format === 'json'
        ? JSON.stringify({ time: isoTimestamp(), level, msg: text })
        : level === 'info'
          ? text
          : `${level === 'warn' ? 'warning' : 'ERROR'}: ${text}`;
    stopTimer();
    output(`${take()}${line}\n`);
  };
  return {
    request(line) {
      if (quiet) return;
      const time = line.time ?? Date.now();
      batch += format === 'json' ? `${jsonLine(line, time)}\n` : textLine(line, time);
      lines++;
      if (lines >= FLUSH_AT_LINES || batch.length >= BATCH_CHARS) flush();
      else timer ??= setTimeout(flush, FLUSH_AFTER_MS);
    },
    info: (text) => {
      if (!quiet) message('info', text);
    },
    warn: (text) => message('warn', text),
    error: (text) => message('error', text),
    flush,
  };
}

/** `HH:MM:SS.mmm METHOD PATH STATUS DURATIONms`, then two spaces and the problems if any, then a newline. */
function textLine(line: RequestLine, time: number): string {
  const problems = line.problems?.length ? `  ${line.problems.join('; ')}` : '';
  return (
    `${isoTimestamp(time).slice(11, 23)} ${line.method} ${line.path} ${line.status} ` +
    `${round(line.durationMs)}ms${problems}\n`
  );
}

function jsonLine(line: RequestLine, time: number): string {
  return JSON.stringify({
    time: isoTimestamp(time),
    level: 'info',
    method: line.method,
    path: line.path,
    status: line.status,
    ms: round(line.durationMs),
    operationId: line.operationId,
    problems: line.problems,
  });
}

/** A logger that drops everything (tests, library use without logs). */
export const silentLogger: Logger = { request() {}, info() {}, warn() {}, error() {}, flush() {} };

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
