// The Redis store's way for requests: a client on the mock's own thread (ioredis, with automatic
// pipelining, so that the commands of many requests in flight go out in one write), reading and
// committing for the engine's optimistic views (optimistic-view.ts). A commit is one Lua script:
// it checks every record the decision saw, then applies its writes, or applies nothing, so that a
// create stays atomic across replicas without a lock. The key layout is the worker's
// (redis-worker.ts), so both see one state.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { StateUnavailableError } from './state-unavailable.ts';
import {
  CLI_WORDS,
  MAX_COLLECTION_RECORDS,
  overWeight,
  RECORD_OVERHEAD_BYTES,
  StateFullError,
  type SharedCheck,
  type SharedCommit,
  type SharedState,
  type StateLimitWords,
} from './store.ts';

// ARGV: ns, maxBytes (-1: none), maxRecords, overhead, number of checks, then per check collection,
// key, '1'/'0' (a record or none), text; then per write 'i'/'r'/'d', collection, key, text.
// -> {1} done; {0, index, now, ...} checks that failed, with the record now; {-1, w} too heavy;
// {-2, w} collection full; {-3, w} a write the checks should have stopped (a bug).
const COMMIT = `
  local ns, max, maxRecords, overhead = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
  local checks = tonumber(ARGV[5])
  local failed = {0}
  -- What each record is, by hash and key, as the writes below leave it (first: as checked).
  local after = {}
  local i = 6
  for j = 1, checks do
    local h = ns .. 'h:' .. ARGV[i]
    local now = redis.call('HGET', h, ARGV[i + 1])
    after[h .. '\0' .. ARGV[i + 1]] = now
    if (ARGV[i + 2] == '0' and now) or (ARGV[i + 2] == '1' and now ~= ARGV[i + 3]) then
      failed[#failed + 1] = j - 1
      failed[#failed + 1] = now
    end
    i = i + 4
  end
  if #failed > 1 then return failed end
  local first = i
  local bytes = tonumber(redis.call('GET', ns .. 'bytes') or '0')
  local delta, counts, w, fresh = 0, {}, 0, {}
  local function old(h, k)
    local v = after[h .. '\\0' .. k]
    if v == nil then v = redis.call('HGET', h, k) end
    return v
  end
  local function count(h)
    if counts[h] == nil then counts[h] = redis.call('HLEN', h) end
    return counts[h]
  end
  while i <= #ARGV do
    local op, h, k, text = ARGV[i], ns .. 'h:' .. ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
    local was = old(h, k)
    if op == 'i' then
      if was then return {-3, w} end
      delta = delta + #k + #text + overhead
      if max >= 0 and bytes + delta > max then return {-1, w} end
      if count(h) >= maxRecords then return {-2, w} end
      -- (A collection that holds a record is in the collection list already.)
      if counts[h] == 0 then fresh[w] = true end
      counts[h] = counts[h] + 1
      after[h .. '\\0' .. k] = text
    elseif op == 'r' then
      if not was then return {-3, w} end
      local change = #text - #was
      delta = delta + change
      if change > 0 and max >= 0 and bytes + delta > max then return {-1, w} end
      after[h .. '\\0' .. k] = text
    else
      if not was then return {-3, w} end
      delta = delta - (#k + #was + overhead)
      counts[h] = count(h) - 1
      after[h .. '\\0' .. k] = false
    end
    i = i + 4
    w = w + 1
  end
  i = first
  w = 0
  while i <= #ARGV do
    local op, c, k, text = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
    local h = ns .. 'h:' .. c
    if op == 'i' then
      local seq = redis.call('INCR', ns .. 'seq')
      redis.call('HSET', h, k, text)
      redis.call('ZADD', ns .. 'o:' .. c, seq, k)
      if fresh[w] then redis.call('ZADD', ns .. 'cols', 'NX', seq, c) end
      redis.call('INCR', ns .. 'size')
    elseif op == 'r' then
      redis.call('HSET', h, k, text)
    else
      redis.call('HDEL', h, k)
      redis.call('ZREM', ns .. 'o:' .. c, k)
      redis.call('DECR', ns .. 'size')
    end
    i = i + 4
    w = w + 1
  end
  if delta ~= 0 then redis.call('INCRBY', ns .. 'bytes', delta) end
  return {1}`;

// ARGV: ns, collection, offset, stop (-1: to the end) -> texts in insertion order.
const PAGE = `
  local ns, c = ARGV[1], ARGV[2]
  local keys = redis.call('ZRANGE', ns .. 'o:' .. c, tonumber(ARGV[3]), tonumber(ARGV[4]))
  if #keys == 0 then return {} end
  return redis.call('HMGET', ns .. 'h:' .. c, unpack(keys))`;

// ARGV: ns -> flat: collection, key, collection, key, ... in insertion order.
const KEYS = `
  local ns, out = ARGV[1], {}
  for _, c in ipairs(redis.call('ZRANGE', ns .. 'cols', 0, -1)) do
    for _, k in ipairs(redis.call('ZRANGE', ns .. 'o:' .. c, 0, -1)) do
      out[#out + 1] = c
      out[#out + 1] = k
    end
  end
  return out`;

// ARGV: ns, prefix ('' for all) -> flat: collection, key, text, ... of the collections whose name
// starts with the prefix, in insertion order (the admin API's dump of the state, or of one tenant's).
const DUMP = `
  local ns, p, out = ARGV[1], ARGV[2], {}
  for _, c in ipairs(redis.call('ZRANGE', ns .. 'cols', 0, -1)) do
    if string.sub(c, 1, #p) == p then
      local keys = redis.call('ZRANGE', ns .. 'o:' .. c, 0, -1)
      for i = 1, #keys, 4000 do
        local part = {}
        for j = i, math.min(i + 3999, #keys) do part[#part + 1] = keys[j] end
        local texts = redis.call('HMGET', ns .. 'h:' .. c, unpack(part))
        for j = 1, #part do
          out[#out + 1] = c
          out[#out + 1] = part[j]
          out[#out + 1] = texts[j]
        end
      end
    end
  end
  return out`;

// ARGV: ns, name, '1' (the collection of that name) or '0' (those whose name starts with it; '': all),
// overhead -> how many records it removed, with the count and weight kept right for the replicas' limit.
const CLEAR = `
  local ns, p, exact, overhead = ARGV[1], ARGV[2], ARGV[3] == '1', tonumber(ARGV[4])
  local removed, bytes = 0, 0
  for _, c in ipairs(redis.call('ZRANGE', ns .. 'cols', 0, -1)) do
    if (exact and c == p) or (not exact and string.sub(c, 1, #p) == p) then
      local flat = redis.call('HGETALL', ns .. 'h:' .. c)
      for i = 1, #flat, 2 do bytes = bytes + #flat[i] + #flat[i + 1] + overhead end
      removed = removed + #flat / 2
      redis.call('DEL', ns .. 'h:' .. c, ns .. 'o:' .. c)
      redis.call('ZREM', ns .. 'cols', c)
    end
  end
  if removed > 0 then
    redis.call('DECRBY', ns .. 'size', removed)
    redis.call('DECRBY', ns .. 'bytes', bytes)
  end
  return removed`;

const OP = { insert: 'i', replace: 'r', remove: 'd' } as const;

/** How long the admin API's reads and clears of the whole state wait for Redis. */
const BULK_TIMEOUT_MS = 5000;

// unpack() of a long list exceeds Lua's stack (LUAI_MAXCSTACK, 8000): such pages are read in chunks.
const PAGE_CHUNK = 4000;

/** Thrown by a command that Redis has not answered in time. */
class TimedOut extends Error {}

/**
 * Times commands out when Redis has fallen silent: a command fails once `ms` have passed since it
 * was sent and since Redis last answered anything. Redis answers one connection's commands in
 * order, so while it answers others this one is coming. Not ioredis's commandTimeout, which counts
 * from the send alone: on a busy mock (hundreds of requests in flight, a loaded machine) Redis
 * answered each command quickly, but the mock read the answers late, and a create Redis had
 * committed was answered 503. The timer's verdict also waits one turn of the loop (setImmediate
 * runs after the poll phase), so that an answer already in the socket is read first.
 */
function silenceTimer(ms: number, last: { heard: number }) {
  return <T>(command: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const sent = performance.now();
      let settled = false;
      let timer: NodeJS.Timeout;
      const check = () =>
        setImmediate(() => {
          if (settled) return;
          const silent = performance.now() - Math.max(sent, last.heard);
          if (silent < ms) {
            timer = setTimeout(check, ms - silent);
            return;
          }
          settled = true;
          reject(new TimedOut(`Redis did not answer within ${ms} ms`));
        });
      timer = setTimeout(check, ms);
      const done = () => {
        settled = true;
        last.heard = performance.now();
        clearTimeout(timer);
      };
      command.then(
        (value) => {
          if (settled) return;
          done();
          resolve(value);
        },
        (error: unknown) => {
          if (settled) return;
          done();
          reject(error as Error);
        },
      );
    });
}

/**
 * Runs a script by its SHA-1 (EVALSHA), and by its text the first time on a Redis that has not got
 * it (a restarted one). Not ioredis's defineCommand: under automatic pipelining that sends the
 * whole script text again with every pipeline, which is every few requests.
 */
function script(client: Redis, lua: string) {
  const sha = createHash('sha1').update(lua).digest('hex');
  return async (...args: Array<string | number>): Promise<unknown> => {
    try {
      return await client.evalsha(sha, 0, ...args);
    } catch (error) {
      if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
      return client.eval(lua, 0, ...args);
    }
  };
}

export interface RedisShared extends SharedState {
  /** Settles once the first connection is made or has failed (then it reconnects with backoff). */
  readonly first: Promise<void>;
  close(): void;
}

/** The client of one mock process; it connects at once and reconnects with backoff. */
export function openRedisShared(options: {
  url: string;
  namespace: string;
  where: string;
  /** Called as the connection comes and goes. */
  onState(up: boolean, why?: string): void;
  maxBytes: number;
  timeoutMs: number;
  words?: StateLimitWords;
}): RedisShared {
  const ns = options.namespace;
  const client = new Redis(options.url, {
    enableAutoPipelining: true,
    // Fail at once while Redis is away rather than queue, and never resend a change (it may have been applied).
    enableOfflineQueue: false,
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 0,
    // A backstop only (a Redis that holds its connection but never answers): `within` times requests out.
    commandTimeout: Math.max(10_000, options.timeoutMs * 4),
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times - 1, 5), 2000),
  });
  // When Redis last answered anything: one clock for every command, since they share the connection.
  const last = { heard: performance.now() };
  const within = silenceTimer(options.timeoutMs, last);
  const withinBulk = silenceTimer(Math.max(options.timeoutMs, BULK_TIMEOUT_MS), last);
  const run = <T>(lua: string, timed = within) => {
    const call = script(client, lua);
    return (...args: Array<string | number>) => timed(call(...args)) as Promise<T>;
  };
  const commit = run<Array<number | string | null>>(COMMIT);
  const pageOf = run<Array<string | null>>(PAGE);
  const keysOf = run<string[]>(KEYS);
  // Reading or clearing everything (the admin API) may take longer on a large state.
  const dumpOf = run<Array<string | null>>(DUMP, withinBulk);
  const clearOf = run<number>(CLEAR, withinBulk);
  // Whether it is connected, for the store's one line when Redis goes and one when it is back.
  let closing = false;
  const first = new Promise<void>((resolve) => {
    client.once('ready', resolve);
    client.once('error', () => resolve());
  });
  client.on('ready', () => options.onState(true));
  client.on(
    'error',
    (error: Error & { code?: string }) => closing || options.onState(false, error.code ?? error.message),
  );
  client.on('close', () => closing || options.onState(false, 'connection closed'));

  const unavailable = (error: unknown): never => {
    const message = (error as Error).message;
    if (/^(ERR|WRONGTYPE)\b/.test(message))
      throw new Error(`plantstore bug: Redis refused a store command: ${message}`);
    throw new StateUnavailableError(
      error instanceof TimedOut || /timed out/i.test(message)
        ? `the mock's state is unavailable (Redis at ${options.where} did not answer within ${options.timeoutMs} ` +
            `ms); try again shortly`
        : `the mock's state is unavailable (Redis at ${options.where} cannot be reached); try again shortly`,
    );
  };
  const words = options.words ?? CLI_WORDS;

  async function page(collection: string, offset: number, limit: number): Promise<string[]> {
    const out: string[] = [];
    const end = limit < 0 ? Number.POSITIVE_INFINITY : offset + limit;
    for (let from = offset; from < end; from += PAGE_CHUNK) {
      const to = Math.min(end, from + PAGE_CHUNK) - 1;
      const texts = await pageOf(ns, collection, from, to);
      // (A record cannot go between the script's two reads: it is one step.)
      for (const text of texts) if (text !== null) out.push(text);
      if (texts.length < to - from + 1) break;
    }
    return out;
  }

  return {
    first,
    async read(read) {
      try {
        switch (read.kind) {
          case 'list':
            return await page(read.collection, read.offset, read.limit);
          case 'count':
            return await within(client.hlen(`${ns}h:${read.collection}`));
          case 'size':
            return Number((await within(client.get(`${ns}size`))) ?? 0);
          case 'keys': {
            const flat = await keysOf(ns);
            const out: Array<[string, string]> = [];
            for (let i = 0; i < flat.length; i += 2) out.push([String(flat[i]), String(flat[i + 1])]);
            return out;
          }
        }
      } catch (error) {
        return unavailable(error);
      }
    },
    async commit(checks, writes) {
      const args: Array<string | number> = [
        ns,
        Number.isFinite(options.maxBytes) ? options.maxBytes : -1,
        MAX_COLLECTION_RECORDS,
        RECORD_OVERHEAD_BYTES,
        checks.length,
      ];
      for (const check of checks)
        args.push(check.collection, check.key, check.text === null ? '0' : '1', check.text ?? '');
      for (const write of writes) args.push(OP[write.kind], write.collection, write.key, write.text ?? '');
      let answer: Array<number | string | null>;
      try {
        answer = await commit(...args);
      } catch (error) {
        return unavailable(error);
      }
      const code = Number(answer[0]);
      if (code === 1) return { ok: true };
      if (code === 0) {
        const now: SharedCheck[] = [];
        for (let i = 1; i < answer.length; i += 2) {
          const check = checks[Number(answer[i])];
          now.push({ collection: check.collection, key: check.key, text: (answer[i + 1] as string | null) ?? null });
        }
        return { ok: false, now };
      }
      const write = Number(answer[1]);
      if (code === -3)
        throw new Error(`plantstore bug: a commit's checks let through a write they should have stopped`);
      const collection = writes[write].collection;
      const full =
        code === -1
          ? overWeight(options.maxBytes, words)
          : new StateFullError(
              `${collection.slice(collection.indexOf('\u0000') + 1)} holds ${MAX_COLLECTION_RECORDS} records, the ` +
                `most one collection can`,
              `${words.clear} clears it`,
            );
      return { ok: false, full, write } satisfies SharedCommit;
    },
    async dump(prefix) {
      let flat: Array<string | null>;
      try {
        flat = await dumpOf(ns, prefix);
      } catch (error) {
        return unavailable(error);
      }
      const out: Array<[string, string, string]> = [];
      for (let i = 0; i < flat.length; i += 3) out.push([String(flat[i]), String(flat[i + 1]), String(flat[i + 2])]);
      return out;
    },
    async clear(which) {
      try {
        await clearOf(
          ns,
          'collection' in which ? which.collection : which.prefix,
          'collection' in which ? '1' : '0',
          RECORD_OVERHEAD_BYTES,
        );
      } catch (error) {
        unavailable(error);
      }
    },
    close() {
      closing = true;
      client.disconnect();
    },
  };
}
