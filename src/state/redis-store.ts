// The store behind `mock --state redis://host:port/db`: every record in Redis, so that several
// mock processes on one Redis act as one mock. The mock goes through `shared` (redis-shared.ts): a
// client on the mock's thread that the engine awaits, reading and committing for its optimistic
// views, and answering the admin API and --watch's drops. The synchronous StateStore methods are for
// library callers and the shared store tests: their client runs in a worker thread
// (redis-worker.ts), started by the first such call, and each call posts its question and sleeps
// on a shared flag (Atomics.wait) until the worker has Redis's answer, as synckit does.
//
// While Redis cannot be reached every call throws a StateUnavailableError at once (the engine
// answers 503), the client reconnects with backoff and logs one line each way, and a change is
// acknowledged only once Redis has answered it.
import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { PlantstoreError } from '../errors.ts';
import { parseJson } from '../json/exact-json.ts';
import type { Logger } from '../log/logger.ts';
import { StateUnavailableError } from './state-unavailable.ts';
import {
  CLI_WORDS,
  MAX_COLLECTION_RECORDS,
  overWeight,
  RECORD_OVERHEAD_BYTES,
  recordText,
  StateFullError,
  type MemoryStoreLimits,
  type StateStore,
  type StoredRecord,
} from './store.ts';
import type { Answer, WorkerSetup } from './redis-worker.ts';
import { redactedUrl } from './redacted-url.ts';
import { openRedisShared } from './redis-shared.ts';

export interface RedisStoreOptions {
  /** redis://[:password@]host:port/db (or rediss:// for TLS). */
  url: string;
  /** Prefix of every key: plantstore:<document hash>:[<--state-prefix>:]. */
  namespace: string;
  logger: Logger;
  limits?: MemoryStoreLimits;
  /** How long one call waits for Redis before it answers 503 (SIGTERM is handled only between calls). */
  timeoutMs?: number;
}

export interface RedisStore extends StateStore {
  /** Closes the connection and ends the worker. */
  close(): Promise<void>;
}

/** The longest a synchronous call waits: short, since the thread sleeps meanwhile (and SIGTERM with it). */
const DEFAULT_TIMEOUT_MS = 500;
/**
 * The longest a request waits for Redis before it is answered 503. Nothing sleeps meanwhile, and a
 * create Redis committed but answered 503 reads as lost to its client, so it is not short: long
 * enough that only a Redis that has stopped answering meets it, on a machine busy with other work too.
 */
const REQUEST_TIMEOUT_MS = 2000;
/** How long a worker may take to start and connect before its first call gives up. */
const WORKER_START_MS = 5000;
/** Reading or clearing everything (the admin API) may take longer on a large state. */
const BULK_TIMEOUT_MS = 5000;

/** The key prefix of a document's state: two mocks of different documents can share one Redis. */
export function redisNamespace(documentHash: string, prefix: string | null): string {
  return `plantstore:${documentHash}:${prefix ? `${prefix}:` : ''}`;
}

/**
 * Connects to Redis (without waiting for it to be up: a mock whose Redis is away answers 503 until
 * it is back) and returns the store.
 * @example const store = await openRedisStore({ url: 'redis://127.0.0.1:6379/0', namespace: redisNamespace(hash, null),
 * logger });
 */
export async function openRedisStore(options: RedisStoreOptions): Promise<RedisStore> {
  requireClient();
  const { logger, namespace } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.limits?.maxBytes ?? -1;
  // One line when Redis goes away and one when it is back, not one per retry or per request.
  const where = redactedUrl(options.url);
  let said: 'connecting' | 'up' | 'down' = 'connecting';
  let closed = false;
  const seen = (isUp: boolean, why?: string) => {
    if (closed) return;
    if (!isUp && said !== 'down') {
      logger.warn(
        `state: Redis at ${where} is ${said === 'connecting' ? 'unreachable' : 'gone'} (${why}); answering 503 and ` +
          `reconnecting with backoff`,
      );
      said = 'down';
    } else if (isUp) {
      // At the outage's level, so that --quiet shows both.
      if (said === 'down') logger.warn(`state: Redis at ${where} is back; answering from it again`);
      said = 'up';
    }
  };
  const shared = openRedisShared({
    url: options.url,
    namespace,
    where,
    onState: seen,
    maxBytes: options.limits?.maxBytes ?? Number.POSITIVE_INFINITY,
    timeoutMs: options.timeoutMs ?? REQUEST_TIMEOUT_MS,
    words: options.limits?.words,
  });
  await shared.first;

  // The worker of the synchronous methods, started by the first of them: a mock never calls them
  // (its requests, admin API and reloads go through `shared`), so a mock on Redis runs no worker.
  let worker: { thread: Worker; port: MessagePort; flag: Int32Array } | undefined;
  const start = () => {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const { port1, port2 } = new MessageChannel();
    const setup: WorkerSetup = {
      url: options.url,
      namespace,
      flag: flag.buffer as SharedArrayBuffer,
      port: port2,
      overhead: RECORD_OVERHEAD_BYTES,
      commandTimeoutMs: timeoutMs,
    };
    const thread = new Worker(
      new URL(`./redis-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
      { workerData: setup, transferList: [port2] },
    );
    thread.on('error', (error) =>
      logger.error(`plantstore bug: the Redis worker failed: ${error.stack ?? String(error)}`),
    );
    thread.unref();
    port1.unref();
    return { thread, port: port1, flag };
  };
  let serial = 0;
  const call = (op: string, args: Array<string | number>, wait = timeoutMs): unknown => {
    if (closed) throw new StateUnavailableError('the mock is shutting down');
    // The worker's first call also waits for its connection (the worker answers once it has one, or has failed).
    const first = worker === undefined;
    worker ??= start();
    const { port, flag } = worker;
    const id = ++serial;
    const deadline = Date.now() + wait + (first ? WORKER_START_MS : 0) + 100; // the worker's own timeout comes first
    Atomics.store(flag, 0, 0);
    port.postMessage({ id, op, args });
    for (;;) {
      // Answers to calls that timed out before may still come in: they are dropped.
      for (let received = receiveMessageOnPort(port); received !== undefined; received = receiveMessageOnPort(port)) {
        const answer = received.message as Answer;
        if (answer.id !== id) continue;
        if (answer.ok) return answer.value;
        if (answer.unavailable)
          throw new StateUnavailableError(
            `the mock's state is unavailable (Redis at ${where} cannot be reached); try again shortly`,
          );
        throw new Error(`plantstore bug: Redis refused a store command: ${answer.message}`);
      }
      const left = deadline - Date.now();
      if (left <= 0)
        throw new StateUnavailableError(
          `the mock's state is unavailable (Redis at ${where} did not answer within ${wait} ms); try again shortly`,
        );
      Atomics.wait(flag, 0, 0, left);
      Atomics.store(flag, 0, 0);
    }
  };

  const refused = (code: number, collection: string): never => {
    const words = options.limits?.words ?? CLI_WORDS;
    if (code === -1) throw overWeight(maxBytes, words);
    throw new StateFullError(
      `${collection.slice(collection.indexOf('\u0000') + 1)} holds ${MAX_COLLECTION_RECORDS} records, ` +
        'the most one collection can',
      `${words.clear} clears it`,
    );
  };
  const dump = (withTexts: boolean) => {
    const flat = call('dump', [withTexts ? 1 : 0], BULK_TIMEOUT_MS) as Array<string | number>;
    const out: Array<{ collection: string; keys: string[]; texts: string[] }> = [];
    for (let i = 0; i < flat.length;) {
      const collection = String(flat[i]);
      const count = Number(flat[i + 1]);
      const keys = flat.slice(i + 2, i + 2 + count).map(String);
      i += 2 + count;
      const texts = withTexts ? flat.slice(i, i + count).map(String) : [];
      if (withTexts) i += count;
      out.push({ collection, keys, texts });
    }
    return out;
  };

  return {
    shared,
    insert(collection, key, record, text) {
      const code = call('insert', [
        collection,
        key,
        recordText(record, text),
        maxBytes,
        MAX_COLLECTION_RECORDS,
      ]) as number;
      if (code < 0) refused(code, collection);
      return code === 1;
    },
    get(collection, key) {
      const text = call('get', [collection, key]) as string | null;
      return text === null ? undefined : read(text);
    },
    list(collection, offset = 0, limit = Number.POSITIVE_INFINITY) {
      if (limit <= 0) return [];
      const texts = call('list', [collection, offset, Number.isFinite(limit) ? limit : -1], BULK_TIMEOUT_MS) as Array<
        string | null
      >;
      // (A record removed by another replica between the two reads of the script cannot happen: it is one step.)
      return texts.filter((text): text is string => text !== null).map(read);
    },
    replace(collection, key, record, text) {
      const code = call('replace', [collection, key, recordText(record, text), maxBytes]) as number;
      if (code < 0) refused(code, collection);
      return code === 1;
    },
    remove: (collection, key) => call('remove', [collection, key]) === 1,
    clear() {
      call('clear', [], BULK_TIMEOUT_MS);
    },
    snapshot: () => Object.fromEntries(dump(true).map(({ collection, texts }) => [collection, texts.map(read)])),
    entries: () =>
      dump(true).flatMap(({ collection, keys, texts }) =>
        keys.map((key, i): [string, string, StoredRecord] => [collection, key, read(texts[i])]),
      ),
    keys: () => dump(false).flatMap(({ collection, keys }) => keys.map((key): [string, string] => [collection, key])),
    size: () => call('size', []) as number,
    // Every change is acknowledged by Redis before the call returns: nothing waits to be written.
    flush: () => undefined,
    async close() {
      if (closed) return;
      closed = true;
      shared.close();
      if (worker === undefined) return;
      // Every change was acknowledged already: the worker has nothing to finish.
      await worker.thread.terminate();
    },
  };
}

/** The Redis client is an optional dependency: a mock that never uses Redis never installs it. */
function requireClient(): void {
  try {
    createRequire(import.meta.url).resolve('ioredis');
  } catch {
    throw new PlantstoreError(
      'USAGE',
      '--state redis:// needs the ioredis package, which is not installed: npm install ioredis',
    );
  }
}

function read(text: string): StoredRecord {
  const parsed = parseJson(text);
  if (!parsed.ok) throw new Error(`plantstore bug: a record stored in Redis does not parse: ${parsed.message}`);
  return parsed.value as StoredRecord;
}
