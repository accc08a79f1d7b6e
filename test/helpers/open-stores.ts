// Each state file a test opens is closed after it: a file handle left to the garbage collector
// makes Node warn (DEP0137) in whichever test file happens to be running then.
import { afterEach } from 'vitest';
import type { FileStore } from '../../src/state/file-store.ts';

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
