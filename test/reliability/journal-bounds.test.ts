import { describe, expect, it } from 'vitest';
import { createJournal } from '../../src/mock/journal.ts';
import { createPlant, plantEngine } from '../helpers/engine.ts';

describe('the request journal', () => {
  it('is a ring buffer: it never holds more than its size, whatever the load', async () => {
    const engine = await plantEngine({ journalSize: 50 });
    for (let i = 0; i < 5000; i++) await createPlant(engine, i % 2 ? '{"id":"x"}' : `{"id":${i},"name":"p"}`);
    expect(engine.journal.entries()).toHaveLength(50);
    expect(engine.store.size()).toBe(2500);
  });

  it('keeps the newest entries, oldest first', () => {
    const journal = createJournal(3);
    for (let i = 1; i <= 5; i++) journal.add({ time: '', method: 'POST', path: `/${i}`, query: '', status: 200, durationMs: 0, headers: {} });
    expect(journal.entries().map((e) => e.path)).toEqual(['/3', '/4', '/5']);
    expect(journal.entries(2).map((e) => e.path)).toEqual(['/4', '/5']);
  });

  it('keeps nothing with size 0', async () => {
    const engine = await plantEngine({ journalSize: 0 });
    await createPlant(engine, '{"id":1,"name":"p"}');
    expect(engine.journal.entries()).toEqual([]);
  });
});
