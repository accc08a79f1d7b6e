import type { Argv } from 'yargs';
import { PlantstoreError } from '../../errors.ts';
import { formatIssueLines, validatePayload } from '../../validation/validate-payload.ts';
import { isStdin, readInput, loadCommandSpec, runCommand, withSpecOption } from '../command-support.ts';

const builder = (y: Argv) =>
  withSpecOption(y)
    .positional('name', {
      type: 'string',
      demandOption: true,
      describe: 'A components.schemas name, or an operationId (its JSON request body)',
    })
    .positional('file', { type: 'string', describe: 'The JSON payload; - or nothing reads stdin' })
    .example('$0 validate NewPlant plant.json', 'Exit 0 when valid, 1 with one "pointer: message" line per violation')
    .example(`echo '{"name":"Fern"}' | $0 validate createPlant`, 'Validate a request body of createPlant from stdin')
    .example(
      '$0 example createPlant --invalid --format ndjson | head -1 | $0 validate createPlant -',
      'Check that a negative payload is rejected',
    );

type ValidateArgs = Awaited<ReturnType<typeof builder>['argv']>;

/** `plantstore validate <SchemaName|operationId> [FILE|-]`: exit 0 valid, 1 invalid, 2 usage or malformed JSON. */
export const validateCommand = {
  command: 'validate <name> [file]',
  describe: 'Check a JSON payload against a schema or an operation request body',
  builder,
  handler: (argv: ValidateArgs) =>
    runCommand(async () => {
      const spec = await loadCommandSpec(argv);
      const text = await readInput(argv.file);
      const verdict = validatePayload(spec, argv.name, text);
      const source = isStdin(argv.file) ? 'stdin' : argv.file;
      switch (verdict.kind) {
        case 'malformed': {
          const where = verdict.line === undefined ? '' : ` at line ${verdict.line}, column ${verdict.column}`;
          // V8 repeats the place ("in JSON at position 26 (line 2 column 11)"); it is said once already.
          const reason =
            verdict.line === undefined
              ? verdict.message
              : verdict.message.replace(/ (?:in JSON )?at position \d+(?: \(line \d+ column \d+\))?$/, '');
          throw new PlantstoreError('USAGE', `${source}: not valid JSON${where}: ${reason}`);
        }
        case 'invalid':
          process.stdout.write(formatIssueLines(verdict.issues));
          return 1;
        case 'valid':
          process.stdout.write(`valid: ${verdict.target}\n`);
          return 0;
      }
    }),
};
