// The resource map is plain data worked out at load, and said the same way at start-up, in
// /__mock/health, in `spec --check` and in `spec --resources`.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSpec } from '../../src/mock/admin/check-spec.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import { formatResourceMap } from '../../src/document/resource-report.ts';
import { buildResourceMap } from '../../src/document/resources.ts';
import type { Logger } from '../../src/log/logger.ts';
import { startMockServer } from '../../src/mock/server.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import { send } from '../helpers/engine.ts';
import { runCommands } from '../cli/run-commands.ts';

const DOCUMENT = resolve('test/documents/nested-state.yaml');
const specOnce = loadSpec(DOCUMENT);

describe('the resource map', () => {
  it('describes each collection as plain data: parents, item path, key, envelope, paging, encodings, field mapping', async () => {
    const spec = await specOnce;
    const { resources } = buildResourceMap(listOperations(spec), spec.document);
    expect(JSON.parse(JSON.stringify(resources))).toEqual(resources);
    const calls = resources.find((r) => r.collection === '/Accounts/{AccountSid}/Calls');
    expect(calls).toMatchObject({
      kept: true,
      parents: ['AccountSid'],
      itemPath: '/Accounts/{AccountSid}/Calls/{Sid}.json',
      keyField: 'sid',
      keySource: 'named by {Sid}',
      listEnvelope: { items: 'calls', next: 'meta.next_page_url', limit: 'meta.page_size', page: 'meta.page' },
      paging: { limit: 'PageSize', page: 'Page', firstPage: 0 },
      encodings: ['application/x-www-form-urlencoded'],
      fieldMap: { To: 'to', FriendlyName: 'friendly_name', Timeout: 'timeout' },
      parentFields: ['account_sid'],
      operations: {
        create: ['createCall'],
        list: ['listCalls'],
        read: ['fetchCall'],
        merge: ['updateCall'],
        remove: ['deleteCall'],
      },
    });
    expect(resources.find((r) => r.collection === '/me/albums')).toMatchObject({
      kept: false,
      why: 'answered from the document: no create (a POST of an object on /me/albums)',
    });
  });

  it('takes a POST that answers an item with a list among its fields as a create, and one that answers a page as a search', async () => {
    const spec = await loadSpec(resolve('test/documents/creates-and-searches.yaml'));
    const { resources } = buildResourceMap(listOperations(spec), spec.document);
    expect(resources.find((r) => r.collection === '/appointments')).toMatchObject({
      kept: true,
      operations: { create: ['bookAppointment'], read: ['getAppointment'] },
    });
    expect(resources.find((r) => r.collection === '/searches')?.kept).not.toBe(true);
    expect(resources.find((r) => r.collection === '/trees')).toMatchObject({ kept: true, keyField: 'sha' });
    expect(resources.find((r) => r.collection === '/issues/{number}/assignees')?.kept).not.toBe(true);
    const engine = createMockEngine({ spec });
    const created = await send(engine, { method: 'POST', path: '/appointments', json: { email: 'a@example.com' } });
    const { id } = created.json as { id: string };
    const read = await send(engine, { method: 'GET', path: `/appointments/${id}`, body: '' });
    expect(read).toMatchObject({ status: 200, json: { id, email: 'a@example.com' } });
  });

  it("finds a list wrapped in the last word of its collection's name, or in an array ending in that name", async () => {
    const spec = await loadSpec(resolve('test/documents/creates-and-searches.yaml'));
    const { resources } = buildResourceMap(listOperations(spec), spec.document);
    expect(resources.find((r) => r.collection === '/copilot-spaces')?.listEnvelope).toEqual({ items: 'spaces' });
    expect(resources.find((r) => r.collection === '/renders')).toMatchObject({
      kept: false,
      listEnvelope: { items: 'audio_renders' },
    });
    const engine = createMockEngine({ spec });
    expect((await send(engine, { method: 'POST', path: '/copilot-spaces', json: { name: 'Docs' } })).status).toBe(201);
    const listed = await send(engine, { method: 'GET', path: '/copilot-spaces', body: '' });
    expect((listed.json as { spaces: Array<{ name: string }> }).spaces.map((space) => space.name)).toEqual(['Docs']);
  });

  it('is said at start-up, one line per collection, and in /__mock/health in the same words', async () => {
    const info: string[] = [];
    const logger: Logger = { request() {}, info: (m) => void info.push(m), warn() {}, error() {}, flush() {} };
    const server = await startMockServer({ spec: DOCUMENT, port: 0, logger });
    const engine = server.engine;
    await server.close();
    expect(info.filter((line) => line.startsWith('state: '))).toEqual([
      'state: /users/{user_id}/playlists: kept per {user_id}, key id (named by {playlist_id}), list wrapped in "items", paged by limit/offset',
      'state: /Accounts/{AccountSid}/Calls: kept per {AccountSid}, key sid (named by {Sid}), list wrapped in "calls", paged by Page/PageSize',
      'state: /customers: kept, key id (a conventional key name, read from {customer}), list wrapped in "data", paged by cursor starting_after/ending_before',
      'state: /uploads: kept, key id (named by {id})',
      'state: /me/albums: answered from the document: no create (a POST of an object on /me/albums)',
    ]);
    const health = await send(engine, { method: 'GET', path: '/__mock/health', body: '' });
    expect((health.json as { collections: Record<string, string> }).collections).toMatchObject({
      '/uploads': 'kept, key id (named by {id})',
      '/me/albums': 'answered from the document: no create (a POST of an object on /me/albums)',
    });
  });

  it('is listed by spec --check and printed whole by spec --resources', async () => {
    expect(checkSpec(await specOnce).collections).toContain('/uploads: kept, key id (named by {id})');
    const run = await runCommands(['spec', '--resources', '--spec', DOCUMENT]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      formatResourceMap(buildResourceMap(listOperations(await specOnce), (await specOnce).document).resources),
    );
    expect(run.stdout).toContain('  fields:      To -> to, FriendlyName -> friendly_name, Timeout -> timeout\n');
  });
});
