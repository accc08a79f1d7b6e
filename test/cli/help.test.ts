import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import yargs, { type Argv } from 'yargs';
import { ADMIN_ENDPOINTS } from '../../src/mock/admin/admin.ts';
import { runCli } from '../helpers/cli.ts';

interface CommandModule {
  command: string;
  builder: (y: Argv) => Argv;
}

// Every command module of src/cli/commands, so that a command added later is held to the same help.
const commands: CommandModule[] = [];
for (const file of readdirSync('src/cli/commands')
  .filter((name) => name.endsWith('.ts'))
  .sort()) {
  const module = (await import(/* @vite-ignore */ pathToFileURL(resolve('src/cli/commands', file)).href)) as Record<
    string,
    unknown
  >;
  for (const value of Object.values(module)) {
    if (value !== null && typeof value === 'object' && 'command' in value && 'builder' in value)
      commands.push(value as CommandModule);
  }
}

/** The flags a command declares (not the positionals of its usage line, nor yargs's own --help and --version). */
function declaredFlags(command: CommandModule): string[] {
  const built = command.builder(yargs([])) as unknown as {
    getOptions(): { key: Record<string, boolean>; alias: Record<string, string[]> };
  };
  const { key, alias } = built.getOptions();
  const positionals = [...command.command.matchAll(/[<[](\w+)(?:\.\.\.)?[\]>]/g)].map((m) => m[1]);
  const aliases = Object.values(alias).flat();
  return Object.keys(key).filter(
    (name) => name !== 'help' && name !== 'version' && !positionals.includes(name) && !aliases.includes(name),
  );
}

describe('plantstore COMMAND --help', () => {
  it('finds the eight commands', () => {
    expect(commands.map((c) => c.command.split(' ')[0]).sort()).toEqual([
      'example',
      'merge-reports',
      'mock',
      'msw',
      'proxy',
      'spec',
      'validate',
      'verify',
    ]);
  });

  it.each(commands.map((c) => [c.command.split(' ')[0], c] as const))(
    '%s --help lists every flag it declares and shows an example',
    async (name, command) => {
      const { code, stdout } = await runCli([name, '--help']);
      expect(code).toBe(0);
      const flags = declaredFlags(command);
      expect(flags.length).toBeGreaterThan(1);
      for (const flag of flags) expect(stdout, `--${flag}`).toMatch(new RegExp(`^\\s+(?:-\\w, )?--${flag}\\b`, 'm'));
      // An example is a line that runs the command itself, under the Examples heading.
      const examples = stdout.split(/^Examples:$/m)[1] ?? '';
      expect(examples).toMatch(new RegExp(`^\\s+plantstore ${name}\\b`, 'm'));
    },
  );

  it('mock --help points to the admin API and every endpoint of it', async () => {
    const { stdout } = await runCli(['mock', '--help']);
    expect(stdout).toMatch(/Admin API, under \/__mock\//);
    for (const route of Object.keys(ADMIN_ENDPOINTS)) expect(stdout).toContain(route);
  });

  it('mock --help explains the Prefer header: code (5xx included), example and dynamic, and the query forms', async () => {
    const { stdout } = await runCli(['mock', '--help']);
    for (const preference of ['Prefer: code=404', 'Prefer: example=NAME', 'Prefer: dynamic=true'])
      expect(stdout).toContain(preference);
    expect(stdout).toMatch(/5xx included/);
    expect(stdout).toMatch(/forced by Prefer: code=404/);
    for (const query of ['__code=', '__example=', '__dynamic=']) expect(stdout).toContain(query);
  });
});
