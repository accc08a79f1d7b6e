import type { Argv } from 'yargs';
import { checkSpec, formatSpecSummary } from '../../mock/admin/check-spec.ts';
import { loadAuditedSpec } from '../../example/load-audited-spec.ts';
import { listOperations } from '../../document/operations.ts';
import { buildResourceMap } from '../../document/resources.ts';
import { formatResourceMap } from '../../document/resource-report.ts';
import { renderSpec, SPEC_FORMATS, type SpecFormat } from '../../document/render-spec.ts';
import { runCommand, withSpecOption } from '../command-support.ts';

const builder = (y: Argv) =>
  withSpecOption(y)
    .option('dereference', { type: 'boolean', describe: 'Inline every $ref (the default; circular ones stay $refs)' })
    .option('bundle', { type: 'boolean', describe: 'One file: external $refs pulled in, internal $refs kept' })
    .conflicts('dereference', 'bundle')
    .option('format', { alias: 'f', choices: SPEC_FORMATS, default: 'json' as SpecFormat, describe: 'Output format' })
    .option('check', {
      type: 'boolean',
      default: false,
      describe: 'Validate and print a summary (operations, schemas, security schemes, warnings) instead',
    })
    .option('resources', {
      type: 'boolean',
      default: false,
      describe:
        'Print the resource map instead: each collection, item path, key, list envelope, paging, encodings, ' +
        'field mapping, kept or not',
    })
    .option('strict', {
      type: 'boolean',
      default: false,
      describe: 'Refuse the document for any warning (exit 2), not only for what the official OpenAPI schema refuses',
    })
    .example('$0 spec --format yaml', 'The built-in document, dereferenced, as YAML')
    .example('$0 spec --spec api.yaml --bundle > bundled.json', 'Bundle a multi-file document into one')
    .example('$0 spec --spec api.yaml --check', 'Is it valid, and what does it leave out?')
    .example('$0 spec --spec api.yaml --resources', 'Which collections does the mock keep state for, and how?');

type SpecArgs = Awaited<ReturnType<typeof builder>['argv']>;

/** `plantstore spec`: the loaded document, or with --check its summary and warnings. */
export const specCommand = {
  command: 'spec',
  describe: 'Print the loaded OpenAPI document (dereferenced or bundled), or check it',
  builder,
  handler: (argv: SpecArgs) =>
    runCommand(async () => {
      const spec = await loadAuditedSpec(argv.spec, { remoteRefs: argv['remote-refs'], strict: argv.strict });
      if (argv.check) process.stdout.write(formatSpecSummary(checkSpec(spec)));
      else if (argv.resources)
        process.stdout.write(formatResourceMap(buildResourceMap(listOperations(spec), spec.document).resources));
      else
        process.stdout.write(
          await renderSpec(spec, { mode: argv.bundle ? 'bundle' : 'dereference', format: argv.format }),
        );
      return 0;
    }),
};
