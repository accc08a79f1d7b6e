// A document with flaws real documents have: the commands load it and say so once, --strict
// refuses it, and a remote $ref is refused with the flag that would allow it.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCliMock } from '../helpers/cli.ts';

const FLAWED = resolve('test/documents/loading/nullable-and-examples.yaml');
const REMOTE = resolve('test/documents/loading/remote-ref.yaml');

describe('document warnings on the command line', () => {
  it('starts the mock on a flawed document and logs each warning with the file', async () => {
    const mock = await startCliMock(['--spec', FLAWED]);
    mock.child.kill('SIGTERM');
    await new Promise((done) => mock.child.once('close', done));
    expect(mock.stderr()).toMatch(
      /warning: .*nullable-and-examples\.yaml: #\/components\/schemas\/Account\/required: must NOT have duplicate items/,
    );
  });

  it('refuses the flawed document with mock --strict, exit 2, listing the flaws', async () => {
    const run = await runCli(['mock', '--port', '0', '--strict', '--spec', FLAWED]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /refused under --strict\n {2}#\/components\/schemas\/Account\/required: must NOT have duplicate items/,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('says once on stderr that validate loaded a document with warnings, and still validates', async () => {
    const run = await runCli(['validate', 'Account', '--spec', FLAWED], {
      input: '{"id": "a", "name": "n", "password": "p"}',
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/2 warning\(s\) about the document \(plantstore spec --check --spec FILE lists them\)/);
  });

  it.each([
    ['spec', '--check'],
    ['validate', 'Thing'],
    ['mock', '--port', '0'],
    ['verify', '--target', 'http://127.0.0.1:9', '--generate', '1'],
  ])('refuses a remote $ref in %s, naming --remote-refs', async (...args) => {
    const run = await runCli([...args, '--spec', REMOTE]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /refers to https:\/\/schemas\.example\.com\/thing\.json, which is not fetched\n.*--remote-refs/,
    );
  });
});
