// The Redis side of the Redis store's synchronous methods (redis-store.ts: for library callers and
// the store tests; a mock never calls them), in a worker thread: the calling thread asks a question
// over a MessagePort and sleeps on a shared flag until this thread has Redis's answer.
// Every change that checks before it writes is one Lua script, run by Redis as one step, so that
// of many replicas creating one id at once exactly one wins.
//
// Layout under the namespace N (plantstore:<document hash>:[<prefix>:]):
//   N:cols         sorted set: each collection, scored by when it was first written to
//   N:h:<coll>     hash: key -> the record's JSON text
//   N:o:<coll>     sorted set: key, scored by its insertion number (the list order)
//   N:seq          the insertion counter;  N:size, N:bytes  the record count and weight
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { Redis } from 'ioredis';

export interface WorkerSetup {
  url: string;
  namespace: string;
  flag: SharedArrayBuffer;
  port: MessagePort;
  /** What a record weighs beyond its key and text (store.ts's RECORD_OVERHEAD_BYTES). */
  overhead: number;
  commandTimeoutMs: number;
}

export type Request = { id: number; op: string; args: Array<string | number> };
export type Answer =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; unavailable: boolean; message: string };

// A record's weight, as the memory store reckons it: key, text and overhead (bytes here, characters there).
const WEIGH = `local function weigh(k, text) return #k + #text + tonumber(ARGV[#ARGV]) end`;

const SCRIPTS = {
  // ARGV: ns, collection, key, text, maxBytes (-1: none), maxRecords, overhead -> 1 stored, 0 exists, -1 too heavy, -2
  // collection full
  insert: `${WEIGH}
    local ns, c, k, text = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
    local h = ns .. 'h:' .. c
    if redis.call('HEXISTS', h, k) == 1 then return 0 end
    local weight = weigh(k, text)
    local max = tonumber(ARGV[5])
    if max >= 0 and tonumber(redis.call('GET', ns .. 'bytes') or '0') + weight > max then return -1 end
    if redis.call('HLEN', h) >= tonumber(ARGV[6]) then return -2 end
    local seq = redis.call('INCR', ns .. 'seq')
    redis.call('HSET', h, k, text)
    redis.call('ZADD', ns .. 'o:' .. c, seq, k)
    redis.call('ZADD', ns .. 'cols', 'NX', seq, c)
    redis.call('INCR', ns .. 'size')
    redis.call('INCRBY', ns .. 'bytes', weight)
    return 1`,
  // ARGV: ns, collection, key, text, maxBytes, overhead -> 1 replaced, 0 none, -1 too heavy
  replace: `${WEIGH}
    local ns, c, k, text = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
    local h = ns .. 'h:' .. c
    local old = redis.call('HGET', h, k)
    if not old then return 0 end
    local change = weigh(k, text) - weigh(k, old)
    local max = tonumber(ARGV[5])
    if change > 0 and max >= 0 and tonumber(redis.call('GET', ns .. 'bytes') or '0') + change > max then return -1 end
    redis.call('HSET', h, k, text)
    redis.call('INCRBY', ns .. 'bytes', change)
    return 1`,
  // ARGV: ns, collection, key, overhead -> 1 removed, 0 none
  remove: `${WEIGH}
    local ns, c, k = ARGV[1], ARGV[2], ARGV[3]
    local h = ns .. 'h:' .. c
    local old = redis.call('HGET', h, k)
    if not old then return 0 end
    redis.call('HDEL', h, k)
    redis.call('ZREM', ns .. 'o:' .. c, k)
    redis.call('DECR', ns .. 'size')
    redis.call('DECRBY', ns .. 'bytes', weigh(k, old))
    return 1`,
  // ARGV: ns, collection, offset, stop (-1: to the end) -> texts in insertion order
  list: `
    local ns, c = ARGV[1], ARGV[2]
    local keys = redis.call('ZRANGE', ns .. 'o:' .. c, tonumber(ARGV[3]), tonumber(ARGV[4]))
    if #keys == 0 then return {} end
    return redis.call('HMGET', ns .. 'h:' .. c, unpack(keys))`,
  // ARGV: ns, withTexts (1/0) -> flat: collection, count, then count keys (and texts)
  dump: `
    local ns, out = ARGV[1], {}
    for _, c in ipairs(redis.call('ZRANGE', ns .. 'cols', 0, -1)) do
      local keys = redis.call('ZRANGE', ns .. 'o:' .. c, 0, -1)
      out[#out + 1] = c
      out[#out + 1] = #keys
      for _, k in ipairs(keys) do out[#out + 1] = k end
      if ARGV[2] == '1' and #keys > 0 then
        for _, text in ipairs(redis.call('HMGET', ns .. 'h:' .. c, unpack(keys))) do out[#out + 1] = text end
      end
    end
    return out`,
  // ARGV: ns
  clear: `
    local ns = ARGV[1]
    for _, c in ipairs(redis.call('ZRANGE', ns .. 'cols', 0, -1)) do redis.call('DEL', ns .. 'h:' .. c, ns .. 'o:' \
.. c) end
    redis.call('DEL', ns .. 'cols', ns .. 'size', ns .. 'bytes')
    return 1`,
} as const;

// unpack() of a long list exceeds Lua's stack (LUAI_MAXCSTACK, 8000): such pages are read in chunks.
const LIST_CHUNK = 4000;

type Client = Redis & Record<keyof typeof SCRIPTS, (...args: Array<string | number>) => Promise<unknown>>;

if (parentPort && workerData) serve(workerData as WorkerSetup);

function serve(setup: WorkerSetup): void {
  const flag = new Int32Array(setup.flag);
  const client = new Redis(setup.url, {
    // Fail at once while Redis is away (the mock answers 503) rather than queue what nobody waits for,
    // and never send a change again on a new connection: it may have been applied, and was refused.
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    commandTimeout: setup.commandTimeoutMs,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times - 1, 5), 2000),
    lazyConnect: false,
  }) as Client;
  for (const [name, lua] of Object.entries(SCRIPTS)) client.defineCommand(name, { numberOfKeys: 0, lua });

  // Questions are answered once the first connection is made or has failed (the mock's thread logs
  // Redis's comings and goings from its own client): a question asked meanwhile would fail at once.
  const connected = new Promise<void>((resolve) => {
    client.once('ready', resolve);
    client.once('error', () => resolve());
  });

  const ns = setup.namespace;
  const ops: Record<string, (...args: Array<string | number>) => Promise<unknown>> = {
    insert: (c, k, text, max, records) => client.insert(ns, c, k, text, max, records, setup.overhead),
    replace: (c, k, text, max) => client.replace(ns, c, k, text, max, setup.overhead),
    remove: (c, k) => client.remove(ns, c, k, setup.overhead),
    get: (c, k) => client.hget(`${ns}h:${c}`, String(k)),
    list: async (c, offset, limit) => {
      const out: unknown[] = [];
      const end = Number(limit) < 0 ? Number.POSITIVE_INFINITY : Number(offset) + Number(limit);
      for (let from = Number(offset); from < end; from += LIST_CHUNK) {
        const to = Math.min(end, from + LIST_CHUNK) - 1;
        const page = (await client.list(ns, c, from, to)) as unknown[];
        out.push(...page);
        if (page.length < to - from + 1) break;
      }
      return out;
    },
    dump: (withTexts) => client.dump(ns, withTexts),
    clear: () => client.clear(ns),
    size: async () => Number((await client.get(`${ns}size`)) ?? 0),
  };

  setup.port.on('message', async ({ id, op, args }: Request) => {
    await connected;
    let answer: Answer;
    try {
      answer = { id, ok: true, value: await ops[op](...args) };
    } catch (error) {
      const message = (error as Error).message;
      // A script or argument error is a bug; anything else is Redis being away or slow.
      const unavailable = !/^(ERR|WRONGTYPE|NOSCRIPT)\b/.test(message);
      answer = { id, ok: false, unavailable, message };
    }
    setup.port.postMessage(answer);
    Atomics.store(flag, 0, id);
    Atomics.notify(flag, 0);
  });
}
