// `plantstore proxy` on the command line: it starts, says where, forwards, logs one line per
// exchange without the token, records, stops on SIGINT with 0; a bad --upstream is a usage error.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startPlantServer, type PlantServer } from '../fixtures-servers/plant-server.ts';
import { BIN, runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const TOKEN = 'cli-proxy-token-secret';
let upstream: PlantServer | undefined;
afterEach(async () => {
  await upstream?.close();
});

it('forwards, logs without the token, records, and stops on SIGINT with 0', async () => {
  upstream = await startPlantServer();
  const dir = tempDir('plantstore-cli-record-');
  const child = spawn(process.execPath, [BIN, 'proxy', '--upstream', upstream.url, '--port', '0', '--record', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const found = /plantstore proxy: (http:\/\/\S+)/.exec(stderr)?.[1];
      if (found) resolve(found);
    });
    child.on('exit', () => reject(new Error(`proxy exited: ${stderr}`)));
  });
  const response = await fetch(`${url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: '{"id": 1, "name": "Fern"}',
  });
  expect([response.status, response.headers.get('plantstore-source')]).toEqual([200, 'upstream']);
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  child.kill('SIGINT');
  expect(await exited).toBe(0);
  expect(stderr).toMatch(/POST \/plants 200/);
  expect(stderr).not.toContain(TOKEN);
  const files = readdirSync(dir);
  expect(files).toEqual(['0001-createPlant.yaml']);
  expect(readFileSync(join(dir, files[0]), 'utf8')).toContain('authorization: Bearer {{token}}');
});

it('refuses an --upstream that is not a URL with exit 2 and what it wants', async () => {
  const { code, stderr } = await runCli(['proxy', '--upstream', 'localhost:8080', '--port', '0']);
  expect(code).toBe(2);
  expect(stderr).toContain('--upstream must be an http(s) URL');
  expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
});
