// A request's optimistic view of the Redis store: the decision reads and writes synchronously,
// and one script commits it only if every record it saw is unchanged.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/logger.ts';
import { optimisticView, Suspended } from '../../src/state/optimistic-view.ts';
import { openRedisStore, type RedisStore } from '../../src/state/redis-store.ts';
import { StateFullError } from '../../src/state/store.ts';
import { REDIS_SERVER, startRedis, warnIfNoRedis, type RunningRedis } from '../helpers/redis-server.ts';

warnIfNoRedis(import.meta.url);
let redis: RunningRedis | undefined;
let namespaces = 0;
const stores: RedisStore[] = [];
beforeAll(async () => {
  if (REDIS_SERVER) redis = await startRedis();
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});
afterAll(() => redis?.stop());

const open = async (maxBytes?: number) => {
  const store = await openRedisStore({
    url: redis!.url,
    namespace: `view:${++namespaces}:`,
    logger: silentLogger,
    limits: { maxBytes },
  });
  stores.push(store);
  return store;
};

describe.skipIf(!REDIS_SERVER)('an optimistic view of the Redis store', () => {
  it('commits a create it assumed free, and nothing of a create whose key another took meanwhile', async () => {
    const store = await open();
    const mine = optimisticView(store.shared!, store);
    const theirs = optimisticView(store.shared!, store);
    expect(mine.insert('/plants', '1', { id: 1, name: 'mine' })).toBe(true);
    expect(theirs.insert('/plants', '1', { id: 1, name: 'theirs' })).toBe(true);
    expect(await theirs.commit()).toBe(true);
    expect(await mine.commit()).toBe(false);
    // Decided again, with what the record is now: the key is taken.
    mine.again();
    expect(mine.get('/plants', '1')).toEqual({ id: 1, name: 'theirs' });
    expect(mine.insert('/plants', '1', { id: 1, name: 'mine' })).toBe(false);
    expect(await mine.commit()).toBe(true);
    expect(store.list('/plants')).toEqual([{ id: 1, name: 'theirs' }]);
  });

  it('reads a stored record after one commit that finds it, and changes nothing by reading', async () => {
    const store = await open();
    store.insert('/plants', '7', { id: 7, name: 'Fern' });
    const view = optimisticView(store.shared!, store);
    expect(view.get('/plants', '7')).toBeUndefined();
    expect(await view.commit()).toBe(false);
    view.again();
    expect(view.get('/plants', '7')).toEqual({ id: 7, name: 'Fern' });
    expect(await view.commit()).toBe(true);
    expect(store.size()).toBe(1);
  });

  it('does not replace a record that changed after it was read', async () => {
    const store = await open();
    store.insert('/plants', '2', { id: 2, name: 'A' });
    const view = optimisticView(store.shared!, store);
    view.get('/plants', '2');
    await view.commit();
    view.again();
    expect(view.replace('/plants', '2', { id: 2, name: 'from the view' })).toBe(true);
    store.replace('/plants', '2', { id: 2, name: 'B' });
    expect(await view.commit()).toBe(false);
    expect(store.get('/plants', '2')).toEqual({ id: 2, name: 'B' });
  });

  it('suspends a page, a count and every key until they are loaded', async () => {
    const store = await open();
    for (let id = 1; id <= 3; id++) store.insert('/plants', String(id), { id });
    const view = optimisticView(store.shared!, store);
    for (const read of [() => view.list('/plants', 1, 2), () => view.count!('/plants'), () => view.keys()]) {
      let suspended: Suspended | undefined;
      try {
        read();
      } catch (error) {
        suspended = error as Suspended;
      }
      expect(suspended).toBeInstanceOf(Suspended);
      await view.load(suspended!.read);
    }
    expect(view.list('/plants', 1, 2)).toEqual([{ id: 2 }, { id: 3 }]);
    expect(view.count!('/plants')).toBe(3);
    expect(view.keys()).toEqual([
      ['/plants', '1'],
      ['/plants', '2'],
      ['/plants', '3'],
    ]);
  });

  it('commits nothing past --max-state-mb, and refuses that write when decided again', async () => {
    const store = await open(60);
    const view = optimisticView(store.shared!, store);
    view.insert('/plants', '1', { id: 1, name: 'a name long enough to pass sixty bytes' });
    expect(await view.commit()).toBe(false);
    view.again();
    expect(() => view.insert('/plants', '1', { id: 1, name: 'a name long enough to pass sixty bytes' })).toThrow(
      StateFullError,
    );
    expect(store.size()).toBe(0);
  });
});
