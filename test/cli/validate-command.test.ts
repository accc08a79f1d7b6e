import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readInput } from '../../src/cli/command-support.ts';
import { runCommands } from './run-commands.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('plantstore-validate-');
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('plantstore validate', () => {
  it.each([
    ['NewPlant', '{"name":"Fern","id":9223372036854775807}', 'valid: NewPlant\n'],
    ['createPlant', '{"name":"Fern","id":-9223372036854775808,"tag":"fern"}', 'valid: createPlant request body\n'],
    ['Plant', '{"name":"Fern"}', 'valid: Plant\n'],
    ['Error', '{"error":2147483647,"message":"no"}', 'valid: Error\n'],
  ])('exits 0 for a valid %s', async (name, text, stdout) => {
    const run = await runCommands(['validate', name, file(`${name}-ok.json`, text)]);
    expect(run).toEqual({ code: 0, stdout, stderr: '' });
  });

  it.each([
    ['a missing required field', 'NewPlant', '{"name":"Fern"}', '/id: is required\n'],
    ['every violation, one per line', 'NewPlant', '{"name":5}', '/name: must be string\n/id: is required\n'],
    [
      'int64 one past the maximum, judged exactly',
      'NewPlant',
      '{"name":"Fern","id":9223372036854775808}',
      '/id: must be int64 (-9223372036854775808 to 9223372036854775807)\n',
    ],
    [
      'int32 overflow',
      'Error',
      '{"error":2147483648,"message":"x"}',
      '/error: must be int32 (-2147483648 to 2147483647)\n',
    ],
    ['a wrong root type, written (root)', 'NewPlant', '[]', '(root): must be object\n'],
  ])('exits 1 for %s with "pointer: message" lines', async (_, name, text, stdout) => {
    const run = await runCommands(['validate', name, file('bad.json', text)]);
    expect(run).toEqual({ code: 1, stdout, stderr: '' });
  });

  it.each([
    [
      'malformed JSON, with line and column',
      ['NewPlant', file('broken.json', '{"name":"Fern",\n "id": 12,,}')],
      /^plantstore: .*broken\.json: not valid JSON at line 2, column 11: /,
    ],
    ['a file that does not exist', ['NewPlant', join(dir, 'missing.json')], /missing\.json: cannot read: no such file/],
    [
      'an unknown name, listing the names',
      ['Cactus', file('x.json', '{}')],
      /unknown schema or operationId 'Cactus'\n {2}Schemas: Plant, NewPlant, Error\n {2}operationIds: createPlant/,
    ],
    ['no name at all', [], /Not enough non-option arguments/],
  ])('exits 2 for %s', async (_, args, stderr) => {
    const run = await runCommands(['validate', ...args]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(stderr);
  });

  it('reads stdin for - (and an empty stdin is unreadable JSON)', async () => {
    expect(await readInput('-', Readable.from(['{"a":', '1}']) as never)).toBe('{"a":1}');
    expect(await readInput('', Readable.from([]) as never)).toBe('');
  });
});
