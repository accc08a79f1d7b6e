import { describe, expect, it } from 'vitest';
import { createJournal } from '../../src/mock/admin/journal.ts';
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
    for (let i = 1; i <= 5; i++)
      journal.add({ time: 0, method: 'POST', path: `/${i}`, query: '', status: 200, durationMs: 0, headers: {} });
    expect(journal.entries().map((e) => e.path)).toEqual(['/3', '/4', '/5']);
    expect(journal.entries(2).map((e) => e.path)).toEqual(['/4', '/5']);
  });

  it('redacts when read: credentials, apiKey names and secret query parameters; the time in ISO 8601', () => {
    const journal = createJournal(2, new Set(['x-plant-key']));
    const headers = {
      authorization: 'Bearer s3cr3t-token',
      'x-plant-key': 's3cr3t-key',
      cookie: 'sid=s3cr3t',
      accept: '*/*',
    };
    journal.add({
      time: Date.UTC(2026, 10, 23, 12, 0, 0, 7),
      method: 'POST',
      path: '/plants',
      query: 'access_token=s3cr3t&x-plant-key=s3cr3t&page=2',
      status: 200,
      durationMs: 0.12345,
      headers,
    });
    const [entry] = journal.entries();
    expect(JSON.stringify(entry)).not.toContain('s3cr3t');
    expect(entry).toMatchObject({
      time: '2026-11-23T12:00:00.007Z',
      durationMs: 0.123,
      query: 'access_token=%5Bredacted%5D&x-plant-key=%5Bredacted%5D&page=2',
    });
    expect(entry.headers).toEqual({
      authorization: 'Bearer [redacted]',
      'x-plant-key': '[redacted]',
      cookie: '[redacted]',
      accept: '*/*',
    });
    expect(headers.authorization).toBe('Bearer s3cr3t-token'); // the request's own object is not changed
  });

  it('keeps nothing with size 0', async () => {
    const engine = await plantEngine({ journalSize: 0 });
    await createPlant(engine, '{"id":1,"name":"p"}');
    expect(engine.journal.entries()).toEqual([]);
  });
});
