// `plantstore msw` writes a module that answers as the mock, with no document file and no Prism.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { CANARY } from '../helpers/engine.ts';

describe('plantstore msw', () => {
  it('writes the module and its types; the module answers the grown store, forced answers included', async () => {
    const dir = tempDir('plantstore-msw-');
    const out = join(dir, 'mocks', 'plantstore.js');
    const { code, stderr } = await runCli([
      'msw',
      '--spec',
      'test/documents/plant-store-grown.yaml',
      '--out',
      out,
      '--import-from',
      resolve('src/msw/index.ts'),
    ]);
    expect(stderr).toMatch(/^plantstore: wrote .*plantstore\.js \(\d+ KB\) and its \.d\.ts\n$/);
    expect(code).toBe(0);
    expect(readFileSync(join(dir, 'mocks', 'plantstore.d.ts'), 'utf8')).toContain(
      'export declare function createHandlers(',
    );
    const module = (await import(/* @vite-ignore */ pathToFileURL(out).href)) as {
      createHandlers(options?: object): Promise<Array<Parameters<typeof setupServer>[0]>>;
    };
    const handlers = await module.createHandlers({ baseUrl: '/api' });
    const server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const headers = { authorization: `Bearer ${CANARY}`, 'content-type': 'application/json' };
      const created = await fetch('http://app.test/api/plants', {
        method: 'POST',
        headers,
        body: '{"id": 12, "name": "Fern"}',
      });
      expect(created.status).toBe(200);
      const read = await fetch('http://app.test/api/plants/12', { headers });
      expect(read.status).toBe(200);
      expect(await read.json()).toEqual({ name: 'Fern' }); // the grown store's Plant has no id
      // Forced answers come from the module's table of Prism's choices.
      const forced = await fetch('http://app.test/api/plants/12', { headers: { ...headers, prefer: 'code=404' } });
      expect(forced.status).toBe(404);
      const undeclared = await fetch('http://app.test/api/plants/12', { headers: { ...headers, prefer: 'code=418' } });
      expect(undeclared.status).toBe(400);
      expect(await undeclared.text()).toMatch(
        /cannot force that response: GET \/plants\/\{id\} declares no 418 response/,
      );
    } finally {
      server.close();
    }
  });

  it('refuses an --out that is not a JavaScript file', async () => {
    const { code, stderr } = await runCli(['msw', '--out', 'mocks/plantstore.ts']);
    expect(code).toBe(2);
    expect(stderr).toContain('--out must name a .js or .mjs file, got mocks/plantstore.ts');
  });
});
