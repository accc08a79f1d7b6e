// The README's commands, run in this checkout, leave nothing for git to show: the reports they
// write (`--junit out/verify.xml`, ...) and the recordings (`--record recorded/`) land in ignored folders.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync('README.md', 'utf8');
// Relative paths that the README's commands write into (up to a ${{ ... }} of a CI recipe) (not the user's own project
// files, such as a Vite app's src/).
const written = [...readme.matchAll(/--(?:junit|json|html|record) ((?!\/)[^\s`'"$]+)/g)]
  .map((found) => found[1])
  .filter((path) => !/^[A-Z]+$/.test(path)); // FILE, DIR: the flag tables' placeholders
const insideGit =
  spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { encoding: 'utf8' }).stdout.trim() === 'true';
if (!insideGit)
  console.warn(
    '\n*** readme-outputs-ignored: not a git checkout, so git cannot be asked what it ignores: SKIPPED ***\n',
  );

describe.runIf(insideGit)("the README's output paths, in this checkout", () => {
  it('are found in the README', () => {
    expect(written).toEqual(expect.arrayContaining(['out/verify.xml', 'recorded/']));
  });

  it.each(written)('%s is ignored by git', (path) => {
    const check = spawnSync('git', ['check-ignore', '--no-index', '--quiet', path], { encoding: 'utf8' });
    expect(check.status, `${path} is not ignored`).toBe(0);
  });
});
