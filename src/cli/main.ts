// The `plantstore` command line: one yargs command module per command, each calling one library
// function. Only this layer sets process.exitCode and writes to the console.
import { mockCommand, quickMockArgs } from './commands/mock.ts';
import type { Argv } from 'yargs';
import { reportFatal } from './report-fatal.ts';

class UsageError extends Error {}

/** Runs the CLI with the given arguments (without node and the script). */
export async function main(argv: string[]): Promise<void> {
  // A plainly well-formed `plantstore mock` starts without loading yargs and the other commands,
  // which would about double its time to a first answer (fast path: see docs/performance.md §9);
  // every other command line, help and every usage error go through yargs.
  const quick = quickMockArgs(argv);
  if (quick) {
    try {
      await mockCommand.handler(quick);
    } catch (error) {
      reportFatal(error);
    }
    return;
  }
  // The other commands (and the runner's reporters they bring) are loaded here, not at the top,
  // where the quick mock would pay for them (fast path: see docs/performance.md §10.17).
  const [
    { default: yargs },
    { verifyCommand },
    { proxyCommand },
    { exampleCommand },
    { validateCommand },
    { specCommand },
    { mswCommand },
    { mergeReportsCommand },
    { withFlagSuggestions },
  ] = await Promise.all([
    import('yargs'),
    import('./commands/verify.ts'),
    import('./commands/proxy.ts'),
    import('./commands/example.ts'),
    import('./commands/validate.ts'),
    import('./commands/spec.ts'),
    import('./commands/msw.ts'),
    import('./commands/merge-reports.ts'),
    import('./flag-suggestions.ts'),
  ]);
  const cli: Argv = yargs(argv)
    .scriptName('plantstore')
    .usage(
      '$0 <command> [options]\n\nMock server, contract verifier and payload tools for an OpenAPI 3.x API (the ' +
        'Plant Store by default).',
    )
    .command(mockCommand)
    .command(verifyCommand)
    .command(mergeReportsCommand)
    .command(proxyCommand)
    .command(exampleCommand)
    .command(validateCommand)
    .command(specCommand)
    .command(mswCommand)
    // yargs' own completion command prints its script even for `completion --help`; a command of
    // our own has a help of its own, and the script's `--get-yargs-completions` works all the same.
    .completion('__completion-script', false)
    .command(
      'completion',
      'Print a shell-completion script (bash/zsh)',
      (command) =>
        command
          .example('$0 completion >> ~/.bashrc', 'complete plantstore commands and flags in bash')
          .example('$0 completion >> ~/.zshrc', 'the same in zsh'),
      () => {
        cli.showCompletionScript();
      },
    )
    .demandCommand(1, 'Name a command; see plantstore --help.')
    .recommendCommands()
    .strict()
    .help()
    .alias('h', 'help')
    .version()
    .wrap(Math.min(110, process.stdout.columns || 100))
    .epilogue(
      'Docs: README.md. Exit codes: 0 ok, 1 failure (invalid payload, failed verification), 2 usage or ' +
        'configuration error.',
    )
    .fail((message, error) => {
      // Throwing stops yargs from running the command after a failed check. While a command runs,
      // yargs holds that command's options (getOptions, which its types leave out).
      const known = () =>
        Object.keys((cli as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key);
      if (message) throw new UsageError(withFlagSuggestions(message, argv, known()));
      throw error;
    });
  try {
    await cli.parseAsync();
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`plantstore: ${error.message}\nRun with --help for usage.\n`);
      process.exitCode = 2;
    } else reportFatal(error);
  }
}
