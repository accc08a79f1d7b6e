// `plantstore mock` is read without yargs when its command line is plainly well-formed (start-up:
// docs/performance.md §9). That path must accept only what yargs accepts, with the same values.
import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { mockCommand, quickMockArgs, type MockArgs } from '../../src/cli/commands/mock.ts';

const KEYS: (keyof MockArgs)[] = [
  'spec',
  'port',
  'host',
  'token',
  'cors',
  'declared-only',
  'absent-items',
  'seed',
  'log-format',
  'quiet',
  'journal-size',
  'max-body',
  'max-depth',
  'max-state-mb',
  'isolate-by',
  'webhook-url',
  'webhook-retries',
  'state-file',
];

/** What yargs hands the mock's handler for a command line, or the error it refuses it with. */
async function viaYargs(argv: string[]): Promise<Partial<MockArgs> | Error> {
  let seen: Record<string, unknown> | undefined;
  try {
    await yargs(argv)
      .command({ ...mockCommand, handler: (args: Record<string, unknown>) => void (seen = args) })
      .strict()
      .help()
      .version()
      .fail((message, error) => {
        throw error ?? new Error(message);
      })
      .exitProcess(false)
      .parseAsync();
  } catch (error) {
    return error as Error;
  }
  return seen === undefined ? new Error('no command ran') : Object.fromEntries(KEYS.map((key) => [key, seen![key]]));
}

describe('the quick reading of plantstore mock', () => {
  it.each([
    [['mock']],
    [['mock', '--port', '8080']],
    [['mock', '--port=0']],
    [['mock', '-p', '9000', '-q']],
    [['mock', '--quiet', '--no-cors']],
    [['mock', '--cors', '--declared-only']],
    [['mock', '--no-declared-only', '--no-quiet']],
    [['mock', '--token', 'a', '--token', 'b-2.x~']],
    [['mock', '--token=abc']],
    [['mock', '--log-format', 'json', '--isolate-by', 'token']],
    [['mock', '--journal-size', '0', '--max-body', '2048', '--max-depth', '10', '--seed', '42']],
    [['mock', '--max-state-mb', '64']],
    [['mock', '--absent-items', '404']],
    [['mock', '--absent-items=document', '--declared-only']],
    [['mock', '--webhook-url', 'http://127.0.0.1:9/hooks', '--webhook-retries', '3']],
    [
      [
        'mock',
        '--state-file',
        '/tmp/plants.log',
        '--spec',
        'test/documents/plant-store-crud.yaml',
        '--host',
        '0.0.0.0',
      ],
    ],
  ])('reads %j as yargs does', async (argv) => {
    const quick = quickMockArgs(argv);
    expect(quick).toBeDefined();
    const reference = await viaYargs(argv);
    expect(reference).not.toBeInstanceOf(Error);
    expect(Object.fromEntries(KEYS.map((key) => [key, quick![key]]))).toEqual(reference);
  });

  it.each([
    [[]],
    [['verify']],
    [['mock', '--help']],
    [['mock', '-h']],
    [['mock', '--version']],
    [['mock', '--port', 'abc']],
    [['mock', '--port', '70000']],
    [['mock', '--max-state-mb', '0']],
    [['mock', '--port', '1', '--port', '2']],
    [['mock', '--port', '1e3']],
    [['mock', '--seed', '-5']],
    [['mock', '--token', 'a', 'b']],
    [['mock', '--journalSize', '5']],
    [['mock', '--cors', 'false']],
    [['mock', '-p8080']],
    [['mock', '-qp', '1']],
    [['mock', '--log-format', 'xml']],
    [['mock', '--absent-items', '410']],
    [['mock', '--webhook-url', 'ftp://example.com']],
    [['mock', '--', 'x']],
    [['mock', 'extra']],
    [['mock', '--port']],
  ])('leaves %j to yargs', (argv) => {
    expect(quickMockArgs(argv)).toBeUndefined();
  });

  it('leaves to yargs only what yargs reads its own way or refuses', async () => {
    // Accepted by yargs, in its reading: the full path still serves them.
    expect(await viaYargs(['mock', '--port', '1e3'])).toMatchObject({ port: 1000 });
    expect(await viaYargs(['mock', '--cors', 'false'])).toMatchObject({ cors: false });
    expect(await viaYargs(['mock', '--journalSize', '5'])).toMatchObject({ 'journal-size': 5 });
    // Refused by yargs: its message is the one the user sees.
    expect(await viaYargs(['mock', '--port', '70000'])).toBeInstanceOf(Error);
    expect(await viaYargs(['mock', '--max-state-mb', '0'])).toMatchObject({
      message: expect.stringContaining('--max-state-mb must be a whole number of 1 or more'),
    });
    expect(await viaYargs(['mock', '--log-format', 'xml'])).toBeInstanceOf(Error);
    expect(await viaYargs(['mock', '--absent-items', '410'])).toMatchObject({
      message: expect.stringContaining('Choices: "document", "404"'),
    });
    expect(await viaYargs(['mock', 'extra'])).toBeInstanceOf(Error);
  });
});
