// The mock's log: one line per request, in text or JSON. Lines are buffered and written together,
// at most FLUSH_AFTER_MS after the first of them (or at once past FLUSH_AT_CHARS): stderr writes are
// synchronous, and with a write per event-loop turn the log cost the mock 5-10% of its rate under
// load, ~0-6% with this batch (README, Performance). Messages (info, warnings, errors) are
// written at once, and close() writes what is left.
import type { LogFormat } from '../mock/options.ts';
import { isoTimestamp } from './clock.ts';

export interface RequestLine {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  operationId?: string;
  problems?: string[];
}

export interface Logger {
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
  stream: { write(chunk: string): unknown };
}

/** A line waits at most this long before it is written: a person reading the log sees no lag. */
export const FLUSH_AFTER_MS = 20;
/** ...or until this much is buffered, so a burst never holds much memory. */
export const FLUSH_AT_CHARS = 64 * 1024;

/** A logger that writes to a stream (stderr for the CLI). */
export function createLogger({ format, quiet, stream }: LoggerOptions): Logger {
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    stream.write(chunk);
  };
  const write = (line: string) => {
    pending += `${line}\n`;
    if (pending.length >= FLUSH_AT_CHARS) flush();
    else timer ??= setTimeout(flush, FLUSH_AFTER_MS);
  };
  // Messages are few (start-up, warnings, errors) and someone may be waiting for one (a test
  // runner for "listening on"): written at once, with any request lines before them.
  const message = (level: 'info' | 'warn' | 'error', text: string) => {
    if (format === 'json') write(JSON.stringify({ time: isoTimestamp(), level, msg: text }));
    else write(level === 'info' ? text : `${level === 'warn' ? 'warning' : 'ERROR'}: ${text}`);
    flush();
  };
  return {
    request(line) {
      if (quiet) return;
      if (format === 'json') {
        write(JSON.stringify({ time: isoTimestamp(), level: 'info', method: line.method, path: line.path, status: line.status, ms: round(line.durationMs), operationId: line.operationId, problems: line.problems }));
      } else {
        const problems = line.problems?.length ? `  ${line.problems.join('; ')}` : '';
        write(`${clock()} ${line.method} ${line.path} ${line.status} ${round(line.durationMs)}ms${problems}`);
      }
    },
    info: (text) => {
      if (!quiet) message('info', text);
    },
    warn: (text) => message('warn', text),
    error: (text) => message('error', text),
    flush,
  };
}

/** A logger that drops everything (tests, library use without logs). */
export const silentLogger: Logger = { request() {}, info() {}, warn() {}, error() {}, flush() {} };

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

// The time of day of the current timestamp, cut once per millisecond (isoTimestamp hands out the
// same string object within one).
let clockOf = '';
let clockText = '';
function clock(): string {
  const iso = isoTimestamp();
  if (iso !== clockOf) {
    clockOf = iso;
    clockText = iso.slice(11, 23);
  }
  return clockText;
}
