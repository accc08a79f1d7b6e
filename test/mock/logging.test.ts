import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import { builtInSpec, CANARY, createPlant, send } from '../helpers/engine.ts';

async function loggedEngine(format: 'text' | 'json') {
  const lines: string[] = [];
  const logger = createLogger({ format, quiet: false, stream: { write: (chunk: string) => lines.push(...chunk.trimEnd().split('\n')) } });
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
    expect(entry).toMatchObject({ level: 'info', method: 'POST', path: '/plants', status: 401, operationId: 'createPlant', problems: [expect.any(String)] });
    expect(typeof entry.ms).toBe('number');
  });

  it.each([['text' as const], ['json' as const]])('never show the bearer token (%s), nor does the journal', async (format) => {
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
  });
});
