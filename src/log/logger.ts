// The mock's log: one line per request, in text or JSON. A request line is formatted as it is
// noted, into the bytes of a batch, and the batch is written at most FLUSH_AFTER_MS after its
// first line (or at once past FLUSH_AT_LINES lines or BATCH_BYTES): writing a line as each request
// ended cost the mock ~5% of its rate on the socket (docs/performance.md). Messages (info,
// warnings, errors) are written at once, after the lines noted before them, and flush() writes
// what is left.
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
  /** Where lines go. A stream that fails (its reader went away: `plantstore mock 2>&1 | head`) ends the log, never the mock. */
  stream: { write(chunk: string): unknown; on?(event: 'error', listener: (error: Error) => void): unknown };
}

/** A line waits at most this long before it is written: a person reading the log sees no lag. */
export const FLUSH_AFTER_MS = 20;
/** ...or until this many wait, so a burst never holds much: they are written at once. */
export const FLUSH_AT_LINES = 512;

/** Bytes a batch of lines may take before it is written, whatever its line count. */
const BATCH_BYTES = 64 * 1024;

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
  const batch = createBatch(BATCH_BYTES);
  const stopTimer = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  const flush = () => {
    stopTimer();
    if (batch.lines > 0) output(batch.take());
  };
  // A line that would not fit goes after the batch (its lines are older); one larger than a whole
  // batch (a path of kilobytes) is written alone, from a batch of its own size.
  const room = (bytes: number): boolean => {
    if (batch.fits(bytes)) return true;
    if (batch.lines > 0) output(batch.take());
    return batch.fits(bytes);
  };
  // Messages are few (start-up, warnings, errors) and someone may be waiting for one (a test
  // runner for "listening on"): written at once, with the request lines noted before them.
  const message = (level: 'info' | 'warn' | 'error', text: string) => {
    const line = format === 'json' ? JSON.stringify({ time: isoTimestamp(), level, msg: text }) : level === 'info' ? text : `${level === 'warn' ? 'warning' : 'ERROR'}: ${text}`;
    stopTimer();
    output(`${batch.lines > 0 ? batch.take() : ''}${line}\n`);
  };
  return {
    request(line) {
      if (quiet) return;
      const time = line.time ?? Date.now();
      if (format === 'json') {
        const text = `${jsonLine(line, time)}\n`;
        if (room(3 * text.length)) batch.text(text);
        else output(text);
      } else {
        const problems = line.problems?.length ? line.problems.join('; ') : '';
        const bytes = TEXT_LINE_BYTES + 3 * (line.method.length + line.path.length + problems.length);
        if (room(bytes)) batch.textLine(line, time, problems);
        else output(createBatch(bytes).textLine(line, time, problems).take());
      }
      if (batch.lines >= FLUSH_AT_LINES) flush();
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

/** A text line's bytes beyond its method, path and problems (clock, status, duration, separators), with room to spare. */
const TEXT_LINE_BYTES = 64;

/**
 * Request lines formatted into bytes as they are noted: no string and no object per line is made
 * or kept until the batch is written (docs/performance.md). ASCII goes in byte by byte; a piece
 * with another character goes through Buffer#utf8Write from that character on.
 */
function createBatch(size: number) {
  const bytes = Buffer.allocUnsafeSlow(size);
  let used = 0;
  let lines = 0;
  const put = (text: string) => {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) {
        used += bytes.write(i === 0 ? text : text.slice(i), used, 'utf8');
        return;
      }
      bytes[used++] = c;
    }
  };
  // A whole number from 0 to 2^31 - 1, in decimal.
  const digits = (n: number) => {
    let length = 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) length++;
    for (let i = used + length - 1; i >= used; i--) {
      bytes[i] = 0x30 + (n % 10);
      n = Math.floor(n / 10);
    }
    used += length;
  };
  // round(ms) as text, from integers: the same text as String(round(ms)) ("0.07", "1.5", "12")
  // without the shortest-double conversion, which was the most of a line's cost.
  const duration = (ms: number) => {
    const hundredths = Math.round(ms * 100);
    if (!(hundredths >= 0 && hundredths < 2 ** 31)) {
      put(String(round(ms)));
      return;
    }
    const whole = Math.floor(hundredths / 100);
    const part = hundredths - whole * 100;
    digits(whole);
    if (part === 0) return;
    bytes[used++] = 0x2e; // .
    if (part % 10 === 0) digits(part / 10);
    else {
      if (part < 10) bytes[used++] = 0x30;
      digits(part);
    }
  };
  // The time of day (HH:MM:SS.mmm) of the last millisecond seen, as bytes.
  const clockBytes = new Uint8Array(12);
  let clockAt = Number.NaN;
  const clock = (time: number) => {
    if (time !== clockAt) {
      clockAt = time;
      const iso = isoTimestamp(time);
      for (let i = 0; i < 12; i++) clockBytes[i] = iso.charCodeAt(11 + i);
    }
    for (let i = 0; i < 12; i++) bytes[used++] = clockBytes[i];
  };
  return {
    get lines() {
      return lines;
    },
    fits: (bytesNeeded: number) => used + bytesNeeded <= size,
    /** One line of the text format, its only writer: `HH:MM:SS.mmm METHOD PATH STATUS DURATIONms`, then two spaces and the problems if any, then a newline. */
    textLine(line: RequestLine, time: number, problems: string) {
      clock(time);
      bytes[used++] = 0x20;
      put(line.method);
      bytes[used++] = 0x20;
      put(line.path);
      bytes[used++] = 0x20;
      if (Number.isInteger(line.status) && line.status >= 0 && line.status < 2 ** 31) digits(line.status);
      else put(String(line.status));
      bytes[used++] = 0x20;
      duration(line.durationMs);
      bytes[used++] = 0x6d; // m
      bytes[used++] = 0x73; // s
      if (problems !== '') {
        bytes[used++] = 0x20;
        bytes[used++] = 0x20;
        put(problems);
      }
      bytes[used++] = 0x0a;
      lines++;
      return this;
    },
    /** A line already made (JSON), with its newline. */
    text(text: string) {
      put(text);
      lines++;
    },
    /** The batch as text, emptied. */
    take(): string {
      const chunk = bytes.toString('utf8', 0, used);
      used = 0;
      lines = 0;
      return chunk;
    },
  };
}

function jsonLine(line: RequestLine, time: number): string {
  return JSON.stringify({ time: isoTimestamp(time), level: 'info', method: line.method, path: line.path, status: line.status, ms: round(line.durationMs), operationId: line.operationId, problems: line.problems });
}

/** A logger that drops everything (tests, library use without logs). */
export const silentLogger: Logger = { request() {}, info() {}, warn() {}, error() {}, flush() {} };

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
