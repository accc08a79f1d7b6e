// The admin API reads, seeds and wipes state: open on loopback, locked beyond it unless a token is
// given, and never naming the token anywhere.
import { describe, expect, it } from 'vitest';
import { isLoopback } from '../../src/mock/admin/admin-access.ts';
import { plantEngine, send } from '../helpers/engine.ts';
import { startCliMock } from '../helpers/cli.ts';

/** Resolves once the mock's stderr holds `text` (the banner's lines may come in two writes). */
function bannerLine(mock: Awaited<ReturnType<typeof startCliMock>>, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (mock.stderr().includes(text)) return resolve();
    const check = () => {
      if (!mock.stderr().includes(text)) return;
      mock.child.stderr?.off('data', check);
      resolve();
    };
    // startCliMock's own listener runs first and has appended the chunk by the time this one runs.
    mock.child.stderr?.on('data', check);
  });
}

const ADMIN_TOKEN = 'admin-canary-51c0e9d2';
const state = (authorization?: string) => ({
  method: 'GET',
  path: '/__mock/state',
  headers: authorization === undefined ? {} : { authorization },
});

describe('the admin API', () => {
  it.each([['127.0.0.1'], ['127.1.2.3'], ['localhost'], ['::1'], ['[::1]']])(
    'is open without a token on the loopback address %s',
    async (host) => {
      expect(isLoopback(host)).toBe(true);
      const engine = await plantEngine({ host });
      expect((await send(engine, state())).status).toBe(200);
    },
  );

  it.each([['0.0.0.0'], ['::'], ['192.168.1.20'], ['example.test']])(
    'answers 401 without a token when the mock listens on %s',
    async (host) => {
      const engine = await plantEngine({ host });
      for (const call of [
        state(),
        { method: 'DELETE', path: '/__mock/state', headers: {} },
        { method: 'POST', path: '/__mock/state', headers: {}, json: { '/plants': [{ id: 1, name: 'x' }] } },
      ]) {
        const answer = await send(engine, call);
        expect(answer.status).toBe(401);
        expect(answer.headers['www-authenticate']).toBe('Bearer realm="plantstore-admin"');
        expect(answer.json).toMatchObject({ error: 401, message: expect.stringContaining('--admin-token') });
      }
      expect(engine.store.list('/plants')).toEqual([]);
    },
  );

  it('asks for the admin token, wherever it listens, once one is given', async () => {
    for (const host of ['127.0.0.1', '0.0.0.0']) {
      const engine = await plantEngine({ host, adminToken: ADMIN_TOKEN });
      expect((await send(engine, state())).status).toBe(401);
      expect((await send(engine, state('Bearer not-the-token'))).status).toBe(401);
      expect((await send(engine, state(`Bearer ${ADMIN_TOKEN}x`))).status).toBe(401);
      expect((await send(engine, state(`Bearer ${ADMIN_TOKEN}`))).status).toBe(200);
      expect((await send(engine, state(`bearer ${ADMIN_TOKEN}`))).status).toBe(200);
    }
  });

  it("is gone with admin: false: /__mock/ paths are routed like any other (404 in the document's error shape)", async () => {
    const engine = await plantEngine({ admin: false });
    const answer = await send(engine, state());
    expect(answer.status).toBe(404);
    expect(answer.json).toMatchObject({
      error: 404,
      message: expect.stringContaining('no operation at /__mock/state'),
    });
  });

  it('never shows the admin token: not in the banner, the log or the journal', async () => {
    const mock = await startCliMock(['--host', '0.0.0.0'], process.execPath, { PLANTSTORE_ADMIN_TOKEN: ADMIN_TOKEN });
    try {
      const base = mock.url.replace('0.0.0.0', '127.0.0.1');
      expect((await fetch(`${base}/__mock/state`)).status).toBe(401);
      const ok = await fetch(`${base}/__mock/requests`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).not.toContain(ADMIN_TOKEN);
      await bannerLine(mock, 'admin API:');
      expect(mock.stderr()).toContain('send the admin token as a bearer token');
      expect(mock.stderr()).not.toContain(ADMIN_TOKEN);
    } finally {
      mock.child.kill('SIGTERM');
      await new Promise((resolve) => mock.child.once('exit', resolve));
    }
    expect(mock.stderr()).not.toContain(ADMIN_TOKEN);
  });

  it('says at start-up that the admin API is locked when it listens beyond loopback without a token', async () => {
    const mock = await startCliMock(['--host', '0.0.0.0'], process.execPath, { PLANTSTORE_ADMIN_TOKEN: '' });
    try {
      await bannerLine(mock, 'admin API:');
      expect(mock.stderr()).toContain('admin API: locked, since the mock listens on 0.0.0.0');
    } finally {
      mock.child.kill('SIGTERM');
      await new Promise((resolve) => mock.child.once('exit', resolve));
    }
  });
});

describe("the proxy's admin API", () => {
  it('is locked beyond loopback without an admin token, and asks for the token once one is given', async () => {
    const { startProxyServer } = await import('../../src/proxy/proxy-server.ts');
    // The upstream is never reached: only admin calls are made.
    const locked = await startProxyServer({ upstream: 'http://127.0.0.1:9', host: '0.0.0.0', port: 0 });
    const open = await startProxyServer({
      upstream: 'http://127.0.0.1:9',
      host: '0.0.0.0',
      port: 0,
      adminToken: ADMIN_TOKEN,
    });
    try {
      for (const path of ['/__mock/requests', '/__mock/violations', '/__mock/state']) {
        expect((await fetch(`http://127.0.0.1:${locked.port}${path}`)).status).toBe(401);
        expect((await fetch(`http://127.0.0.1:${open.port}${path}`)).status).toBe(401);
        expect(
          (await fetch(`http://127.0.0.1:${open.port}${path}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }))
            .status,
        ).toBe(200);
      }
    } finally {
      await locked.close();
      await open.close();
    }
  });
});
