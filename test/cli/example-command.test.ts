import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/exact-json.ts';
import { runCommands } from './run-commands.ts';

describe('plantstore example', () => {
  it('prints one pretty-printed NewPlant with an exact int64 id', async () => {
    const run = await runCommands(['example', 'NewPlant']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\{\n  "name": ".*",\n(  "tag": ".*",\n)?  "id": -?\d+\n\}\n$/);
    expect(run.stderr).toBe('');
  });

  it('gives byte-identical output for the same seed and options, and different output for another seed', async () => {
    const args = ['example', 'createPlant', '--count', '50', '--format', 'ndjson'];
    // One at a time: each run captures process.stdout.
    const a = await runCommands([...args, '--seed', '4']);
    const b = await runCommands([...args, '--seed', '4']);
    const c = await runCommands([...args, '--seed', '5']);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).not.toBe(c.stdout);
    expect(a.stdout.trim().split('\n')).toHaveLength(50);
  });

  it.each([
    ['json', (text: string) => (parseJson(text) as { value: unknown[] }).value.length],
    ['ndjson', (text: string) => text.trim().split('\n').length],
    ['yaml', (text: string) => text.split('\n').filter((line) => line.startsWith('- ')).length],
  ])('writes --count 3 as %s', async (format, count) => {
    const run = await runCommands(['example', 'NewPlant', '-n', '3', '--format', format]);
    expect(run.code).toBe(0);
    expect(count(run.stdout)).toBe(3);
  });

  it('keeps stdout to payloads and explains each broken rule on stderr', async () => {
    const run = await runCommands(['example', 'createPlant', '--invalid', '--explain', '--format', 'ndjson']);
    const payloads = run.stdout.trim().split('\n');
    const reasons = run.stderr.trim().split('\n');
    expect(run.code).toBe(0);
    expect(payloads).toHaveLength(reasons.length);
    expect(reasons[0]).toBe('1: /name: removed required field');
    expect(reasons.at(-1)).toMatch(/malformed JSON/);
    expect(parseJson(payloads.at(-1) as string).ok).toBe(false);
  });

  it('keeps --invalid --format json one JSON document (malformed JSON left out)', async () => {
    const run = await runCommands(['example', 'NewPlant', '--invalid']);
    const parsed = parseJson(run.stdout);
    expect(parsed.ok && Array.isArray(parsed.value) && parsed.value.length).toBe(8);
  });

  it('prints a curl command for an operation, and for a schema that is a request body', async () => {
    for (const name of ['createPlant', 'NewPlant']) {
      const run = await runCommands(['example', name, '--as', 'curl', '--base-url', 'http://localhost:9999']);
      expect(run.stdout).toMatch(
        /^curl -sS -i -X POST 'http:\/\/localhost:9999\/plants' -H 'Content-Type: application\/json' -H "Authorization: Bearer \$PLANTSTORE_TOKEN" --data-raw '\{.*\}'\n$/,
      );
    }
  });

  it('fails with exit 2 for --as curl of a schema no operation takes', async () => {
    const run = await runCommands(['example', 'Plant', '--as', 'curl']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^plantstore: schema Plant is not the JSON request body of any operation/);
  });

  it('prints fixtures that expect 4xx for invalid payloads', async () => {
    const run = await runCommands(['example', 'createPlant', '--as', 'fixture', '--invalid', '--format', 'ndjson']);
    const fixtures = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(fixtures.every((fixture) => fixture.expect.status === '4xx' && fixture.request.path === '/plants')).toBe(
      true,
    );
    expect(fixtures.some((fixture) => typeof fixture.request.rawBody === 'string')).toBe(true);
  });

  it('fails with exit 2 for an unknown name and lists the names that exist', async () => {
    const run = await runCommands(['example', 'Cactus']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      "plantstore: unknown schema or operationId 'Cactus'\n  Schemas: Plant, NewPlant, Error\n  operationIds: createPlant\n",
    );
  });

  it.each([
    [['--count', '0'], '--count must be a whole number of 1 or more, got 0'],
    [['--seed', '1.5'], '--seed must be a whole number, got 1.5'],
    [['--format', 'xml'], 'Invalid values'],
  ])('rejects %j with exit 2', async (flags, message) => {
    const run = await runCommands(['example', 'NewPlant', ...flags]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
  });
});
