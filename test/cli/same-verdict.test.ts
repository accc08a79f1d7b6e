// `spec --check` and the mock run one loader: the same verdict and the same warnings, in plain English.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCliMock } from '../helpers/cli.ts';

const ALBUMS = resolve('test/documents/loading/albums.yaml');

describe('one verdict for spec --check and the mock', () => {
  it('prints the same verdict and the same warnings from both', async () => {
    const check = await runCli(['spec', '--check', '--spec', ALBUMS]);
    expect(check.code).toBe(0);
    const verdict = check.stdout.split('\n')[0];
    expect(verdict).toBe(
      `${ALBUMS}: loads as an OpenAPI 3.0.3 document (Untitled API 0) and can be mocked; 4 warnings`,
    );
    const listed = check.stdout
      .split('warnings (4):\n')[1]
      .trim()
      .split('\n')
      .map((line) => line.trim());
    expect(listed).toHaveLength(4);

    const mock = await startCliMock(['--spec', ALBUMS]);
    mock.child.kill('SIGTERM');
    await new Promise((done) => mock.child.once('close', done));
    const lines = mock.stderr().split('\n');
    expect(lines).toContain(verdict);
    const warned = lines
      .filter((line) => line.startsWith('warning: '))
      .map((line) => line.slice('warning: '.length))
      .map((line) => (line.startsWith(`${ALBUMS}: `) ? line.slice(ALBUMS.length + 2) : line));
    expect(warned.sort()).toEqual([...listed].sort());
  });

  it('writes the nouns as English: "an album"', async () => {
    const check = await runCli(['spec', '--check', '--spec', ALBUMS]);
    expect(check.stdout).toMatch(/declares no 404: an album that is not stored/);
  });
});
