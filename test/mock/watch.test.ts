// `mock --watch`: a good edit (of the root file and of a file it refers to), a broken edit and the
// recovery, state kept for the collections that remain and dropped for one removed, and a
// request under way answered by the document it started under. Each step waits for the reload's
// own event (nextReload), never a sleep.
import { writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { createLogger } from '../../src/log/logger.ts';
import { tempDir } from '../helpers/temp-dir.ts';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const pathItem = (name: string) => `
  /${name}:
    get:
      responses:
        '200':
          description: all
          content:
            application/json:
              schema: {type: array, items: {$ref: 'schemas.yaml#/Thing'}}
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: 'schemas.yaml#/Thing'}
      responses:
        '201':
          description: made
          content:
            application/json:
              schema: {$ref: 'schemas.yaml#/Thing'}
        '400':
          description: invalid
          content:
            application/json:
              schema: {type: object, required: [error, message], properties: {error: {type: integer}, message: {type: string}}}`;
const document = (...collections: string[]) => `openapi: 3.1.0
info: {title: Watched, version: 1.0.0}
paths:${collections.map(pathItem).join('')}
`;
const THING = `Thing:
  type: object
  required: [id, name]
  properties:
    id: {type: integer}
    name: {type: string}
`;

/** A folder with main.yaml (the collections given) and schemas.yaml, and a mock watching it; the log's lines kept. */
async function watched(...collections: string[]) {
  const dir = tempDir('plantstore-watch-');
  writeFileSync(join(dir, 'main.yaml'), document(...collections));
  writeFileSync(join(dir, 'schemas.yaml'), THING);
  const lines: string[] = [];
  const logger = createLogger({ format: 'text', quiet: false, stream: { write: (line: string) => lines.push(line) } });
  server = await startMockServer({ spec: join(dir, 'main.yaml'), port: 0, watch: true, logger });
  return { dir, lines, url: server.url };
}
const post = async (url: string, body: unknown) => {
  const answer = await request(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  return { status: answer.statusCode, body: await answer.body.text() };
};
const status = async (url: string, headers: Record<string, string> = {}) => {
  const answer = await request(url, { headers });
  await answer.body.dump();
  return answer.statusCode;
};
/** Writes a file as many editors save: a new file renamed over the old one. */
const save = (file: string, text: string) => {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
};

describe('mock --watch', () => {
  it('serves a good edit of the document at once, keeping the state of the collections that remain', async () => {
    const { dir, url, lines } = await watched('plants');
    expect((await post(`${url}/plants`, { id: 1, name: 'Fern' })).status).toBe(201);
    expect(await status(`${url}/pots`)).toBe(404);
    const reloaded = server!.nextReload();
    save(join(dir, 'main.yaml'), document('plants', 'pots'));
    expect(await reloaded).toMatchObject({
      ok: true,
      message: expect.stringMatching(/^reloaded .*main\.yaml in \d+ ms: 4 operations$/),
    });
    expect(await status(`${url}/pots`)).toBe(200);
    expect(server!.engine.store.list('/plants')).toEqual([{ id: 1, name: 'Fern' }]);
    expect(lines.join('')).toMatch(/reloaded .*main\.yaml/);
  });

  it('reloads when a file the document refers to changes', async () => {
    const { dir, url } = await watched('plants');
    expect((await post(`${url}/plants`, { id: 1, name: 'Fern', extra: true })).status).toBe(201);
    const reloaded = server!.nextReload();
    writeFileSync(
      join(dir, 'schemas.yaml'),
      THING.replace('type: object', 'type: object\n  additionalProperties: false'),
    );
    expect((await reloaded).ok).toBe(true);
    expect((await post(`${url}/plants`, { id: 2, name: 'Ivy', extra: true })).status).toBe(400);
  });

  it('keeps serving the last good document after a broken edit, says so once, and recovers on the next good one', async () => {
    const { dir, url, lines } = await watched('plants');
    let reloaded = server!.nextReload();
    save(join(dir, 'main.yaml'), `${document('plants', 'pots')}  broken: [unclosed\n`);
    const failed = await reloaded;
    expect(failed).toMatchObject({
      ok: false,
      message: expect.stringContaining('reload failed; still serving the last good document'),
    });
    expect(lines.filter((line) => line.includes('reload failed'))).toHaveLength(1);
    expect(await status(`${url}/plants`)).toBe(200);
    expect(await status(`${url}/pots`)).toBe(404);
    reloaded = server!.nextReload();
    save(join(dir, 'main.yaml'), document('plants', 'pots'));
    expect((await reloaded).ok).toBe(true);
    expect(await status(`${url}/pots`)).toBe(200);
  });

  it('drops the records of a collection the document no longer has, with a log line', async () => {
    const { dir, url, lines } = await watched('plants', 'pots');
    await post(`${url}/plants`, { id: 1, name: 'Fern' });
    await post(`${url}/pots`, { id: 2, name: 'Clay' });
    const reloaded = server!.nextReload();
    save(join(dir, 'main.yaml'), document('plants'));
    expect((await reloaded).ok).toBe(true);
    expect(server!.engine.store.list('/plants')).toEqual([{ id: 1, name: 'Fern' }]);
    expect(server!.engine.store.list('/pots')).toEqual([]);
    expect(lines.join('')).toContain('/pots: no longer in the document; its stored records are dropped');
  });

  it("redacts in the kept journal the key names of a reloaded document's apiKey scheme, in entries old and new", async () => {
    const { dir, url } = await watched('plants');
    await status(`${url}/plants`, { 'x-plant-key': 'secret-before-1' });
    const reloaded = server!.nextReload();
    save(
      join(dir, 'main.yaml'),
      `${document('plants')}components:\n  securitySchemes:\n    key: {type: apiKey, in: header, name: x-plant-key}\nsecurity:\n  - key: []\n`,
    );
    expect((await reloaded).ok).toBe(true);
    await status(`${url}/plants`, { 'x-plant-key': 'secret-after-2' });
    const journal = JSON.stringify(server!.engine.journal.entries());
    expect(journal).not.toContain('secret-before-1');
    expect(journal).not.toContain('secret-after-2');
    expect(server!.engine.journal.entries().map((entry) => entry.headers['x-plant-key'])).toEqual([
      '[redacted]',
      '[redacted]',
    ]);
  });

  it('answers a request under way by the document it started under', async () => {
    const { dir, url } = await watched('plants', 'pots');
    // Waits out its delay on the engine it was planned with, across the reload.
    const underWay = status(`${url}/pots`, { prefer: 'delay=60000' });
    const reloaded = server!.nextReload();
    save(join(dir, 'main.yaml'), document('plants'));
    expect((await reloaded).ok).toBe(true);
    expect(await status(`${url}/pots`)).toBe(404);
    // Stopping ends the delay: the answer is the old document's.
    await server!.close();
    server = undefined;
    expect(await underWay).toBe(200);
  });
});
