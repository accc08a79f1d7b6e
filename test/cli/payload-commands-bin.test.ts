// Child-process tests of the real bin. They run once src/cli/main.ts registers the payload
// commands (exampleCommand, validateCommand, specCommand); until then they are skipped.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const wired = readFileSync(join(root, 'src', 'cli', 'main.ts'), 'utf8').includes('exampleCommand');
const bin = (args: string[], input?: string) =>
  spawnSync(process.execPath, [join(root, 'bin', 'plantstore.js'), ...args], { input, encoding: 'utf8' });

describe.skipIf(!wired)('payload commands through bin/plantstore.js (enabled once main.ts wires them)', () => {
  it('pipes generated payloads into validate: every one is valid', () => {
    const payloads = bin(['example', 'createPlant', '--count', '200', '--format', 'ndjson', '--seed', '3']);
    expect(payloads.status).toBe(0);
    const lines = payloads.stdout.trim().split('\n');
    for (const line of lines.slice(0, 5)) expect(bin(['validate', 'createPlant', '-'], line).status).toBe(0);
  });

  it('reads stdin without a FILE and exits 1 with one line per violation', () => {
    const run = bin(['validate', 'NewPlant'], '{"name":5}');
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('/name: must be string\n/id: is required\n');
  });

  it('exits 2 with the names that exist for an unknown name, no stack trace', () => {
    const run = bin(['example', 'Cactus']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('Schemas: Plant, NewPlant, Error');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('stops at the first usage error without running the command', () => {
    const run = bin(['example', 'NewPlant', '--count', '0']);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^plantstore: --count must be a whole number of 1 or more, got 0\n/);
    expect(run.stderr).not.toContain('no rule to break'); // the handler did not run
  });
});
