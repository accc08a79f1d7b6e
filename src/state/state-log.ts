// The state file's format: one record per line, "<crc32 hex> <json>\n". JSON keeps int64 exact
// (bigints are written as integer literals). The checksum tells a torn last line (what a crash
// leaves behind: recovered by dropping it) from damage in the middle (refused: never silently
// drop acknowledged data).
import { crc32 } from 'node:zlib';
import { PlantstoreError } from '../errors.ts';
import { parseJson, stringifyJson } from '../json/exact-json.ts';
import type { StoredRecord } from './store.ts';

export type LogEntry =
  | { op: 'header'; format: 1 }
  | { op: 'put'; collection: string; key: string; record: StoredRecord }
  | { op: 'delete'; collection: string; key: string }
  | { op: 'clear' };

export const HEADER: LogEntry = { op: 'header', format: 1 };

/** One entry as a line of the file. */
export function encodeEntry(entry: LogEntry): string {
  return line(stringifyJson(entry));
}

/** A put whose record is already JSON text (the memory store's): the same line encodeEntry writes. */
export function encodePutText(collection: string, key: string, recordJson: string): string {
  return line(
    `{"op":"put","collection":${JSON.stringify(collection)},"key":${JSON.stringify(key)},"record":${recordJson}}`,
  );
}

function line(json: string): string {
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

export interface DecodedLog {
  entries: LogEntry[];
  /** Bytes of the file that hold whole, valid lines; anything after is a torn tail. */
  validBytes: number;
  /** True when a torn last line was found (and is to be cut off). */
  tornTail: boolean;
}

/** Reads a whole state file; throws STATE_FILE_CORRUPT for damage anywhere but the last line. */
export function decodeLog(text: string, file: string): DecodedLog {
  const entries: LogEntry[] = [];
  let offset = 0;
  let lineNumber = 0;
  while (offset < text.length) {
    lineNumber++;
    const end = text.indexOf('\n', offset);
    const line = end === -1 ? text.slice(offset) : text.slice(offset, end);
    const entry = end === -1 ? undefined : decodeLine(line);
    if (!entry) {
      const isLast = end === -1 || text.slice(end + 1).trim() === '';
      if (isLast) return { entries, validBytes: Buffer.byteLength(text.slice(0, offset)), tornTail: true };
      throw new PlantstoreError(
        'STATE_FILE_CORRUPT',
        `${file}: line ${lineNumber} is damaged (checksum or JSON), and records follow it`,
        [
          'The file was changed by something other than plantstore, or the disk is failing.',
          'Nothing was loaded, so nothing is lost: restore the file from a backup, or move it away to start empty.',
        ],
      );
    }
    if (lineNumber === 1 && entry.op !== 'header') {
      throw new PlantstoreError('STATE_FILE_CORRUPT', `${file}: not a plantstore state file (no header line)`, [
        'Pass a new file name with --state-file, or a file plantstore wrote.',
      ]);
    }
    entries.push(entry);
    offset = end + 1;
  }
  return { entries, validBytes: Buffer.byteLength(text), tornTail: false };
}

function decodeLine(line: string): LogEntry | undefined {
  const space = line.indexOf(' ');
  if (space !== 8) return undefined;
  const json = line.slice(9);
  if (crc32(json).toString(16).padStart(8, '0') !== line.slice(0, 8)) return undefined;
  const parsed = parseJson(json);
  return parsed.ok ? (parsed.value as unknown as LogEntry) : undefined;
}
