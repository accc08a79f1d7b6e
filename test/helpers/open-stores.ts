// Each state file a test opens is closed after it: a file handle left to the garbage collector
// makes Node warn (DEP0137) in whichever test file happens to be running then.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { silentLogger } from '../../src/log/logger.ts';
import { openFileStore, type FileStore } from '../../src/state/file-store.ts';
import { openRedisStore, type RedisStore } from '../../src/state/redis-store.ts';
import { createMemoryStore, type StateStore } from '../../src/state/store.ts';
import { REDIS_SERVER, startRedis, warnIfNoRedis, type RunningRedis } from './redis-server.ts';
import { tempDir } from './temp-dir.ts';

/** Registers the closing (call it at the top of a test file); returns the wrapper that tracks a store. */
export function closeStoresAfterEach(): (store: Promise<FileStore>) => Promise<FileStore> {
  const openStores: FileStore[] = [];
  afterEach(async () => {
    await Promise.all(openStores.splice(0).map((store) => store.close()));
  });
  return async (store) => {
    const fileStore = await store;
    openStores.push(fileStore);
    return fileStore;
  };
}

/**
 * The stores a suite runs against, each opened fresh per call and closed after its test: memory, a state file, and
 * Redis (a namespace each on the test file's one redis-server) where redis-server is installed. Registers the hooks;
 * call it at the top of a test file.
 */
export function everyStore(
  caller: string,
  [memory, file, redis]: [string, string, string],
): Array<[string, () => Promise<StateStore>]> {
  warnIfNoRedis(caller);
  let server: RunningRedis | undefined;
  let namespaces = 0;
  const redisStores: RedisStore[] = [];
  beforeAll(async () => {
    if (REDIS_SERVER) server = await startRedis();
  });
  afterEach(async () => {
    await Promise.all(redisStores.splice(0).map((store) => store.close()));
  });
  afterAll(() => server?.stop());
  const opened = closeStoresAfterEach();
  const openRedis = async () => {
    const store = await openRedisStore({ url: server!.url, namespace: `test:${++namespaces}:`, logger: silentLogger });
    redisStores.push(store);
    return store;
  };
  return [
    [memory, async () => createMemoryStore()],
    [file, () => opened(openFileStore(join(tempDir('plantstore-store-'), 'state.log'), silentLogger))],
    ...(REDIS_SERVER ? [[redis, openRedis] as [string, () => Promise<StateStore>]] : []),
  ];
}
