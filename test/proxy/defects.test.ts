// The proxy in front of the independent Plant Store server: the correct one passes with no
// violations; each server with one defect in its answers is reported in the Plantstore-Violations
// header and the journal, and with --errors becomes a 502 in the document's error shape.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.ts';
import { startProxyServer, type ProxyServer } from '../../src/proxy/proxy-server.ts';
import { startPlantServer, type Defect, type PlantServer } from '../fixtures-servers/plant-server.ts';

const TOKEN = 'proxy-test-token-123';
const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
let nextId = 1000;
const create = (url: string, body: unknown = { id: nextId++, name: 'Fern' }) =>
  fetch(`${url}/plants`, {
    method: 'POST',
    headers: auth,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    redirect: 'manual',
  });
// Admin answers are plain JSON outside the document, read loosely here.
const admin = async (url: string): Promise<any> => (await fetch(url)).json();
const violationsOf = (response: Response) =>
  JSON.parse(response.headers.get('plantstore-violations') ?? '[]') as Array<{
    where: string;
    code: string;
    pointer: string;
    message: string;
  }>;

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});
async function proxyFor(
  defect: Defect | undefined,
  errors = false,
): Promise<{ upstream: PlantServer; proxy: ProxyServer }> {
  const upstream = await startPlantServer(defect);
  const proxy = await startProxyServer({ upstream: upstream.url, port: 0, errors, timeoutMs: 1000 });
  running.push(proxy, upstream);
  return { upstream, proxy };
}

describe('in front of a correct server', () => {
  let upstream: PlantServer;
  let proxy: ProxyServer;
  beforeAll(async () => {
    upstream = await startPlantServer();
    proxy = await startProxyServer({ upstream: upstream.url, port: 0 });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  it('passes the answer on with no violations, the credentials forwarded', async () => {
    const response = await create(proxy.url, '{"id": 9007199254740993, "name": "Fern", "tag": "green"}');
    expect(response.status).toBe(200);
    expect(response.headers.get('plantstore-violations')).toBeNull();
    expect(response.headers.get('plantstore-source')).toBe('upstream');
    expect(await response.json()).toEqual({ name: 'Fern', tag: 'green' });
    expect(upstream.authorizations.at(-1)).toBe(`Bearer ${TOKEN}`);
    const summary = await admin(`${proxy.url}/__mock/violations`);
    expect(summary).toMatchObject({ exchanges: 1, exchangesWithViolations: 0, total: 0, byOperation: {} });
  });

  it("reports an invalid request on the request side, and the correct server's 400 passes", async () => {
    const response = await create(proxy.url, { id: 'seven', name: 'Fern' });
    expect(response.status).toBe(400);
    expect(violationsOf(response)).toEqual([
      {
        where: 'request',
        code: 'wrong-field-type',
        pointer: '/id',
        message: expect.stringContaining('must be integer'),
      },
    ]);
    const { requests } = await admin(`${proxy.url}/__mock/requests?limit=1`);
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/plants',
      status: 400,
      operationId: 'createPlant',
      source: 'upstream',
      violations: [{ where: 'request', code: 'wrong-field-type' }],
    });
    expect(JSON.stringify(requests)).not.toContain(TOKEN);
  });
});

// Each defect of an answer: the request that brings it out, and the violation code it gives.
const ANSWER_DEFECTS: Array<[Defect, string, string?]> = [
  ['wrong-status', 'undeclared-status'],
  ['missing-required-field', 'missing-required-field'],
  ['wrong-field-type', 'wrong-field-type'],
  ['wrong-content-type', 'undeclared-content-type'],
  ['non-json-body', 'body-not-json'],
  ['html-answer', 'undeclared-content-type'],
  ['redirect', 'undeclared-status'],
  ['undeclared-status', 'undeclared-status', '{"id": 1}'],
  ['server-error-on-bad-input', 'undeclared-status', '{"id": '],
];

describe.each(ANSWER_DEFECTS)('in front of a server with the defect %s', (defect, code, body) => {
  it(`reports ${code} in the header and the journal`, async () => {
    const { proxy } = await proxyFor(defect);
    const response = await create(proxy.url, body);
    expect(response.status).toBeLessThan(600);
    expect(response.status).not.toBe(502);
    const answerSide = violationsOf(response).filter((v) => v.where === 'response');
    expect(answerSide.map((v) => v.code)).toContain(code);
    const { requests } = await admin(`${proxy.url}/__mock/requests`);
    expect(requests.at(-1).violations.map((v: { code: string }) => v.code)).toContain(code);
    const summary = await admin(`${proxy.url}/__mock/violations`);
    expect(summary.byOperation.createPlant[`response/${code}`]).toBe(1);
  });

  it('becomes a 502 in the error shape with --errors', async () => {
    const { proxy } = await proxyFor(defect, true);
    const response = await create(proxy.url, body);
    if (body !== undefined) {
      // An invalid request is refused by the proxy itself: the defect is never reached.
      expect(response.status).toBe(400);
      expect(violationsOf(response)[0].where).toBe('request');
      return;
    }
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('application/json');
    const error = await response.json();
    expect(error).toEqual({ error: 502, message: expect.stringContaining(code) });
    expect(violationsOf(response).map((v) => v.code)).toContain(code);
  });
});

describe('when the upstream fails', () => {
  it('answers 504 in the error shape when the upstream hangs', async () => {
    const { proxy } = await proxyFor('hang');
    const response = await create(proxy.url);
    expect(response.status).toBe(504);
    expect(await response.json()).toEqual({
      error: 504,
      message: expect.stringContaining('no complete answer within 1000 ms'),
    });
  });

  it('answers 502 when the upstream resets the connection', async () => {
    const { proxy } = await proxyFor('connection-reset');
    const response = await create(proxy.url);
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: 502, message: expect.stringContaining('closed or reset') });
  });

  /** A create through a proxy whose upstream is gone: the answer, and the proxy's whole log. */
  async function throughDownUpstream(quiet: boolean): Promise<{ status: number; body: string; log: string }> {
    const upstream = await startPlantServer();
    await upstream.close();
    const lines: string[] = [];
    const logger = createLogger({ format: 'text', quiet, stream: { write: (chunk: string) => lines.push(chunk) } });
    const proxy = await startProxyServer({ upstream: upstream.url, port: 0, logger });
    running.push(proxy);
    const response = await create(proxy.url);
    const body = await response.text();
    await proxy.close();
    return { status: response.status, body, log: lines.join('') };
  }

  it('answers 502 when the upstream is down, with one log line that holds no token', async () => {
    const { status, body, log } = await throughDownUpstream(false);
    expect(status).toBe(502);
    expect(JSON.parse(body)).toEqual({
      error: 502,
      message: expect.stringContaining('connection refused'),
    });
    expect(log.trim().split('\n')).toHaveLength(1);
    expect(log).toMatch(/POST \/plants 502 .*connection refused/);
    expect(log).not.toContain(TOKEN);
  });

  it('says that the upstream is down with --quiet too, in one warning line', async () => {
    const { status, log } = await throughDownUpstream(true);
    expect(status).toBe(502);
    expect(log.trim().split('\n')).toEqual([expect.stringMatching(/^warning: POST \/plants 502 .*connection refused/)]);
  });

  it('passes an answer over the size limit through unvalidated, with a warning in the journal', async () => {
    const upstream = await startPlantServer('oversized-body');
    const proxy = await startProxyServer({ upstream: upstream.url, port: 0, maxBodyBytes: 64 * 1024 });
    running.push(proxy, upstream);
    const response = await create(proxy.url);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.length).toBeGreaterThan(2 * 1024 * 1024);
    expect(JSON.parse(text).name).toBe('Fern');
    const { requests } = await admin(`${proxy.url}/__mock/requests`);
    expect(requests.at(-1).problems).toEqual([expect.stringContaining('passed through unvalidated')]);
  });
});
