// A mock on Redis when Redis goes away: each request is answered 503 in the document's error
// shape at once, one line is logged (not one per request), the mock reconnects by itself once
// Redis is back, every create it acknowledged before is still there, and SIGTERM stops it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_SERVER, startRedis, warnIfNoRedis, type RunningRedis } from '../helpers/redis-server.ts';
import { startReplica, type Replica } from '../helpers/replicas.ts';

warnIfNoRedis(import.meta.url);

describe.skipIf(!REDIS_SERVER)('a mock whose Redis goes away', () => {
  let redis: RunningRedis;
  let mock: Replica;
  beforeAll(async () => {
    redis = await startRedis();
    mock = await startReplica({ spec: 'openapi/plant-store.yaml', stateUrl: redis.url });
  }, 60_000);
  afterAll(async () => {
    await mock?.stop();
    await redis?.stop();
  });
  const create = (id: number) =>
    fetch(`${mock.url}/plants`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({ id, name: `P${id}` }),
    });
  const storedIds = async () =>
    (
      (
        (await (await fetch(`${mock.url}/__mock/state`)).json()) as {
          collections: { '/plants'?: Array<{ id: number }> };
        }
      ).collections['/plants'] ?? []
    ).map((p) => p.id);

  it('answers 503 in the Error shape while Redis is gone, logs it once, and keeps every acknowledged create once Redis is back', async () => {
    const acknowledged: number[] = [];
    for (let id = 1; id <= 50; id++) if ((await create(id)).status === 200) acknowledged.push(id);
    expect(acknowledged).toHaveLength(50);

    await redis.stop(true); // a crash: SIGKILL
    await mock.logged(/state: Redis at redis:\/\/127\.0\.0\.1:\d+\/0 is gone/);
    const during = await Promise.all([51, 52, 53].map(create));
    for (const answer of during) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(await answer.json()).toEqual({
        error: 503,
        message: expect.stringMatching(
          /^the mock's state is unavailable \(Redis at .* cannot be reached\); try again shortly$/,
        ),
      });
    }
    expect((await fetch(`${mock.url}/__mock/state`)).status).toBe(503);
    expect(mock.log().match(/is gone/g)).toHaveLength(1);

    await redis.restart();
    await mock.logged(/state: Redis at .* is back/);
    expect((await create(54)).status).toBe(200);
    expect(await storedIds()).toEqual([...acknowledged, 54]);
  }, 60_000);

  it('answers 503 once a Redis that holds its connection has answered nothing for 2 s, and goes on once it answers again', async () => {
    redis.pause();
    const answer = await create(60);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({
      error: 503,
      message: expect.stringMatching(/^the mock's state is unavailable \(Redis at .* did not answer within 2000 ms\)/),
    });
    redis.resume();
    expect((await create(61)).status).toBe(200);
  }, 30_000);

  it('stops on SIGTERM while Redis is gone', async () => {
    await redis.stop(true);
    await mock.logged(/is gone[\s\S]*is back[\s\S]*is gone/);
    expect((await create(99)).status).toBe(503);
    expect(await mock.stop()).toBe(0);
  }, 30_000);
});
