import { describe, expect, it, vi } from 'vitest';
import { createSeededRandom } from '../../src/example/seeded-random.ts';
import { createLogger, FLUSH_AFTER_MS, FLUSH_AT_LINES } from '../../src/log/logger.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import { builtInSpec, CANARY, createPlant, send } from '../helpers/engine.ts';

async function loggedEngine(format: 'text' | 'json') {
  const lines: string[] = [];
  const logger = createLogger({
    format,
    quiet: false,
    stream: { write: (chunk: string) => lines.push(...chunk.trimEnd().split('\n')) },
  });
  const engine = createMockEngine({ spec: await builtInSpec(), options: { logFormat: format }, logger });
  return { engine, logger, lines };
}

describe('request logs', () => {
  it('write one text line per request with method, path, status, time and the violations', async () => {
    const { engine, logger, lines } = await loggedEngine('text');
    await createPlant(engine, '{"id":1,"name":"A"}');
    await createPlant(engine, '{"id":"x"}');
    logger.flush();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} POST \/plants 200 [\d.]+ms$/);
    expect(lines[1]).toMatch(/POST \/plants 400 [\d.]+ms {2}invalid request body: .*\/id: must be integer/);
  });

  it('write machine-readable JSON lines with --log-format json', async () => {
    const { engine, logger, lines } = await loggedEngine('json');
    await createPlant(engine, '{}', { authorization: undefined });
    logger.flush();
    const entry = JSON.parse(lines[0]);
    expect(entry).toMatchObject({
      level: 'info',
      method: 'POST',
      path: '/plants',
      status: 401,
      operationId: 'createPlant',
      problems: [expect.any(String)],
    });
    expect(typeof entry.ms).toBe('number');
  });

  it.each([['text' as const], ['json' as const]])(
    'never show the bearer token (%s), nor does the journal',
    async (format) => {
      const { engine, logger, lines } = await loggedEngine(format);
      await createPlant(engine, '{"id":1,"name":"A"}');
      await createPlant(engine, '{"id":1,"name":"A"}', { authorization: `Bearer ${CANARY} extra` });
      await createPlant(engine, '{"id":2,"name":"A"}', { authorization: `Basic ${CANARY}` });
      await send(engine, { method: 'POST', path: '/plants', query: `access_token=${CANARY}`, body: '{}' });
      logger.flush();
      const journal = await send(engine, { method: 'GET', path: '/__mock/requests', body: '' });
      expect(lines.join('\n')).not.toContain(CANARY);
      expect(journal.text).not.toContain(CANARY);
      expect(journal.text).toContain('Bearer [redacted]');
    },
  );
});

describe("the logger's buffer", () => {
  const capture = () => {
    const writes: string[] = [];
    return {
      writes,
      logger: createLogger({ format: 'text', quiet: false, stream: { write: (chunk: string) => writes.push(chunk) } }),
    };
  };
  const line = { method: 'POST', path: '/plants', status: 200, durationMs: 0.1 };

  it(`writes the lines of a burst together, ${FLUSH_AFTER_MS} ms after the first`, () => {
    vi.useFakeTimers();
    try {
      const { writes, logger } = capture();
      for (let i = 0; i < 3; i++) logger.request(line);
      expect(writes).toEqual([]);
      vi.advanceTimersByTime(FLUSH_AFTER_MS - 1);
      expect(writes).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(writes).toHaveLength(1);
      expect(writes[0].trimEnd().split('\n')).toHaveLength(3);
      logger.request(line);
      vi.advanceTimersByTime(FLUSH_AFTER_MS);
      expect(writes).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it(`writes at once when ${FLUSH_AT_LINES} lines wait, and messages at once`, () => {
    vi.useFakeTimers();
    try {
      const { writes, logger } = capture();
      for (let i = 0; i < FLUSH_AT_LINES; i++) logger.request(line);
      expect(writes).toHaveLength(1);
      expect(writes[0].trimEnd().split('\n')).toHaveLength(FLUSH_AT_LINES);
      logger.request(line);
      logger.error('boom');
      expect(writes).toHaveLength(2);
      expect(writes[1]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} POST \/plants 200 0.1ms\nERROR: boom\n$/);
      logger.info('listening on http://127.0.0.1:4010');
      logger.warn('careful');
      expect(writes.slice(2)).toEqual(['listening on http://127.0.0.1:4010\n', 'warning: careful\n']);
      vi.advanceTimersByTime(FLUSH_AFTER_MS);
      expect(writes).toHaveLength(4); // nothing left, nothing written twice
    } finally {
      vi.useRealTimers();
    }
  });

  it('formats each line with the time it was noted, not the time it is written', () => {
    const { writes, logger } = capture();
    const noon = Date.UTC(2026, 10, 23, 12, 0, 0, 7);
    logger.request({ ...line, time: noon });
    logger.request({ ...line, status: 400, problems: ['a', 'b'], time: noon + 1001 });
    logger.flush();
    expect(writes).toEqual(['12:00:00.007 POST /plants 200 0.1ms\n12:00:01.008 POST /plants 400 0.1ms  a; b\n']);
    const json = createLogger({
      format: 'json',
      quiet: false,
      stream: { write: (chunk: string) => writes.push(chunk) },
    });
    json.request({ ...line, time: noon });
    json.flush();
    expect(JSON.parse(writes[1])).toEqual({
      time: '2026-11-23T12:00:00.007Z',
      level: 'info',
      method: 'POST',
      path: '/plants',
      status: 200,
      ms: 0.1,
    });
  });
});

describe('request lines in the batch', () => {
  const capture = () => {
    const writes: string[] = [];
    return {
      writes,
      logger: createLogger({ format: 'text', quiet: false, stream: { write: (chunk: string) => writes.push(chunk) } }),
    };
  };
  const noon = Date.UTC(2026, 10, 23, 12, 0, 0, 7);

  it('writes each duration as String(Math.round(ms * 100) / 100) writes it', () => {
    const samples = [
      0,
      0.004,
      0.005,
      0.05,
      0.07,
      0.1,
      0.123,
      0.995,
      1,
      1.5,
      1.05,
      2.999,
      12,
      99.99,
      100.01,
      123456.78,
      2 ** 24 + 0.5,
      2e7 + 0.01,
      1e300,
      -1,
      Number.NaN,
    ];
    const random = createSeededRandom(7);
    for (let i = 0; i < 5000; i++) samples.push((random.next32() / 2 ** 32) * 10 ** (i % 7));
    const { writes, logger } = capture();
    for (const ms of samples) logger.request({ method: 'GET', path: '/x', status: 200, durationMs: ms, time: noon });
    logger.flush();
    const written = writes
      .join('')
      .trimEnd()
      .split('\n')
      .map((line) => line.split(' ')[4]);
    expect(written).toEqual(samples.map((ms) => `${String(Math.round(ms * 100) / 100)}ms`));
  });

  it('keeps characters beyond ASCII in paths and problems, as UTF-8', () => {
    const { writes, logger } = capture();
    logger.request({
      method: 'GET',
      path: '/pl\u00e4nts/\u20ac\u{1F331}',
      status: 404,
      durationMs: 1,
      problems: ['no plant named \u201cFarn\u201d'],
      time: noon,
    });
    logger.flush();
    expect(writes).toEqual([
      '12:00:00.007 GET /pl\u00e4nts/\u20ac\u{1F331} 404 1ms  no plant named \u201cFarn\u201d\n',
    ]);
  });

  it('writes a line larger than a batch whole, after the lines before it, and keeps the order', () => {
    const { writes, logger } = capture();
    const long = `/${'\u00e9'.repeat(40_000)}`;
    logger.request({ method: 'GET', path: '/first', status: 200, durationMs: 1, time: noon });
    logger.request({ method: 'GET', path: long, status: 414, durationMs: 1, time: noon });
    logger.request({ method: 'GET', path: '/last', status: 200, durationMs: 1, time: noon });
    logger.flush();
    const lines = writes.join('').trimEnd().split('\n');
    expect(lines.map((line) => line.split(' ')[2])).toEqual(['/first', long, '/last']);
  });

  it('writes a batch before it would pass its byte size, whatever its line count', () => {
    const { writes, logger } = capture();
    const path = `/${'a'.repeat(2000)}`;
    for (let i = 0; i < 100; i++) logger.request({ method: 'GET', path, status: 200, durationMs: 1, time: noon });
    expect(writes.length).toBeGreaterThan(0);
    logger.flush();
    const lines = writes.join('').trimEnd().split('\n');
    expect(lines).toHaveLength(100);
    expect(new Set(lines)).toEqual(new Set([`12:00:00.007 GET ${path} 200 1ms`]));
  });

  it('does not keep the line object: a caller may change it after', () => {
    const { writes, logger } = capture();
    const line = { method: 'POST', path: '/plants', status: 200, durationMs: 0.1, time: noon };
    logger.request(line);
    line.path = '/changed';
    logger.flush();
    expect(writes).toEqual(['12:00:00.007 POST /plants 200 0.1ms\n']);
  });
});

describe('a log whose stream fails', () => {
  const line = { method: 'POST', path: '/plants', status: 200, durationMs: 0.1 };

  it('stops writing, and never throws at the caller, when a write throws (a full disk)', () => {
    let calls = 0;
    const logger = createLogger({
      format: 'text',
      quiet: false,
      stream: {
        write: () => {
          calls++;
          throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
        },
      },
    });
    logger.request(line);
    expect(() => logger.flush()).not.toThrow();
    expect(() => logger.error('boom')).not.toThrow();
    logger.request(line);
    logger.flush();
    expect(calls).toBe(1);
  });

  it('stops writing when the stream reports an error (its reader went away)', () => {
    const written: string[] = [];
    let onError: ((error: Error) => void) | undefined;
    const logger = createLogger({
      format: 'text',
      quiet: false,
      stream: { write: (chunk: string) => written.push(chunk), on: (_event, listener) => (onError = listener) },
    });
    logger.info('listening');
    expect(written).toEqual(['listening\n']);
    onError!(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    logger.request(line);
    logger.flush();
    logger.warn('careful');
    expect(written).toEqual(['listening\n']);
  });
});
