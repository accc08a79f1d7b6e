// Runs the payload commands in-process, the way src/cli/main.ts wires them, capturing what they
// write and the exit code they set. (Not a test file: the *.test.ts files use it.)
import { vi } from 'vitest';
import yargs from 'yargs';
import { exampleCommand } from '../../src/cli/commands/example.ts';
import { specCommand } from '../../src/cli/commands/spec.ts';
import { validateCommand } from '../../src/cli/commands/validate.ts';
import { reportFatal } from '../../src/cli/report-fatal.ts';

export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

class UsageFailure extends Error {}

export async function runCommands(args: string[]): Promise<CommandRun> {
  let stdout = '';
  let stderr = '';
  const out = vi
    .spyOn(process.stdout, 'write')
    .mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  const err = vi
    .spyOn(process.stderr, 'write')
    .mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
  process.exitCode = undefined;
  try {
    await yargs(args)
      .scriptName('plantstore')
      .command(exampleCommand)
      .command(validateCommand)
      .command(specCommand)
      .demandCommand(1)
      .strict()
      .exitProcess(false)
      .fail((message, error) => {
        if (error) throw error;
        process.stderr.write(`plantstore: ${message}\n`);
        process.exitCode = 2;
        throw new UsageFailure(message);
      })
      .parseAsync();
  } catch (error) {
    if (!(error instanceof UsageFailure)) reportFatal(error);
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { code, stdout, stderr };
}
