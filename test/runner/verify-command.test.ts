// `plantstore verify` exit codes: 0 every case passed, 1 a case failed, 2 usage or configuration
// errors, 3 the server could not be reached or stopped answering.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { startPlantServer, type PlantServer } from '../fixtures-servers/plant-server.ts';
import { runCli } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

// The real `plantstore` command, as a CI pipeline runs it.
const run = (args: string[], env: Record<string, string> = {}) => runCli(['verify', ...args], { env });

let mock: MockServer;
let broken: PlantServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
  broken = await startPlantServer('duplicate-accepted');
});
afterAll(async () => {
  await mock.close();
  await broken.close();
});

describe('plantstore verify', () => {
  it('exits 0 when every case passes, and writes the report files', async () => {
    const dir = tempDir('plantstore-cli-');
    const result = await run(
      ['--target', mock.url, '--generate', '2', '--junit', join(dir, 'v.xml'), '--json', join(dir, 'v.json')],
      {
        PLANTSTORE_TOKEN: 'env-token-value',
      },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/PASSED: \d+ passed, 0 failed/);
    expect(readFileSync(join(dir, 'v.xml'), 'utf8')).toContain('<testsuites');
    expect(readFileSync(join(dir, 'v.json'), 'utf8')).not.toContain('env-token-value');
  });

  it('exits 1 when a case fails', async () => {
    const result = await run(['--target', broken.url, '--token', 'cli-token']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('FAIL  rejects a second plant with the same id');
  });

  it('exits 3 when the server cannot be reached', async () => {
    const result = await run(['--target', 'http://127.0.0.1:9', '--token', 'cli-token', '--filter', 'with a tag']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('cannot reach http://127.0.0.1:9: connection refused');
  });

  it.each([
    ['a target that is not a URL', ['--target', 'nope', '--token', 't'], '--target "nope" is not a URL'],
    [
      'an unreadable fixture path',
      ['--target', 'http://127.0.0.1:9', '--token', 't', '--fixtures', 'no/such/dir'],
      '--fixtures no/such/dir: no such file or folder',
    ],
    [
      'a --spec file that is not there (not "nothing to run")',
      ['--target', 'http://127.0.0.1:9', '--spec', 'nope.yaml'],
      '--spec nope.yaml: no such file',
    ],
    [
      'a --json report path that is a folder',
      ['--target', 'http://127.0.0.1:9', '--token', 't', '--json', 'test'],
      '--json test: is a folder, not a file',
    ],
    [
      'a --junit report folder that cannot be made',
      ['--target', 'http://127.0.0.1:9', '--token', 't', '--junit', 'package.json/v.xml'],
      "--junit package.json/v.xml: cannot create the report's folder package.json (a part of the path is a file)",
    ],
    [
      'a malformed --header',
      ['--target', 'http://127.0.0.1:9', '--token', 't', '--header', 'nocolon'],
      'is not "Name: value"',
    ],
    ['an unknown reporter', ['--target', 'http://127.0.0.1:9', '--reporter', 'tap'], 'Invalid values'],
  ])('exits 2 on %s', async (_what, args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });
});
