// Runs the verify command module the way src/cli/main.ts does, for exit-code tests that do not
// depend on the command's registration in main.
import yargs from 'yargs';
import { verifyCommand } from '../../src/cli/commands/verify.ts';

await yargs(process.argv.slice(2)).command(verifyCommand).strict().fail((message, error) => {
  if (error) throw error;
  process.stderr.write(`plantstore: ${message}\n`);
  process.exitCode = 2;
}).parseAsync();
