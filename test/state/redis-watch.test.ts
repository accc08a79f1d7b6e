// `mock --watch` on Redis: a reload that drops a collection removes its records from the shared
// state (through the awaited client, as requests), keeps the others', and says so in one line.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.ts';
import { startMockServer } from '../../src/mock/server.ts';
import { REDIS_SERVER, startRedis, warnIfNoRedis, type RunningRedis } from '../helpers/redis-server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

warnIfNoRedis(import.meta.url);
let redis: RunningRedis | undefined;
beforeAll(async () => {
  if (REDIS_SERVER) redis = await startRedis();
});
afterAll(() => redis?.stop());

const pathItem = (name: string) => `
  /${name}:
    get:
      responses:
        '200': {description: all, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Thing'}}}}}
    post:
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
      responses:
        '201': {description: made, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}`;
const document = (...collections: string[]) => `openapi: 3.1.0
info: {title: Watched, version: 1.0.0}
paths:${collections.map(pathItem).join('')}
components:
  schemas:
    Thing: {type: object, required: [id, name], properties: {id: {type: integer}, name: {type: string}}}
`;

describe.skipIf(!REDIS_SERVER)('mock --watch on Redis', () => {
  it('drops the shared records of a collection the document no longer has, and keeps the rest', async () => {
    const dir = tempDir('plantstore-redis-watch-');
    const file = join(dir, 'main.yaml');
    writeFileSync(file, document('plants', 'pots'));
    const lines: string[] = [];
    const logger = createLogger({
      format: 'text',
      quiet: false,
      stream: { write: (line: string) => lines.push(line) },
    });
    const server = await startMockServer({ spec: file, port: 0, watch: true, logger, stateUrl: redis!.url });
    try {
      const post = (path: string, body: unknown) =>
        fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await post('/plants', { id: 1, name: 'Fern' })).status).toBe(201);
      expect((await post('/pots', { id: 2, name: 'Clay' })).status).toBe(201);
      const reloaded = server.nextReload();
      writeFileSync(`${file}.tmp`, document('plants'));
      renameSync(`${file}.tmp`, file);
      expect((await reloaded).ok).toBe(true);
      const state = (await (await fetch(`${server.url}/__mock/state`)).json()) as { collections: unknown };
      expect(state.collections).toEqual({ '/plants': [{ id: 1, name: 'Fern' }] });
      expect(lines.join('')).toContain('/pots: no longer in the document; its stored records are dropped');
    } finally {
      await server.close();
    }
  });
});
