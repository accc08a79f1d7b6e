// SIGTERM in the middle of a storm of clients: the mock stops without waiting for its clients to
// stop, answers nothing but what it committed (a request in flight is finished or gets no answer),
// and on Redis every create it acknowledged is there after it has gone. Nor does it wait for a
// Redis that has stopped answering: the requests stuck on it are cut, well before they would time
// out. Real processes: a redis-server, the mock, and the storm (test/state/storm-process.ts).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_SERVER, startRedis, warnIfNoRedis, type RunningRedis } from '../helpers/redis-server.ts';
import { startReplica, type Replica } from '../helpers/replicas.ts';

warnIfNoRedis(import.meta.url);
const CONNECTIONS = 400;

let redis: RunningRedis | undefined;
const started: Replica[] = [];
beforeAll(async () => {
  if (REDIS_SERVER) redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(started.map((replica) => replica.stop()));
  await redis?.stop();
});

/** Starts the storm against `url`; resolves once every connection has been answered, to its outcome once it ends. */
async function storm(url: string) {
  const child = spawn(process.execPath, [resolve('test/state/storm-process.ts'), url, String(CONNECTIONS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const storming = new Promise<void>((done, fail) => {
    const watch = () => /^storming$/m.test(out) && (child.stdout.off('data', watch), done());
    child.stdout.on('data', watch);
    child.once('exit', (code) => fail(new Error(`the storm ended (${code}) before it was under way: ${out}`)));
  });
  await storming;
  const outcome = once(child, 'exit').then(
    () => JSON.parse(out.split('\n').filter(Boolean).at(-1)!) as { acknowledged: number[]; others: object },
  );
  return { outcome };
}

const storedIds = async (url: string) =>
  (
    ((await (await fetch(`${url}/__mock/state`)).json()) as { collections: { '/plants'?: Array<{ id: number }> } })
      .collections['/plants'] ?? []
  ).map((plant) => plant.id);

describe.each([
  ['in memory', false],
  ['on Redis', true],
])('a mock %s stopped with SIGTERM under a storm of 400 connections', (_, onRedis) => {
  it.skipIf(onRedis && !REDIS_SERVER)(
    'exits with 0 while the storm still sends, having answered only 200s, and keeps every create it acknowledged',
    async () => {
      const options = { spec: 'openapi/plant-store.yaml', ...(onRedis && { stateUrl: redis!.url }) };
      const mock = await startReplica(options);
      const { outcome } = await storm(mock.url);
      const exited = once(mock.child, 'exit');
      mock.child.kill('SIGTERM');
      // The storm's clients send until the mock is gone, so this exit did not wait for them to stop.
      const [code] = await exited;
      expect(code).toBe(0);
      const { acknowledged, others } = await outcome;
      expect(others).toEqual({});
      expect(acknowledged.length).toBeGreaterThanOrEqual(CONNECTIONS);
      if (!onRedis) return;
      const after = await startReplica(options);
      started.push(after);
      const stored = new Set(await storedIds(after.url));
      expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    },
    60_000,
  );
});

describe.skipIf(!REDIS_SERVER)('a mock on a Redis that has stopped answering, stopped with SIGTERM', () => {
  it('cuts the requests stuck on Redis (no answer, not a 503 once they time out), exits with 0, and keeps what it acknowledged', async () => {
    const options = { spec: 'openapi/plant-store.yaml', stateUrl: redis!.url, statePrefix: 'frozen' };
    const mock = await startReplica(options);
    const { outcome } = await storm(mock.url);
    // Every connection's next create is now waiting on a Redis that answers nothing.
    redis!.pause();
    const exited = once(mock.child, 'exit');
    mock.child.kill('SIGTERM');
    const [code] = await exited;
    redis!.resume();
    expect(code).toBe(0);
    const { acknowledged, others } = await outcome;
    expect(others).toEqual({});
    const after = await startReplica(options);
    started.push(after);
    const stored = new Set(await storedIds(after.url));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  }, 60_000);
});
