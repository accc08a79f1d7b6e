// The store's limit (--max-state-mb): a change that would take the records past it throws a
// StateFullError and changes nothing, for the memory store and the state file alike; what is
// removed or cleared makes room again; a state file that holds more than the limit does not load.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/logger.ts';
import { openFileStore, type FileStore } from '../../src/state/file-store.ts';
import { createMemoryStore, RECORD_OVERHEAD_BYTES, StateFullError, type StateStore } from '../../src/state/store.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { closeStoresAfterEach } from '../helpers/open-stores.ts';

// '{"id":N,"name":"Fern"}' with a one-digit key: 22 characters of text, 1 of key.
const WEIGHT = 22 + 1 + RECORD_OVERHEAD_BYTES;
const LIMIT = 3 * WEIGHT + 10; // room for three such plants, not four
const plant = (id: number) => ({ id, name: 'Fern' });

const STORES: Array<[string, (file?: string) => Promise<StateStore>]> = [
  ['the memory store', async () => createMemoryStore({ maxBytes: LIMIT })],
  [
    'the state file',
    (file = join(tempDir('plantstore-limit-'), 'state.log')) =>
      opened(openFileStore(file, silentLogger, { maxBytes: LIMIT })),
  ],
];

const opened = closeStoresAfterEach();

describe.each(STORES)('%s with a limit', (_, open) => {
  it('refuses the record that would pass the limit, and keeps the others', async () => {
    const store = await open();
    for (let id = 1; id <= 3; id++) expect(store.insert('/plants', String(id), plant(id))).toBe(true);
    expect(() => store.insert('/plants', '4', plant(4))).toThrow(StateFullError);
    expect(() => store.insert('/plants', '4', plant(4))).toThrow(
      /state is full.*--max-state-mb.*DELETE \/__mock\/state/,
    );
    expect(store.size()).toBe(3);
    expect(store.get('/plants', '4')).toBeUndefined();
    // A duplicate is still a duplicate, not a full store.
    expect(store.insert('/plants', '1', plant(1))).toBe(false);
    await store.flush();
  });

  it('makes room again for what is removed or cleared', async () => {
    const store = await open();
    for (let id = 1; id <= 3; id++) store.insert('/plants', String(id), plant(id));
    expect(store.remove('/plants', '2')).toBe(true);
    expect(store.insert('/plants', '4', plant(4))).toBe(true);
    store.clear();
    for (let id = 5; id <= 7; id++) expect(store.insert('/plants', String(id), plant(id))).toBe(true);
    await store.flush();
  });

  it('refuses a replace that grows past the limit, and keeps the record as it was', async () => {
    const store = await open();
    for (let id = 1; id <= 3; id++) store.insert('/plants', String(id), plant(id));
    expect(store.replace('/plants', '1', { id: 1, name: 'Fir' })).toBe(true); // smaller: fine
    expect(() => store.replace('/plants', '2', { id: 2, name: 'F'.repeat(50) })).toThrow(StateFullError);
    expect(store.get('/plants', '2')).toEqual(plant(2));
    await store.flush();
  });
});

describe('a state file and the limit', () => {
  it('keeps no refused record in the file, and does not load a file past a smaller limit', async () => {
    const file = join(tempDir('plantstore-limit-'), 'state.log');
    const store = await openFileStore(file, silentLogger, { maxBytes: LIMIT });
    for (let id = 1; id <= 3; id++) store.insert('/plants', String(id), plant(id));
    expect(() => store.insert('/plants', '4', plant(4))).toThrow(StateFullError);
    await store.close();
    const reopened = await openFileStore(file, silentLogger);
    expect(reopened.list('/plants').map((p) => p.id)).toEqual([1, 2, 3]);
    await reopened.close();
    await expect(openFileStore(file, silentLogger, { maxBytes: 2 * WEIGHT })).rejects.toMatchObject({
      code: 'STATE_FULL',
      message: `${file} holds more than the mock may keep: its records would take more than ${2 * WEIGHT} bytes (--max-state-mb)`,
    });
  });
});
