// The /__mock/ page's routes without a browser: who gets it (as protected as the admin API), that
// scripts still get the JSON admin API, --no-admin leaving it out, the switches endpoint, and the
// proxy's page.
import { afterEach, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { startProxyServer } from '../../src/proxy/proxy-server.ts';
import { startPlantServer } from '../fixtures-servers/plant-server.ts';

const DOC = 'test/documents/unhappy-path.yaml';
const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});
const start = async (options: Parameters<typeof startMockServer>[0] = {}): Promise<MockServer> => {
  const server = await startMockServer({ spec: DOC, port: 0, ...options });
  running.push(server);
  return server;
};
const get = async (url: string, headers: Record<string, string> = {}) => {
  const answer = await request(url, { headers });
  return {
    status: answer.statusCode,
    type: String(answer.headers['content-type']),
    csp: answer.headers['content-security-policy'],
    text: await answer.body.text(),
  };
};
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('the /__mock/ page', () => {
  it('is one self-contained page for a browser, and the endpoint list for a script', async () => {
    const server = await start();
    const page = await get(`${server.url}/__mock/`, HTML);
    expect(page).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(page.csp).toContain("default-src 'self'");
    // No build step, no CDN: nothing is loaded from another origin.
    expect(page.text).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet|https?:\/\//);
    const json = await get(`${server.url}/__mock/`);
    expect(json.type).toBe('application/json');
    expect(JSON.parse(json.text)).toHaveProperty('endpoints');
  });

  it('asks for the admin token where the admin API does, and shows nothing of the mock without it', async () => {
    const server = await start({ adminToken: 'admin-secret-1' });
    const locked = await get(`${server.url}/__mock/`, HTML);
    expect(locked.status).toBe(401);
    expect(locked.text).toContain('needs its admin token');
    expect(locked.text).not.toContain('Recent requests');
    expect((await get(`${server.url}/__mock/switches`)).status).toBe(401);
    const open = await get(`${server.url}/__mock/`, { ...HTML, authorization: 'Bearer admin-secret-1' });
    expect(open.status).toBe(200);
    expect(open.text).toContain('Recent requests');
    expect((await get(`${server.url}/__mock/switches`, { authorization: 'Bearer admin-secret-1' })).status).toBe(200);
  });

  it('is left out with --no-admin, as the admin API is', async () => {
    const server = await start({ admin: false });
    const answer = await get(`${server.url}/__mock/`, HTML);
    expect(answer.status).toBe(404);
    expect(answer.text).toContain('no operation at /__mock/');
    expect((await get(`${server.url}/__mock/switches`)).status).toBe(404);
  });

  it('sets switches through PUT /__mock/switches and refuses what it cannot read', async () => {
    const server = await start();
    const put = async (body: string) => {
      const answer = await request(`${server.url}/__mock/switches`, {
        method: 'PUT',
        body,
        headers: { 'content-type': 'application/json' },
      });
      return {
        status: answer.statusCode,
        json: (await answer.body.json()) as {
          message?: string;
          operations?: Array<{ operation: string; switch: unknown }>;
        },
      };
    };
    const set = await put('{"GET /plants": {"latency": "3g", "fault": "429"}}');
    expect(set.status).toBe(200);
    expect(set.json.operations?.find((op) => op.operation === 'GET /plants')?.switch).toEqual({
      latency: '3g',
      fault: 429,
    });
    expect((await put('{"GET /nowhere": {"latency": 5}}')).json.message).toContain('no operation GET /nowhere');
    expect((await put('{"GET /plants": {"fault": "500"}}')).json.message).toContain(
      'nor a status it declares (429, 503)',
    );
    expect((await put('{"GET /plants": {"latency": "soon"}}')).json.message).toContain('"soon" is not a delay');
    expect((await put('[1]')).status).toBe(400);
  });

  it('answers a switched 429 with the Retry-After a client waits for', async () => {
    const server = await start();
    await request(`${server.url}/__mock/switches`, { method: 'PUT', body: '{"GET /plants": {"fault": 429}}' });
    const answer = await request(`${server.url}/plants`);
    expect(answer.statusCode).toBe(429);
    expect(answer.headers['retry-after']).toBe('1');
    await answer.body.dump();
  });

  it('is served by the proxy too, whose violations it lists by operation', async () => {
    const upstream = await startPlantServer();
    const proxy = await startProxyServer({ upstream: upstream.url, port: 0 });
    running.push(proxy, upstream);
    const page = await get(`${proxy.url}/__mock/`, HTML);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Contract violations by operation');
    expect((await get(`${proxy.url}/__mock/violations`)).status).toBe(200);
  });
});
