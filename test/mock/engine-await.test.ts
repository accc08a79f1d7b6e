// The engine answers in memory without a promise, and awaits only a store across a socket (Redis).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockEngine } from '../../src/mock/engine.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { openRedisStore, type RedisStore } from '../../src/state/redis-store.ts';
import { builtInSpec, request } from '../helpers/engine.ts';
import { REDIS_SERVER, startRedis, warnIfNoRedis, type RunningRedis } from '../helpers/redis-server.ts';

warnIfNoRedis(import.meta.url);
let redis: RunningRedis | undefined;
let store: RedisStore | undefined;
beforeAll(async () => {
  if (!REDIS_SERVER) return;
  redis = await startRedis();
  store = await openRedisStore({ url: redis.url, namespace: 'await:', logger: silentLogger });
});
afterAll(async () => {
  await store?.close();
  await redis?.stop();
});

const create = (id: number, headers: Record<string, string> = {}) =>
  request({ body: `{"id":${id},"name":"Fern"}`, headers });

describe('the engine', () => {
  it('answers a create in memory at once, without a promise, with or without an Idempotency-Key', async () => {
    const engine = createMockEngine({ spec: await builtInSpec() });
    const plain = engine.handle(create(1));
    const keyed = engine.handle(create(2, { 'idempotency-key': 'k' }));
    const replayed = engine.handle(create(2, { 'idempotency-key': 'k' }));
    for (const answer of [plain, keyed, replayed]) expect(answer).not.toBeInstanceOf(Promise);
    expect([plain, keyed, replayed].map((answer) => (answer as { status: number }).status)).toEqual([200, 200, 200]);
  });

  it.skipIf(!REDIS_SERVER)('awaits Redis for a create, and answers it once Redis has committed it', async () => {
    const engine = createMockEngine({ spec: await builtInSpec(), store });
    const answer = engine.handle(create(3));
    expect(answer).toBeInstanceOf(Promise);
    expect((await answer).status).toBe(200);
    expect(store!.get('/plants', '3')).toEqual({ id: 3, name: 'Fern' });
  });
});
