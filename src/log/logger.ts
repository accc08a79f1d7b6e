// The mock's log: one line per request, in text or JSON. A request line is only noted when it
// happens (its fields and the time) and formatted with the others when they are written, at most
// FLUSH_AFTER_MS after the first of them (or at once past FLUSH_AT_LINES): formatting and writing
// a line as each request ends cost the mock ~5% of its rate on the socket, formatting a batch in
// one loop far less (README, Performance). Messages (info, warnings, errors) are written at once,
// after the lines noted before them, and flush() writes what is left.
import type { LogFormat } from '../mock/options.ts';
import { isoTimestamp } from './clock.ts';

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
  /** Notes a request line; the logger keeps the object until the line is written, so do not change it after. */
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
  /** Where lines go. A stream that fails (its reader went away: `plantstore mock 2>&1 | head`) ends the log, never the mock. */
  stream: { write(chunk: string): unknown; on?(event: 'error', listener: (error: Error) => void): unknown };
}

/** A line waits at most this long before it is written: a person reading the log sees no lag. */
export const FLUSH_AFTER_MS = 20;
/** ...or until this many wait, so a burst never holds much: they are written at once. */
export const FLUSH_AT_LINES = 512;

/** A logger that writes to a stream (stderr for the CLI). */
export function createLogger({ format, quiet, stream }: LoggerOptions): Logger {
  // Noted lines and their times, side by side (no object per request beyond the caller's).
  const lines: RequestLine[] = [];
  const times: number[] = [];
  let timer: NodeJS.Timeout | undefined;
  const formatLine = format === 'json' ? jsonLine : textLine;
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
  // The batch's text in one allocation: join sizes it once, where += would chain a string per line.
  const texts: string[] = [];
  const take = (): string => {
    if (lines.length === 0) return '';
    for (let i = 0; i < lines.length; i++) texts.push(formatLine(lines[i], times[i]));
    texts.push(''); // the last line's newline
    const chunk = texts.join('\n');
    lines.length = 0;
    times.length = 0;
    texts.length = 0;
    return chunk;
  };
  const stopTimer = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  const flush = () => {
    stopTimer();
    if (lines.length > 0) output(take());
  };
  // Messages are few (start-up, warnings, errors) and someone may be waiting for one (a test
  // runner for "listening on"): written at once, with the request lines noted before them.
  const message = (level: 'info' | 'warn' | 'error', text: string) => {
    const line = format === 'json' ? JSON.stringify({ time: isoTimestamp(), level, msg: text }) : level === 'info' ? text : `${level === 'warn' ? 'warning' : 'ERROR'}: ${text}`;
    stopTimer();
    output(`${take()}${line}\n`);
  };
  return {
    request(line) {
      if (quiet) return;
      lines.push(line);
      times.push(line.time ?? Date.now());
      if (lines.length >= FLUSH_AT_LINES) flush();
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

function textLine(line: RequestLine, time: number): string {
  const problems = line.problems?.length ? `  ${line.problems.join('; ')}` : '';
  return `${clock(time)} ${line.method} ${line.path} ${line.status} ${milliseconds(line.durationMs)}ms${problems}`;
}

/**
 * round(ms) as text, from integers: the same text as String(round(ms)) ("0.07", "1.5", "12"),
 * without the shortest-double conversion, which was the most of a line's cost.
 */
export function milliseconds(ms: number): string {
  const hundredths = Math.round(ms * 100);
  if (!(hundredths >= 0 && hundredths < 2 ** 31)) return String(round(ms));
  const whole = Math.floor(hundredths / 100);
  const part = hundredths - whole * 100;
  if (part === 0) return String(whole);
  return part % 10 === 0 ? `${whole}.${part / 10}` : `${whole}.${part < 10 ? '0' : ''}${part}`;
}

function jsonLine(line: RequestLine, time: number): string {
  return JSON.stringify({ time: isoTimestamp(time), level: 'info', method: line.method, path: line.path, status: line.status, ms: round(line.durationMs), operationId: line.operationId, problems: line.problems });
}

/** A logger that drops everything (tests, library use without logs). */
export const silentLogger: Logger = { request() {}, info() {}, warn() {}, error() {}, flush() {} };

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

// The time of day of a timestamp, cut once per millisecond (isoTimestamp hands out the same string
// object within one).
let clockOf = '';
let clockText = '';
function clock(time: number): string {
  const iso = isoTimestamp(time);
  if (iso !== clockOf) {
    clockOf = iso;
    clockText = iso.slice(11, 23);
  }
  return clockText;
}
