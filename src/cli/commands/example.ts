// The generator (json-schema-faker, yaml) loads when the command runs, not when the CLI starts:
// `plantstore mock` shares this process's start-up and never needs it.
import type { Argv } from 'yargs';
import { randomInt } from 'node:crypto';
import { PlantstoreError } from '../../errors.ts';
import {
  PAYLOAD_FORMATS,
  PAYLOAD_SHAPES,
  type PayloadFormat,
  type PayloadShape,
} from '../../example/payload-formats.ts';
import { resolveTarget } from '../../document/resolve-target.ts';
import { loadCommandSpec, runCommand, withSpecOption } from '../command-support.ts';

const builder = (y: Argv) =>
  withSpecOption(y)
    .positional('name', {
      type: 'string',
      demandOption: true,
      describe: 'A components.schemas name, or an operationId (its JSON request body)',
    })
    .option('count', {
      alias: 'n',
      type: 'number',
      defaultDescription: '1; with --invalid, one per rule',
      describe: 'How many payloads (distinct where the schema allows)',
    })
    .option('seed', {
      type: 'number',
      defaultDescription: '1; with --as curl a fresh one each run, and a create sends a new key',
      describe: 'Seed: the same seed and options give byte-identical output',
    })
    .option('format', {
      alias: 'f',
      choices: PAYLOAD_FORMATS,
      default: 'json' as PayloadFormat,
      describe: 'json: one document (an array when --count > 1); ndjson: one compact payload per line; yaml',
    })
    .option('invalid', {
      type: 'boolean',
      default: false,
      describe:
        'Payloads that each break exactly one rule (missing required field, wrong type, out of range, malformed JSON)',
    })
    .option('explain', {
      type: 'boolean',
      default: false,
      describe: 'Say on stderr which rule each payload breaks (stdout keeps only payloads)',
    })
    .option('as', {
      choices: PAYLOAD_SHAPES,
      default: 'body' as PayloadShape,
      describe: 'body: the payload; curl: a ready curl command; fixture: a conformance-runner fixture',
    })
    .option('base-url', { type: 'string', default: 'http://127.0.0.1:4010', describe: 'Base URL of the curl commands' })
    // A PlantstoreError, so that the fail handler reports a usage error and not a bug.
    .check((argv) => {
      if (argv.count !== undefined && (!Number.isInteger(argv.count) || argv.count < 1))
        throw new PlantstoreError('USAGE', `--count must be a whole number of 1 or more, got ${argv.count}`);
      if (argv.seed !== undefined && !Number.isSafeInteger(argv.seed))
        throw new PlantstoreError('USAGE', `--seed must be a whole number, got ${argv.seed}`);
      return true;
    })
    .example('$0 example NewPlant', 'One NewPlant, pretty-printed JSON')
    .example(
      '$0 example createPlant --count 1000 --format ndjson --seed 7',
      '1000 distinct request bodies of createPlant, one per line',
    )
    .example(
      '$0 example createPlant --invalid --explain --format ndjson',
      'One payload per broken rule; the rules go to stderr',
    )
    .example(
      '$0 example createPlant --as curl --base-url http://localhost:8080',
      'A curl command that posts an example',
    );

type ExampleArgs = Awaited<ReturnType<typeof builder>['argv']>;

/** `plantstore example <SchemaName|operationId>`: generated payloads on stdout. */
export const exampleCommand = {
  command: 'example <name>',
  describe: 'Generate payloads (valid or invalid) for a schema or an operation',
  builder,
  handler: (argv: ExampleArgs) =>
    runCommand(async () => {
      const [
        { createExampleGenerator },
        { requireOperation },
        { renderPayloads },
        { withFreshKey, freshUnique },
        { createValidators },
        { bindResource },
      ] = await Promise.all([
        import('../../example/example-generator.ts'),
        import('../../example/payload-shapes.ts'),
        import('../../example/render-payloads.ts'),
        import('../../example/fresh-key.ts'),
        import('../../validation/validator.ts'),
        import('../../document/resources.ts'),
      ]);
      const spec = await loadCommandSpec(argv);
      const target = resolveTarget(spec, argv.name);
      if (argv.as !== 'body') requireOperation(target); // fail before generating anything
      const validators = createValidators(spec);
      const generator = createExampleGenerator(spec, validators);
      // A curl command is for running: each run sends something new, unless a seed pins the output.
      const fresh = argv.as === 'curl' && argv.seed === undefined && !argv.invalid;
      const seed = argv.seed ?? (fresh ? randomInt(2 ** 31) : 1);
      const list = argv.count === undefined ? argv.invalid : argv.count > 1;
      // Malformed JSON cannot be an element of a JSON array or a YAML document; elsewhere it can.
      const malformed = argv.as !== 'body' || argv.format === 'ndjson' || (!list && argv.format === 'json');
      const payloads = argv.invalid
        ? generator.invalidExamples(target, { seed, count: argv.count, malformed })
        : generator
            .examples(target, { seed, count: argv.count ?? 1, filled: argv.as === 'curl' })
            .map((body) => ({ body }));
      if (fresh) {
        const binding = target.operation && bindResource(target.operation, spec.document);
        const check = validators.at(target.pointer);
        const [now, random] = [Date.now(), randomInt(1_000)];
        payloads.forEach((payload, index) => {
          if ('body' in payload)
            payload.body = withFreshKey(payload.body, binding, check, freshUnique(now, random, index));
        });
      }
      if (payloads.length === 0)
        throw new PlantstoreError('USAGE', `${argv.name} accepts any JSON value, so there is no rule to break`);
      const text = renderPayloads(payloads, {
        format: argv.format,
        as: argv.as,
        list,
        target,
        baseUrl: argv['base-url'],
        invalid: argv.invalid,
        compact: generator.compactJson,
      });
      process.stdout.write(text);
      if (argv.explain) {
        const lines = payloads.map(
          (payload, index) =>
            `${index + 1}: ${'description' in payload ? payload.description : `valid ${target.name} (seed ${seed})`}\n`,
        );
        process.stderr.write(lines.join(''));
      }
      return 0;
    }),
};
