// A document that cannot be read: the message names the file once, where the fault is, with the
// line and column and an excerpt of the lines with a caret; a missing file gets a hint that names
// every kind of document the toolkit reads.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommands } from './run-commands.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('plantstore-read-errors-');
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('a document that is not YAML or JSON', () => {
  it('names the file once, with the line, the column, the reason and an excerpt with a caret', async () => {
    const file = write(
      'broken.yaml',
      'openapi: 3.1.0\ninfo:\n  title: Broken\n  version: "1"\npaths:\n  /a:\n    get: {responses: {200: {description: ok}}\n  bad: [\n',
    );
    const run = await runCommands(['spec', '--check', '--spec', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      [
        `plantstore: ${file}:8:3: not valid YAML: Flow map in block collection must be sufficiently indented and end with a }`,
        '      get: {responses: {200: {description: ok}}',
        '    bad: [',
        '    ^',
        '',
      ].join('\n'),
    );
    expect(occurrences(run.stderr, file)).toBe(1);
  });

  it('says JSON for a .json file, and points at the token', async () => {
    const file = write('broken.json', '{"openapi": "3.1.0",\n "info": {"title": "x" "version": "1"}\n}\n');
    const run = await runCommands(['spec', '--check', '--spec', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(
        `^plantstore: ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:2:24: not valid JSON: Unexpected double-quoted-scalar token\n`,
      ),
    );
    // The excerpt is indented by two; the caret stands under column 24 of its line.
    expect(run.stderr).toContain(`\n   "info": {"title": "x" "version": "1"}\n${' '.repeat(2 + 23)}${'^'.repeat(9)}\n`);
    expect(occurrences(run.stderr, file)).toBe(1);
  });

  it('names the referred file where the fault is, not the document that refers to it', async () => {
    const part = write('part.yaml', 'type: object\nproperties: {a: {type: string}\n');
    const main = write(
      'main.yaml',
      'openapi: 3.1.0\ninfo: {title: Main, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          description: ok\n          content: {application/json: {schema: {$ref: "./part.yaml"}}}\n',
    );
    const run = await runCommands(['spec', '--check', '--spec', main]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^plantstore: \S*part\.yaml:\d+:\d+: not valid YAML: /);
    expect(run.stderr).not.toContain('main.yaml');
  });
});

describe('a document that is not there', () => {
  it('says so and names OpenAPI 3.0, 3.1 and Swagger 2.0 in the hint', async () => {
    const run = await runCommands(['spec', '--check', '--spec', join(dir, 'nope.yaml')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `plantstore: ${join(dir, 'nope.yaml')}: no such file\n  Pass an OpenAPI 3.0 or 3.1 document, or a Swagger 2.0 one (YAML or JSON), with --spec FILE.\n`,
    );
  });
});
