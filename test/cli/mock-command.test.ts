import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { BIN, exitOf, runCli, startCliMock } from '../helpers/cli.ts';
import { CANARY } from '../helpers/engine.ts';

const FLAGS = [
  '--spec',
  '--port',
  '--host',
  '--token',
  '--cors',
  '--declared-only',
  '--absent-items',
  '--seed',
  '--log-format',
  '--quiet',
  '--journal-size',
  '--max-body',
  '--max-depth',
  '--state-file',
  '--isolate-by',
  '--webhook-url',
  '--webhook-retries',
];

describe('plantstore mock (command line)', () => {
  it('--help describes every flag', async () => {
    const { code, stdout } = await runCli(['mock', '--help']);
    expect(code).toBe(0);
    for (const flag of FLAGS) expect(stdout).toContain(flag);
  });

  it('plantstore --help lists the commands', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('plantstore mock');
  });

  it.each([
    [
      'a document with nothing to mock',
      ['--spec', 'test/documents/invalid-missing-version.yaml'],
      /invalid-missing-version\.yaml: #\/paths: the document declares no operations and no webhooks, so there is nothing to mock\n/,
    ],
    [
      'a $ref that resolves nowhere',
      ['--spec', 'test/documents/invalid-bad-ref.yaml'],
      /invalid-bad-ref\.yaml: #\/paths\/~1plants\/post\/responses\/200\/content\/application~1json\/schema: \$ref "#\/components\/schemas\/Missing" resolves to nothing/,
    ],
    ['a missing file', ['--spec', 'nope.yaml'], /nope\.yaml: no such file/],
    ['a bad port', ['--port', '70000'], /--port must be a whole number from 0 to 65535/],
    ['an unknown log format', ['--log-format', 'xml'], /Choices: "text", "json"/],
  ])('fails at start-up on %s with a clear message, no stack trace and exit 2', async (_, args, message) => {
    const { code, stderr } = await runCli(['mock', ...args]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  });

  it('serves the built-in document, logs requests without the token and stops on SIGTERM', async () => {
    const { child, url, stderr } = await startCliMock(['--token', CANARY]);
    const answer = await request(`${url}/plants`, {
      method: 'POST',
      body: '{"id":1,"name":"Fern"}',
      headers: { authorization: `Bearer ${CANARY}`, 'content-type': 'application/json' },
    });
    expect(answer.statusCode).toBe(200);
    await answer.body.dump();
    const exited = exitOf(child);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr()).toMatch(/POST \/plants 200/);
    expect(stderr()).not.toContain(CANARY);
  });

  it('keeps serving when whoever reads its log goes away (plantstore mock 2>&1 | head)', async () => {
    const { child, url } = await startCliMock([]);
    try {
      child.stderr!.destroy(); // the pipe's reading end is closed: the next log write meets EPIPE
      const create = (id: number) =>
        request(`${url}/plants`, {
          method: 'POST',
          body: `{"id":${id},"name":"Fern"}`,
          headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        });
      // More than one batch of log lines (512), and past the 20 ms timer, so both flushes write.
      // (The pause between rounds is pacing, not a race: whichever flush comes, nothing is asserted on when.)
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => create(round * 1000 + i)));
        for (const answer of answers) {
          expect(answer.statusCode).toBe(200);
          await answer.body.dump();
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const health = await request(`${url}/__mock/health`);
      expect(health.statusCode).toBe(200);
      await health.body.dump();
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill('SIGKILL');
    }
  });

  // Linux only: the command line of a running process is read from /proc.
  it.skipIf(!existsSync('/proc/self/cmdline'))(
    'runs with an 8 MB young generation in its own process (same pid), unless the user chose a size',
    async () => {
      const commandLine = (pid: number | undefined) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      // `node bin/plantstore.js mock`: the process replaces itself with one that has the flag.
      const ours = await startCliMock([]);
      try {
        expect(commandLine(ours.child.pid)).toContain('--max-semi-space-size=8');
      } finally {
        ours.child.kill('SIGTERM');
      }
      // The file run as a command (npx plantstore mock): its #! line gives the flag, once.
      const asCommand = spawn(BIN, ['mock', '--port', '0'], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}` },
      });
      try {
        await once(asCommand.stderr, 'data');
        expect(commandLine(asCommand.pid).filter((arg) => arg.startsWith('--max-semi-space-size'))).toEqual([
          '--max-semi-space-size=8',
        ]);
      } finally {
        asCommand.kill('SIGTERM');
      }
      const theirs = await startCliMock([], process.execPath, { NODE_OPTIONS: '--max-semi-space-size=16' });
      try {
        expect(commandLine(theirs.child.pid).join(' ')).not.toContain('--max-semi-space-size');
      } finally {
        theirs.child.kill('SIGTERM');
      }
    },
  );

  it('serves another document given with --spec, with its own error shape and key field', async () => {
    const { child, url } = await startCliMock(['--spec', 'test/documents/split/main.yaml']);
    try {
      const post = (body: string) =>
        request(`${url}/trees`, {
          method: 'POST',
          body,
          headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        });
      const created = await post('{"code":"oak-1","species":"oak","height":3}');
      expect(created.statusCode).toBe(201);
      expect(await created.body.json()).toEqual({ species: 'oak', height: 3 });
      const duplicate = await post('{"code":"oak-1","species":"oak"}');
      expect(duplicate.statusCode).toBe(422);
      expect(duplicate.headers['content-type']).toBe('application/problem+json');
      expect(await duplicate.body.json()).toEqual({
        status: 422,
        title: 'Unprocessable Entity',
        detail: 'a tree with code oak-1 already exists',
      });
    } finally {
      child.kill('SIGTERM');
    }
  });

  it.runIf(existsSync('/usr/bin/node'))(
    'starts from the machine Node (20) by re-running itself on the bundled Node 24',
    async () => {
      const { code, stdout } = await runCli(['--version'], { node: '/usr/bin/node' });
      expect(code).toBe(0);
      expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    },
  );
});
