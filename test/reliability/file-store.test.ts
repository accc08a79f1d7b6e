import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/logger.ts';
import { openFileStore } from '../../src/state/file-store.ts';
import { scopedStore } from '../../src/state/scoped-store.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import { send } from '../helpers/engine.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const fresh = () => join(tempDir('plantstore-state-'), 'state.log');
const MAX = 9223372036854775807n;

describe('the state file', () => {
  it('keeps records across a reopen, int64 keys and values exact', async () => {
    const file = fresh();
    const store = await openFileStore(file, silentLogger);
    expect(store.insert('/plants', MAX.toString(), { id: MAX, name: 'Max' })).toBe(true);
    expect(store.insert('/plants', '9007199254740993', { id: 9007199254740993n, name: 'B' })).toBe(true);
    await store.flush();
    await store.close();
    const reopened = await openFileStore(file, silentLogger);
    expect(reopened.list('/plants')).toEqual([
      { id: MAX, name: 'Max' },
      { id: 9007199254740993n, name: 'B' },
    ]);
    expect(reopened.insert('/plants', MAX.toString(), { id: MAX, name: 'again' })).toBe(false);
    await reopened.close();
  });

  it('writes one line per create whatever text the record came with, and reads it back after a reopen', async () => {
    const file = fresh();
    const store = await openFileStore(file, silentLogger);
    store.insert('/plants', '1', { id: 1, name: 'one line' }, '{"id":1,\r "name":"one line"}'); // a CR is not a line break
    store.insert(
      '/plants',
      '9007199254740993',
      { id: 9007199254740993n, name: 'pretty' },
      '{\n  "id": 9007199254740993,\n  "name": "pretty"\n}',
    );
    await store.close();
    // The header and two puts: a body's line breaks never reach the log.
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(3);
    const reopened = await openFileStore(file, silentLogger);
    expect(reopened.list('/plants')).toEqual([
      { id: 1, name: 'one line' },
      { id: 9007199254740993n, name: 'pretty' },
    ]);
    await reopened.close();
  });

  it('has written a create to disk once flush resolves', async () => {
    const file = fresh();
    const store = await openFileStore(file, silentLogger);
    store.insert('/plants', '1', { id: 1, name: 'A' });
    await store.flush();
    expect(readFileSync(file, 'utf8')).toContain('"name":"A"');
    await store.close();
  });

  it('recovers from a torn last line, which is what a crash leaves', async () => {
    const file = fresh();
    const store = await openFileStore(file, silentLogger);
    store.insert('/plants', '1', { id: 1, name: 'A' });
    await store.close();
    appendFileSync(file, '1234abcd {"op":"put","collection":"/plants","key":"2","rec');
    const warnings: string[] = [];
    const reopened = await openFileStore(file, { ...silentLogger, warn: (m: string) => warnings.push(m) });
    expect(reopened.list('/plants')).toEqual([{ id: 1, name: 'A' }]);
    expect(warnings.join()).toContain('torn last line');
    reopened.insert('/plants', '3', { id: 3, name: 'C' });
    await reopened.close();
    const again = await openFileStore(file, silentLogger);
    expect(again.list('/plants').map((p) => p.id)).toEqual([1, 3]);
    await again.close();
  });

  it('refuses to start on a file damaged in the middle, naming the line, and loads nothing', async () => {
    const file = fresh();
    const store = await openFileStore(file, silentLogger);
    for (let i = 1; i <= 3; i++) store.insert('/plants', String(i), { id: i, name: `P${i}` });
    await store.close();
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[2] = lines[2].replace('"P2"', '"PX"');
    writeFileSync(file, lines.join('\n'));
    await expect(openFileStore(file, silentLogger)).rejects.toMatchObject({
      code: 'STATE_FILE_CORRUPT',
      message: expect.stringContaining('line 3'),
    });
  });

  it('refuses a file that plantstore did not write', async () => {
    const file = fresh();
    writeFileSync(file, 'hello\nworld\n');
    await expect(openFileStore(file, silentLogger)).rejects.toMatchObject({ code: 'STATE_FILE_CORRUPT' });
  });

  it('is compacted so that it does not grow without bound', async () => {
    const file = fresh();
    const store = await openFileStore(file, silentLogger);
    for (let round = 0; round < 30; round++) {
      for (let i = 0; i < 100; i++) store.insert('/plants', String(i), { id: i, name: 'x'.repeat(50) });
      await store.flush();
      for (let i = 0; i < 100; i++) store.remove('/plants', String(i));
      await store.flush();
    }
    store.insert('/plants', 'last', { id: 1, name: 'kept' });
    await store.close();
    const lineCount = readFileSync(file, 'utf8').trimEnd().split('\n').length;
    expect(lineCount).toBeLessThan(1200); // 6,001 changes were made
    const reopened = await openFileStore(file, silentLogger);
    expect(reopened.list('/plants')).toEqual([{ id: 1, name: 'kept' }]);
    await reopened.close();
  });

  it('is emptied by clear()', async () => {
    const file = fresh();
    const store = await openFileStore(file, silentLogger);
    store.insert('/plants', '1', { id: 1, name: 'A' });
    await store.flush();
    store.clear();
    await store.flush();
    expect(readFileSync(file, 'utf8')).not.toContain('"name"');
    await store.close();
    const reopened = await openFileStore(file, silentLogger);
    expect(reopened.list('/plants')).toEqual([]);
    await reopened.close();
  });

  it('batches concurrent writes into few fsyncs and acknowledges each', async () => {
    const file = fresh();
    const store = await openFileStore(file, silentLogger);
    const writes = Array.from({ length: 200 }, (_, i) => {
      store.insert('/plants', String(i), { id: i, name: 'P' });
      return store.flush();
    });
    await Promise.all(writes);
    await store.close();
    const reopened = await openFileStore(file, silentLogger);
    expect(reopened.list('/plants')).toHaveLength(200);
    await reopened.close();
  });
});

describe('the state file and deleted items', () => {
  it('remembers a removed key across a reopen and a compaction, until it is created again or cleared', async () => {
    const file = fresh();
    const store = await openFileStore(file, silentLogger);
    store.insert('/plants', '1', { id: 1 });
    store.insert('/plants', '2', { id: 2 });
    store.remove('/plants', '1');
    await store.close();
    const reopened = await openFileStore(file, silentLogger);
    expect([reopened.removed?.('/plants', '1'), reopened.removed?.('/plants', '2')]).toEqual([true, false]);
    // A compaction writes live records and removed keys alike.
    for (let i = 0; i < 1200; i++) reopened.replace('/plants', '2', { id: 2, n: i });
    await reopened.flush();
    reopened.replace('/plants', '2', { id: 2, n: 'last' }); // the next write finds the log long, and compacts it
    await reopened.flush();
    await reopened.close();
    const compacted = await openFileStore(file, silentLogger);
    expect(readFileSync(file, 'utf8').trimEnd().split('\n').length).toBeLessThan(10);
    expect(compacted.removed?.('/plants', '1')).toBe(true);
    compacted.insert('/plants', '1', { id: 1, again: true });
    expect(compacted.removed?.('/plants', '1')).toBe(false);
    // One tenant's reset forgets that tenant's removed keys only.
    const [ann, bob] = [scopedStore(compacted, 'ann'), scopedStore(compacted, 'bob')];
    for (const tenant of [ann, bob]) tenant.insert('/plants', '7', { id: 7 }) && tenant.remove('/plants', '7');
    ann.clear();
    expect([ann.removed?.('/plants', '7'), bob.removed?.('/plants', '7')]).toEqual([false, true]);
    compacted.remove('/plants', '1');
    compacted.clear();
    expect(compacted.removed?.('/plants', '1')).toBe(false);
    await compacted.close();
  });

  it("answers a deleted item's read with the 404 of a deleted one after a restart, where no 404 is declared", async () => {
    const file = fresh();
    const spec = await loadSpec(resolve('test/documents/keys-and-patches.yaml'));
    const first = await openFileStore(file, silentLogger);
    const engine = createMockEngine({ spec, store: first });
    const { id } = (await send(engine, { method: 'POST', path: '/gadgets', json: { label: 'g' } })).json as {
      id: number;
    };
    expect((await send(engine, { method: 'DELETE', path: `/gadgets/${id}`, body: '' })).status).toBe(204);
    await first.close();
    const restarted = createMockEngine({ spec, store: await openFileStore(file, silentLogger) });
    const gone = await send(restarted, { method: 'GET', path: `/gadgets/${id}`, body: '' });
    expect(gone.status).toBe(404);
    expect(gone.headers.warning).toContain('undeclared 404');
  });
});
