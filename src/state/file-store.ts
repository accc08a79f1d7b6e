// The durable store behind --state-file: the in-memory store plus an append-only log. A change
// is applied in memory at once (so check-and-insert stays one synchronous step) and queued; flush()
// resolves when the queue, batched with every other change made meanwhile (group commit), is
// written and fsynced. The engine answers only after that, so an acknowledged create survives
// kill -9. The log is compacted (rewritten as one line per live record) when it grows past twice
// the live records, and rewritten empty on clear().
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, truncateSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '../log/logger.ts';
import { decodeLog, encodeEntry, encodePutText, HEADER, type LogEntry } from './state-log.ts';
import {
  createMemoryStore,
  recordText,
  StateFullError,
  type MemoryStore,
  type MemoryStoreLimits,
  type StateStore,
  type StoredRecord,
} from './store.ts';
import { PlantstoreError } from '../errors.ts';

const MIN_COMPACT_LINES = 1000;
/** How many removed keys the file remembers, as the engine's own memory of them (tombstones.ts). */
const MAX_REMOVED = 100_000;

export interface FileStore extends StateStore {
  /** Closes the file after the last write. */
  close(): Promise<void>;
}

/** Opens (or creates) a state file and loads what it holds; its records must fit the limits. */
export async function openFileStore(file: string, logger: Logger, limits: MemoryStoreLimits = {}): Promise<FileStore> {
  const memory = createMemoryStore(limits);
  // The keys removed and not created again: a read of one after a restart is still of a deleted item. Kept as the
  // log's delete lines (a compaction writes them again), and bounded as the engine's own memory of them is.
  const removed = new Set<string>();
  const forget = (collection: string, key: string) => removed.delete(removedName(collection, key));
  const remember = (collection: string, key: string) => {
    if (removed.size >= MAX_REMOVED) removed.delete(removed.values().next().value!);
    removed.add(removedName(collection, key));
  };
  let lines = load(file, memory, logger, remember, forget);
  let handle: FileHandle = await open(file, 'a');
  let queue: string[] = [];
  let rewrite = false;
  let writing: Promise<void> | undefined;

  const enqueue = (entry: LogEntry) => {
    queue.push(encodeEntry(entry));
  };

  // One batch at a time; changes made while a batch is written go into the next one.
  const writeBatch = async (): Promise<void> => {
    const batch = queue.join('');
    queue = [];
    if (rewrite || lines > Math.max(MIN_COMPACT_LINES, 2 * (memory.size() + removed.size))) {
      rewrite = false;
      await handle.close();
      lines = compact(file, memory, removed);
      handle = await open(file, 'a');
      return; // the snapshot already holds this batch's changes
    }
    if (batch === '') return;
    try {
      await handle.write(batch);
      await handle.datasync();
    } catch (error) {
      queue.unshift(batch); // not acknowledged; the next flush tries again
      throw error;
    }
    lines += batch.split('\n').length - 1;
  };

  const flush = (): Promise<void> | undefined => {
    if (queue.length === 0 && !rewrite) return writing;
    // A failed batch fails its own waiters only, not every later one.
    const previous = (writing ?? Promise.resolve()).catch(() => undefined);
    const next: Promise<void> = previous
      .then(() => (queue.length > 0 || rewrite ? writeBatch() : undefined))
      .finally(() => {
        if (writing === next) writing = undefined;
      });
    writing = next;
    return next;
  };

  // An insert or a replace: one serialization (or none, with the body's text) for both the memory
  // and the log line.
  const put = (
    change: StateStore['insert'],
    collection: string,
    key: string,
    record: StoredRecord,
    text: string | undefined,
  ) => {
    const stored = recordText(record, text);
    if (!change(collection, key, record, stored)) return false;
    forget(collection, key);
    queue.push(encodePutText(collection, key, stored));
    return true;
  };

  return {
    insert: (collection, key, record, text) => put(memory.insert, collection, key, record, text),
    get: memory.get,
    list: memory.list,
    count: memory.count,
    replace: (collection, key, record, text) => put(memory.replace, collection, key, record, text),
    remove(collection, key) {
      if (!memory.remove(collection, key)) return false;
      remember(collection, key);
      enqueue({ op: 'delete', collection, key });
      return true;
    },
    removed: (collection, key) => removed.has(removedName(collection, key)),
    forgetRemoved(prefix) {
      for (const name of removed) if (name.startsWith(prefix)) removed.delete(name);
      rewrite = true; // the log's delete lines would bring them back at the next start
    },
    clear() {
      memory.clear();
      removed.clear();
      queue = [];
      rewrite = true;
    },
    snapshot: memory.snapshot,
    entries: memory.entries,
    keys: memory.keys,
    size: memory.size,
    flush,
    async close() {
      await flush();
      await handle.close();
    },
  };
}

const removedName = (collection: string, key: string) => `${collection}\u0000${key}`;

function load(
  file: string,
  memory: StateStore,
  logger: Logger,
  remember: (collection: string, key: string) => void,
  forget: (collection: string, key: string) => void,
): number {
  if (!existsSync(file)) {
    writeAtomically(file, encodeEntry(HEADER));
    return 1;
  }
  const decoded = decodeLog(readFileSync(file, 'utf8'), file);
  if (decoded.entries.length === 0) {
    writeAtomically(file, encodeEntry(HEADER));
    return 1;
  }
  if (decoded.tornTail) {
    // What a crash mid-write leaves: that write was never acknowledged, so cutting it loses nothing.
    logger.warn(`${file}: dropped a torn last line (an unacknowledged write cut short by a crash)`);
    truncateSync(file, decoded.validBytes);
  }
  try {
    for (const entry of decoded.entries) {
      if (entry.op === 'put') {
        if (!memory.replace(entry.collection, entry.key, entry.record))
          memory.insert(entry.collection, entry.key, entry.record);
        forget(entry.collection, entry.key);
      } else if (entry.op === 'delete') {
        memory.remove(entry.collection, entry.key);
        remember(entry.collection, entry.key);
      } else if (entry.op === 'clear') memory.clear();
    }
  } catch (error) {
    if (!(error instanceof StateFullError)) throw error;
    throw new PlantstoreError('STATE_FULL', `${file} holds more than the mock may keep: ${error.reason}`, [
      'start the mock with a larger --max-state-mb, or with another --state-file',
    ]);
  }
  return decoded.entries.length;
}

/** Rewrites the log as a header, one line per live record and one per removed key; returns the line count. */
function compact(file: string, memory: MemoryStore, removed: Set<string>): number {
  const parts = [encodeEntry(HEADER)];
  // The stored texts go in as they are: no parse and re-serialization per record.
  for (const [collection, key, text] of memory.texts()) parts.push(encodePutText(collection, key, text));
  for (const name of removed) {
    const cut = name.lastIndexOf('\u0000');
    parts.push(encodeEntry({ op: 'delete', collection: name.slice(0, cut), key: name.slice(cut + 1) }));
  }
  writeAtomically(file, parts.join(''));
  return parts.length;
}

/** Writes a whole file so that a crash leaves either the old or the new one, never half. */
function writeAtomically(file: string, content: string): void {
  const temporary = `${file}.tmp`;
  const fd = openSync(temporary, 'w');
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  const dir = openSync(dirname(file), 'r');
  try {
    fsyncSync(dir); // the rename itself must survive a crash
  } finally {
    closeSync(dir);
  }
}
