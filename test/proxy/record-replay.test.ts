// --record DIR writes each exchange as a fixture that `verify --fixtures DIR` replays: green
// against a fresh correct server, red against one that skips validation or forgets deletes.
// Credentials become {{token}}, keys creates send become run-unique, int64 stays exact; a recording
// made against a faulty upstream expects what the contract says, and replays twice in a row.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/mock/server.ts';
import { startProxyServer } from '../../src/proxy/proxy-server.ts';
import { verify } from '../../src/runner/index.ts';
import { startCrudPlantServer, type CrudDefect } from '../fixtures-servers/crud-plant-server.ts';
import { startPlantServer, type Defect } from '../fixtures-servers/plant-server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const GROWN = 'test/documents/plant-store-grown.yaml';
const TOKEN = 'recording-secret-token-42';
const REPLAY_TOKEN = 'another-token';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

// The header comment names the upstream's port and the time, whose digits may hold any literal:
// the literals are looked for in what the recording replays.
const readAll = (dir: string) =>
  readdirSync(dir)
    .sort()
    .map((name) => readFileSync(join(dir, name), 'utf8'));
const withoutHeader = (text: string) =>
  text
    .split('\n')
    .filter((line) => !/^# (Recorded by|Replay:) /.test(line))
    .join('\n');

describe('a recording of the one-operation Plant Store', () => {
  async function record(): Promise<string> {
    const dir = tempDir('plantstore-record-');
    const upstream = await startPlantServer();
    const proxy = await startProxyServer({ upstream: upstream.url, port: 0, record: dir });
    running.push(proxy, upstream);
    const post = (body: string) => fetch(`${proxy.url}/plants`, { method: 'POST', headers, body });
    // The token is in the body too: a recording hides it wherever it is.
    expect((await post(`{"id": 9223372036854775807, "name": "Big", "tag": "${TOKEN}"}`)).status).toBe(200);
    expect((await post('{"id": 5551, "name": "Fern"}')).status).toBe(200);
    expect((await post('{"id": 5551, "name": "Fern again"}')).status).toBe(400); // a duplicate
    expect((await post('{"name": "no id"}')).status).toBe(400);
    expect(
      (
        await fetch(`${proxy.url}/plants`, {
          method: 'POST',
          body: '{"id": 3, "name": "x"}',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(401);
    return dir;
  }

  async function replay(dir: string, defect?: Defect) {
    const server = await startPlantServer(defect);
    running.push(server);
    return verify({ target: server.url, token: REPLAY_TOKEN, fixtures: [dir] });
  }

  it('holds no credential, {{token}} instead, and int64 keys exact', async () => {
    const dir = await record();
    const files = readAll(dir);
    const text = files.join('\n');
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('Bearer {{token}}');
    expect(text).toContain('tag: "{{token}}"');
    expect(text).toContain('9223372036854775807');
    // The duplicate refers to the key the create before it made: one fixture of two steps.
    expect(files).toHaveLength(4);
    const duplicate = files.find((file) => file.includes('Fern again'))!;
    expect(duplicate.match(/id: "\{\{uniqueId\}\}"/g)).toHaveLength(2);
    expect(duplicate).toMatch(/status: 200[\s\S]*status: 400/);
  });

  it('replays green against a fresh correct server', async () => {
    const dir = await record();
    const report = await replay(dir);
    expect(report.cases.map((c) => [c.name, c.status])).toEqual(report.cases.map((c) => [c.name, 'passed']));
    expect(report.outcome).toBe('passed');
  });

  it('replays red against a server that skips validation', async () => {
    const dir = await record();
    const report = await replay(dir, 'validation-not-enforced');
    expect(report.outcome).toBe('failed');
    const failed = report.cases.filter((c) => c.status === 'failed');
    expect(failed.map((c) => c.name)).toEqual([expect.stringContaining('createPlant')]);
  });
});

describe('a recording of create, read, delete on the grown Plant Store', () => {
  async function record(): Promise<string> {
    const dir = tempDir('plantstore-record-');
    const upstream = await startCrudPlantServer();
    const proxy = await startProxyServer({ upstream: upstream.url, spec: GROWN, port: 0, record: dir });
    running.push(proxy, upstream);
    expect(
      (await fetch(`${proxy.url}/plants`, { method: 'POST', headers, body: '{"id": 7001, "name": "Fern"}' })).status,
    ).toBe(200);
    expect((await fetch(`${proxy.url}/plants/7001`, { headers })).status).toBe(200);
    expect((await fetch(`${proxy.url}/plants?limit=5`, { headers })).status).toBe(200);
    expect((await fetch(`${proxy.url}/plants/7001`, { method: 'DELETE', headers })).status).toBe(204);
    expect((await fetch(`${proxy.url}/plants/7001`, { headers })).status).toBe(404);
    return dir;
  }

  async function replay(dir: string, defect?: CrudDefect) {
    const server = await startCrudPlantServer({ defect });
    running.push(server);
    return verify({ target: server.url, token: REPLAY_TOKEN, spec: GROWN, fixtures: [dir] });
  }

  it('puts the steps that use the created key in its fixture, the key as {{uniqueId}}', async () => {
    const dir = await record();
    const files = readAll(dir);
    expect(files).toHaveLength(2); // the create with its read, delete and read; the list alone
    const sequence = files.find((file) => file.includes('steps:'))!;
    expect(sequence.match(/path: \/plants\/\{\{uniqueId\}\}/g)).toHaveLength(3);
    expect(withoutHeader(sequence)).not.toContain('7001');
    expect(files.find((file) => !file.includes('steps:'))).toContain('limit: "5"');
  });

  it('replays green twice against a fresh correct server, and red against one that forgets deletes', async () => {
    const dir = await record();
    const server = await startCrudPlantServer();
    running.push(server);
    for (let run = 0; run < 2; run++)
      expect((await verify({ target: server.url, token: REPLAY_TOKEN, spec: GROWN, fixtures: [dir] })).outcome).toBe(
        'passed',
      );
    const report = await replay(dir, 'forgets-deletes');
    expect(report.outcome).toBe('failed');
  });
});

describe('a recording made against a correct and a faulty upstream', () => {
  /** The same client session through the proxy: creates, a duplicate, an invalid request, one without credentials. */
  async function session(defect?: Defect, options: { recordSkipViolations?: boolean } = {}): Promise<string> {
    const dir = tempDir('plantstore-record-');
    const upstream = await startPlantServer(defect);
    const proxy = await startProxyServer({ upstream: upstream.url, port: 0, record: dir, ...options });
    running.push(proxy, upstream);
    const post = (body: string, extra: Record<string, string> = headers) =>
      fetch(`${proxy.url}/plants`, { method: 'POST', headers: extra, body });
    await post('{"id": 9223372036854775807, "name": "Edge"}');
    await post('{"id": 555, "name": "Fern"}');
    await post('{"id": 556, "name": "Ivy", "tag": "climber"}');
    await post('{"id": 555, "name": "Fern again"}');
    await post('{"name": "no id"}');
    await post('{"id": "seven", "name": "wrong type"}');
    await post('{"id": 557, "name": "no token"}', { 'content-type': 'application/json' });
    return dir;
  }

  it('expects what the contract says where the upstream accepted an invalid request, with the violations as comments', async () => {
    const files = readAll(await session('validation-not-enforced'));
    const invalid = files.filter((file) => file.includes('no id') || file.includes('wrong type'));
    expect(invalid).toHaveLength(2);
    for (const file of invalid) {
      expect(file).toMatch(/^# Violations seen while recording:$/m);
      expect(file).toMatch(/^# - request \S+/m);
      expect(file).toContain('the upstream answered 200. A correct server answers 4xx.');
      expect(file).toMatch(/status: 4xx/);
    }
    expect(files.find((file) => file.includes('no id'))).toMatch(/^# - request missing-required-field \/id: /m);
  });

  it.each([
    ['a correct upstream', undefined],
    ['an upstream that skips validation', 'validation-not-enforced' as const],
    ['an upstream that answers creates with an undeclared 201', 'wrong-status' as const],
    ['an upstream whose answers lack a required field', 'missing-required-field' as const],
  ])('recorded against %s, replays green twice in a row against one fresh correct server', async (_, defect) => {
    const dir = await session(defect);
    const text = readAll(dir).join('\n');
    for (const id of ['555', '556']) expect(withoutHeader(text)).not.toContain(id);
    const server = await startPlantServer();
    running.push(server);
    for (let run = 1; run <= 2; run++) {
      const report = await verify({ target: server.url, token: REPLAY_TOKEN, fixtures: [dir] });
      expect(report.cases.map((c) => [run, c.name, c.status])).toEqual(
        report.cases.map((c) => [run, c.name, 'passed']),
      );
    }
  });

  it('leaves out every exchange with a violation under recordSkipViolations', async () => {
    const files = readAll(await session('validation-not-enforced', { recordSkipViolations: true }));
    const text = files.join('\n');
    expect(text).not.toContain('Violations seen');
    for (const left of ['no id', 'wrong type', 'no token']) expect(text).not.toContain(left);
    expect(files).toHaveLength(3); // the edge key, Fern with its duplicate, Ivy
  });
});

describe('a recording of the Swagger Petstore (swagger-api/swagger-petstore), with the mock as its upstream', () => {
  const PETSTORE = 'test/corpus/documents/swagger-petstore3/openapi.yaml';
  const auth = { authorization: `Bearer ${TOKEN}`, api_key: TOKEN, 'content-type': 'application/json' };

  async function record(): Promise<string> {
    const dir = tempDir('plantstore-record-');
    const upstream = await startMockServer({ port: 0, spec: PETSTORE });
    const proxy = await startProxyServer({ upstream: upstream.url, spec: PETSTORE, port: 0, record: dir });
    running.push(proxy, upstream);
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${proxy.url}${path}`, {
        method,
        headers: auth,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect(
      (await call('POST', '/pet', { id: 4242, name: 'doggie', photoUrls: ['x'], status: 'available' })).status,
    ).toBe(200);
    expect((await call('GET', '/pet/4242')).status).toBe(200);
    expect((await call('POST', '/store/order', { id: 777, petId: 4242, quantity: 1, status: 'placed' })).status).toBe(
      200,
    );
    expect((await call('GET', '/store/order/777')).status).toBe(200);
    expect((await call('POST', '/user', { id: 31, username: 'recorded-user', email: 'a@example.com' })).status).toBe(
      200,
    );
    await call('GET', '/user/recorded-user');
    return dir;
  }

  it('gives the order the pet it refers to in its body, and a username a later path names a run-unique value', async () => {
    const files = readAll(await record());
    expect(files).toHaveLength(2);
    const pet = files.find((file) => file.includes('addPet'))!;
    expect(pet).toMatch(/placeOrder[\s\S]*id: "\{\{uniqueId 2\}\}"\n\s+petId: "\{\{uniqueId\}\}"/);
    expect(pet).toContain('path: /store/order/{{uniqueId 2}}');
    const user = files.find((file) => file.includes('createUser'))!;
    // The user collection is keyed by {username}, the item path's own parameter: it is the key made run-unique.
    expect(user).toContain('username: user-{{uniqueId}}');
    expect(user).toContain('path: /user/user-{{uniqueId}}');
    for (const literal of ['4242', '777', 'recorded-user', TOKEN])
      expect(withoutHeader(files.join('\n'))).not.toContain(literal);
  });

  it('replays green twice in a row against one fresh mock', async () => {
    const dir = await record();
    const fresh = await startMockServer({ port: 0, spec: PETSTORE });
    running.push(fresh);
    for (let run = 1; run <= 2; run++) {
      const report = await verify({ target: fresh.url, token: REPLAY_TOKEN, spec: PETSTORE, fixtures: [dir] });
      expect(report.cases.map((c) => [run, c.name, c.status])).toEqual(
        report.cases.map((c) => [run, c.name, 'passed']),
      );
    }
  });
});
