// --mock-missing in front of a server that implements only the create of the grown Plant Store:
// list, read and delete come from the stateful mock, which also sees the plants the upstream made.
import { afterEach, expect, it } from 'vitest';
import { startProxyServer } from '../../src/proxy/proxy-server.ts';
import { startPlantServer } from '../fixtures-servers/plant-server.ts';

const GROWN = 'test/documents/plant-store-grown.yaml';
const headers = { authorization: 'Bearer mock-missing-token', 'content-type': 'application/json' };

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

it("serves list, read and delete from the mock, with the upstream's creates in its state", async () => {
  const upstream = await startPlantServer();
  const proxy = await startProxyServer({ upstream: upstream.url, spec: GROWN, port: 0, mockMissing: true });
  running.push(proxy, upstream);
  const created = await fetch(`${proxy.url}/plants`, {
    method: 'POST',
    headers,
    body: '{"id": 9007199254740993, "name": "Fern", "tag": "green"}',
  });
  expect([created.status, created.headers.get('plantstore-source')]).toEqual([200, 'upstream']);
  expect(upstream.authorizations).toHaveLength(1);

  const list = await fetch(`${proxy.url}/plants`, { headers });
  expect([list.status, list.headers.get('plantstore-source')]).toEqual([200, 'mock']);
  expect(await list.json()).toEqual([{ name: 'Fern', tag: 'green' }]);

  const read = await fetch(`${proxy.url}/plants/9007199254740993`, { headers });
  expect([read.status, read.headers.get('plantstore-source')]).toEqual([200, 'mock']);
  expect(await read.json()).toMatchObject({ name: 'Fern', tag: 'green' });

  const removed = await fetch(`${proxy.url}/plants/9007199254740993`, { method: 'DELETE', headers });
  expect([removed.status, removed.headers.get('plantstore-source')]).toEqual([204, 'mock']);
  const gone = await fetch(`${proxy.url}/plants/9007199254740993`, { headers });
  expect([gone.status, gone.headers.get('plantstore-source')]).toEqual([404, 'mock']);
  // Each was tried on the upstream first (it answered 405 or 404).
  expect(upstream.authorizations).toHaveLength(5);
  const { requests } = (await (await fetch(`${proxy.url}/__mock/requests`)).json()) as {
    requests: Array<{ source: string; problems?: string[] }>;
  };
  expect(requests.map((r) => r.source)).toEqual(['upstream', 'mock', 'mock', 'mock', 'mock']);
  expect(requests[1].problems).toEqual(['the upstream answered 405; answered by the mock (--mock-missing)']);
});

it('answers every documented operation from the mock while the upstream refuses connections', async () => {
  const upstream = await startPlantServer();
  await upstream.close();
  const proxy = await startProxyServer({ upstream: upstream.url, spec: GROWN, port: 0, mockMissing: true });
  running.push(proxy);
  const created = await fetch(`${proxy.url}/plants`, { method: 'POST', headers, body: '{"id": 12, "name": "Ivy"}' });
  expect([created.status, created.headers.get('plantstore-source')]).toEqual([200, 'mock']);
  const read = await fetch(`${proxy.url}/plants/12`, { headers });
  expect([read.status, read.headers.get('plantstore-source')]).toEqual([200, 'mock']);
  // A path the document does not declare has no mock answer: the upstream's failure stands.
  const undocumented = await fetch(`${proxy.url}/elsewhere`, { headers });
  expect(undocumented.status).toBe(502);
});
