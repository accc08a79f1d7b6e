// Every line of the source is at most 120 characters (Prettier's printWidth). Prettier wraps code
// but never a string or a comment, so a long message or comment would creep back unnoticed: long
// strings are joined from parts ('a ' + 'b'), long comments rewrapped.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const MAX_WIDTH = 120;

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );

describe('the source', () => {
  it(`has no line longer than ${MAX_WIDTH} characters`, () => {
    const files = sourceFiles('src');
    expect(files.length).toBeGreaterThan(100);
    const long = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => (line.length > MAX_WIDTH ? [`${file}:${index + 1} (${line.length})`] : [])),
    );
    expect(long).toEqual([]);
  });
});
