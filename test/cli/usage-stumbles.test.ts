// The small stumbles of a first session with the command: a mistyped flag gets a guess as a
// mistyped command does, and `completion --help` explains the command instead of printing its script.
import { describe, expect, it } from 'vitest';
import { withFlagSuggestions } from '../../src/cli/flag-suggestions.ts';
import { runCli } from '../helpers/cli.ts';

describe('a mistyped flag', () => {
  it.each([
    [
      'names the flag and the nearest known one',
      'Unknown argument: prot',
      ['--prot', '5'],
      'Unknown argument: --prot (did you mean --port?)',
    ],
    [
      'guesses for each of several, and lists yargs’ camelCase twin once',
      'Unknown arguments: cont, sed, max-bodi, maxBodi',
      ['NewPlant', '--cont', '3', '--sed=4', '--max-bodi', '9'],
      'Unknown arguments: --cont (did you mean --count?), --sed (did you mean --seed?), --max-bodi (did you mean --max-body?)',
    ],
    ['guesses nothing when no flag is near', 'Unknown argument: zzzzzz', ['--zzzzzz'], 'Unknown argument: --zzzzzz'],
    [
      'leaves an unknown word that is no flag as it is',
      'Unknown argument: extra',
      ['extra'],
      'Unknown argument: extra',
    ],
    [
      'adds the guess to a missing required flag that was mistyped',
      'Missing required argument: target',
      ['--targt', 'http://127.0.0.1:1'],
      'Missing required argument: target (--targt: did you mean --target?)',
    ],
    [
      'takes --no-FLAG as the known FLAG',
      'Missing required argument: target',
      ['--no-bail'],
      'Missing required argument: target',
    ],
  ])('%s', (_, message, argv, expected) => {
    const known = ['port', 'host', 'count', 'seed', 'max-body', 'maxBody', 'target', 'bail', 'p', 'n'];
    expect(withFlagSuggestions(message, argv, known)).toBe(expected);
  });

  it.each([
    [
      ['mock', '--prot', '5'],
      'plantstore: Unknown argument: --prot (did you mean --port?)\nRun with --help for usage.\n',
    ],
    [
      ['verify', '--targt', 'http://127.0.0.1:1'],
      'plantstore: Missing required argument: target (--targt: did you mean --target?)\nRun with --help for usage.\n',
    ],
    [['verfy'], 'plantstore: Did you mean verify?\nRun with --help for usage.\n'],
  ])('plantstore %j exits 2 with the guess, from the flags of that command', async (args, stderr) => {
    const run = await runCli(args);
    expect(run.stderr).toBe(stderr);
    expect(run.code).toBe(2);
  });
});

describe('plantstore completion', () => {
  it('--help explains the command and how to install the script, and prints no script', async () => {
    const run = await runCli(['completion', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^plantstore completion\n\nPrint a shell-completion script \(bash\/zsh\)\n/);
    expect(run.stdout).toContain('plantstore completion >> ~/.bashrc');
    expect(run.stdout).not.toContain('###-begin-plantstore-completions-###');
  });

  it('prints the script that completes commands through --get-yargs-completions', async () => {
    const script = await runCli(['completion']);
    expect(script.code).toBe(0);
    expect(script.stdout).toContain('###-begin-plantstore-completions-###');
    expect(script.stdout).toContain('--get-yargs-completions');
    const completions = await runCli(['--get-yargs-completions', 'plantstore', '']);
    expect(completions.stdout.split('\n')).toEqual(expect.arrayContaining(['mock', 'verify', 'completion']));
    expect(completions.stdout).not.toContain('__completion-script');
  });
});
