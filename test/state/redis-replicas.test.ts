// Mock processes on one Redis (mock --state redis://...) act as one mock: the contract battery
// passes with every request sent to the next replica in turn, a create through one is read,
// listed, replaced and deleted through the other, 500 creates of one id across two replicas give
// exactly one success, and a Redis that goes away gives 503s, then everything acknowledged back.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATTERY_SUITES, casesFor, runBattery, type SuiteId } from '../battery/contract-battery.ts';
import { REDIS_SERVER, startRedis, warnIfNoRedis, type RunningRedis } from '../helpers/redis-server.ts';
import { roundRobinTransport, startReplica, suiteReplicas, type Replica } from '../helpers/replicas.ts';

warnIfNoRedis(import.meta.url);
// The journal stays per replica (README): its battery case counts one journal's entries.
const PER_REPLICA = new Set(['journals each request with its status and the credentials redacted']);

let redis: RunningRedis;
const started: Replica[] = [];
beforeAll(async () => {
  if (REDIS_SERVER) redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(started.map((replica) => replica.stop()));
  await redis?.stop();
});
const keep = (replicas: Replica[]) => (started.push(...replicas), replicas);

describe.skipIf(!REDIS_SERVER).each(Object.keys(BATTERY_SUITES) as SuiteId[])(
  'the contract battery (%s) against two replicas on one Redis',
  (suite) => {
    let transport: ReturnType<typeof roundRobinTransport>;
    beforeAll(async () => {
      transport = roundRobinTransport(keep(await suiteReplicas(BATTERY_SUITES[suite], redis.url, `battery-${suite}`)));
    }, 60_000);

    it.each(
      casesFor(suite, 'http')
        .map((c) => c.name)
        .filter((name) => !PER_REPLICA.has(name)),
    )('%s', async (name) => {
      expect(await runBattery(transport, { suite, filter: name })).toEqual([{ suite, name, ok: true }]);
    });
  },
);

describe.skipIf(!REDIS_SERVER)('two replicas of the Plant Store CRUD document on one Redis', () => {
  let a: Replica;
  let b: Replica;
  const AUTH = { authorization: 'Bearer t', 'content-type': 'application/json' };
  beforeAll(async () => {
    [a, b] = keep(
      await Promise.all(
        [0, 1].map(() =>
          startReplica({ spec: 'test/documents/plant-store-crud.yaml', stateUrl: redis.url, statePrefix: 'crud' }),
        ),
      ),
    );
  }, 60_000);

  it('read, list, replace and delete through one what was created through the other', async () => {
    const send = (replica: Replica, method: string, path: string, body?: unknown) =>
      fetch(`${replica.url}${path}`, {
        method,
        headers: AUTH,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await send(a, 'POST', '/plants', { id: 41, name: 'Fern' })).status).toBeLessThan(300);
    expect(await (await send(b, 'GET', '/plants/41')).json()).toMatchObject({ name: 'Fern' });
    expect(await (await send(b, 'GET', '/plants')).json()).toEqual([expect.objectContaining({ name: 'Fern' })]);
    expect((await send(b, 'PUT', '/plants/41', { id: 41, name: 'Fern II' })).status).toBeLessThan(300);
    expect(await (await send(a, 'GET', '/plants/41')).json()).toMatchObject({ name: 'Fern II' });
    expect((await send(a, 'DELETE', '/plants/41')).status).toBeLessThan(300);
    expect((await send(b, 'GET', '/plants/41')).status).toBe(404);
  });

  it('give exactly one success for 500 creates of one id sent across both at once (the others: the 400 the document declares)', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        fetch(`${(i % 2 ? a : b).url}/plants`, {
          method: 'POST',
          headers: AUTH,
          body: JSON.stringify({ id: 777, name: `racer ${i}` }),
        }).then((r) => r.status),
      ),
    );
    const counts = Object.groupBy(statuses, (status) => (status < 300 ? 'won' : String(status)));
    expect(Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, v!.length]))).toEqual({ won: 1, '400': 499 });
  });

  it('share the admin API state: seeded through one, read and cleared through the other', async () => {
    await fetch(`${b.url}/__mock/state`, { method: 'DELETE' });
    const seeded = await fetch(`${a.url}/__mock/state`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify({ '/plants': [{ id: 5, name: 'Seeded' }] }),
    });
    expect(seeded.status).toBe(201);
    expect(((await (await fetch(`${b.url}/__mock/state`)).json()) as { collections: unknown }).collections).toEqual({
      '/plants': [{ id: 5, name: 'Seeded' }],
    });
    expect((await fetch(`${b.url}/__mock/state`, { method: 'DELETE' })).status).toBe(204);
    expect(((await (await fetch(`${a.url}/__mock/state`)).json()) as { collections: unknown }).collections).toEqual({});
  });
});

describe.skipIf(!REDIS_SERVER)(
  'the admin API of two replicas on one Redis, a state per token (--isolate-by token)',
  () => {
    let a: Replica;
    let b: Replica;
    const tenant = createHash('sha256').update('alice').digest('hex').slice(0, 16);
    const create = (replica: Replica, token: string, id: number) =>
      fetch(`${replica.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ id, name: `P${id}` }),
      });
    const admin = async (replica: Replica, method: string, path: string, body?: unknown) => {
      const answer = await fetch(`${replica.url}/__mock/${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      type Body = { tenants: Record<string, number>; message: string; collections: unknown; seeded: unknown };
      return { status: answer.status, body: (answer.status === 204 ? undefined : await answer.json()) as Body };
    };
    beforeAll(async () => {
      [a, b] = keep(
        await Promise.all(
          [0, 1].map(() =>
            startReplica({
              spec: 'test/documents/plant-store-crud.yaml',
              stateUrl: redis.url,
              statePrefix: 'tenants',
              isolateBy: 'token',
              maxStateBytes: 4096,
            }),
          ),
        ),
      );
    }, 60_000);

    it("seeds, lists, counts and resets one token's state through either replica, leaving the others'", async () => {
      expect((await create(a, 'alice', 1)).status).toBe(200);
      expect((await create(b, 'bob', 2)).status).toBe(200);
      expect(await admin(b, 'POST', `state?tenant=${tenant}`, { '/plants': [{ id: 3, name: 'Seeded' }] })).toEqual({
        status: 201,
        body: { seeded: { '/plants': 1 } },
      });
      expect((await admin(a, 'GET', `state?tenant=${tenant}`)).body).toEqual({
        collections: {
          '/plants': [
            { id: 1, name: 'P1' },
            { id: 3, name: 'Seeded' },
          ],
        },
      });
      expect(Object.values((await admin(b, 'GET', 'tenants')).body.tenants).sort()).toEqual([1, 2]);
      expect((await admin(a, 'DELETE', `state?tenant=${tenant}`)).status).toBe(204);
      expect((await admin(b, 'GET', `state?tenant=${tenant}`)).body).toEqual({ collections: {} });
      expect(Object.values((await admin(a, 'GET', 'tenants')).body.tenants)).toEqual([1]);
    });

    it('refuses a seed whose key another replica holds, and one past the shared limit, storing none of it', async () => {
      await admin(a, 'DELETE', 'state');
      expect((await create(a, 'alice', 7)).status).toBe(200);
      const taken = await admin(b, 'POST', `state?tenant=${tenant}`, {
        '/plants': [
          { id: 8, name: 'new' },
          { id: 7, name: 'taken' },
        ],
      });
      expect(taken.status).toBe(400);
      expect(taken.body.message).toMatch(/id 7 already exists/);
      const heavy = await admin(b, 'POST', `state?tenant=${tenant}`, {
        '/plants': Array.from({ length: 40 }, (_, i) => ({ id: 100 + i, name: 'x'.repeat(100) })),
      });
      expect(heavy.status).toBe(507);
      expect((await admin(a, 'GET', `state?tenant=${tenant}`)).body).toEqual({
        collections: { '/plants': [{ id: 7, name: 'P7' }] },
      });
    });
  },
);
