// `plantstore example createPlant --as curl | sh`, run twice against one mock: each run draws
// fresh values and a new key, so both creates succeed; with --seed the command is the same each
// time (and the second create is then a duplicate). A required name is never sent empty.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { parseJson } from '../../src/json/exact-json.ts';
import { runCli } from '../helpers/cli.ts';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
});
afterAll(() => mock.close());

/** Runs a script with sh, as `| sh` would; resolves with what it printed. */
function sh(script: string): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn('sh', [], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, PLANTSTORE_TOKEN: 'curl-token' },
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', fail);
    child.on('close', () => done(out));
    child.stdin.end(script);
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
const bodyOf = (command: string) =>
  parseJson(/--data-raw '(.*)'$/.exec(command.trim())![1]) as unknown as {
    ok: true;
    value: { name: string; id: bigint };
  };

describe('example --as curl piped to sh', () => {
  it('creates a new plant on each run, with a name that is not empty', async () => {
    const commands: string[] = [];
    for (let run = 0; run < 2; run++) {
      const { code, stdout } = await runCli(['example', 'createPlant', '--as', 'curl', '--base-url', mock.url]);
      expect(code).toBe(0);
      commands.push(stdout);
      expect(statusOf(await sh(stdout))).toBe(200);
    }
    expect(commands[0]).not.toBe(commands[1]);
    const [first, second] = commands.map((command) => bodyOf(command).value);
    expect(first.id).not.toBe(second.id);
    for (const body of [first, second]) expect(body.name).not.toBe('');
  });

  it('prints the same command for the same --seed, so the second run is a duplicate', async () => {
    const args = ['example', 'createPlant', '--as', 'curl', '--base-url', mock.url, '--seed', '1'];
    const [a, b] = [await runCli(args), await runCli(args)];
    expect(a.stdout).toBe(b.stdout);
    expect(bodyOf(a.stdout).value.name).not.toBe('');
    expect(statusOf(await sh(a.stdout))).toBe(200);
    expect(statusOf(await sh(b.stdout))).toBe(400);
  });
});
