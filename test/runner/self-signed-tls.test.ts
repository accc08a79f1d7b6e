// --ca: an HTTPS server with a self-signed certificate fails the TLS handshake unless its
// certificate is trusted with --ca FILE.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { verify } from '../../src/runner/index.ts';
import { startPlantServer, type PlantServer } from '../fixtures-servers/plant-server.ts';

const CERT = 'test/fixtures-servers/tls/localhost-cert.pem';
let server: PlantServer;
beforeAll(async () => {
  server = await startPlantServer(undefined, {
    tls: { key: readFileSync('test/fixtures-servers/tls/localhost-key.pem', 'utf8'), cert: readFileSync(CERT, 'utf8') },
  });
});
afterAll(() => server.close());

it('refuses a self-signed HTTPS server before any case, with the TLS error and a hint, without --ca', async () => {
  const run = verify({ target: server.url, token: 'tls-token', filter: ['with a tag'] });
  await expect(run).rejects.toMatchObject({
    code: 'TARGET_UNREACHABLE',
    message: expect.stringContaining('TLS handshake failed'),
  });
  await expect(run).rejects.toThrow('--ca');
});

it('passes it when --ca trusts the certificate', async () => {
  const report = await verify({ target: server.url, token: 'tls-token', ca: CERT, filter: ['creates a plant'] });
  expect(report.outcome).toBe('passed');
});
