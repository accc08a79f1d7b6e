import type { Argv } from 'yargs';
import { REPORTER_NAMES, type ReporterName } from '../../runner/reporters/index.ts';
import { runCommand } from '../command-support.ts';
import { exitCodeOfRun, reportersFor } from '../run-reporters.ts';

const builder = (y: Argv) =>
  y
    .positional('files', {
      type: 'string',
      array: true,
      describe: "Every shard's --json report (verify --shard i/n --json FILE)",
    })
    .option('reporter', {
      choices: REPORTER_NAMES,
      default: 'console' as ReporterName,
      describe: 'What to print on stdout',
    })
    .option('junit', { type: 'string', describe: 'Write the whole run as one JUnit XML report to FILE' })
    .option('json', { type: 'string', describe: 'Write the whole run as one JSON report to FILE' })
    .option('html', { type: 'string', describe: 'Write the whole run as one HTML page to FILE' })
    .example(
      '$0 merge-reports reports/shard-*.json --junit out/verify.xml --html out/verify.html',
      'Join the reports of a 4-job CI matrix',
    )
    .epilogue(
      "Exit codes: as the whole run's verify would: 0 every case passed; 1 a case failed; 3 a shard's server " +
        'stopped answering; 2 the files are not the shards of one run (a shard missing or twice, another seed, ' +
        'document or plantstore version).',
    );

type MergeArgs = Awaited<ReturnType<typeof builder>['argv']>;

export const mergeReportsCommand = {
  command: 'merge-reports <files...>',
  describe: 'Join the JSON reports of the shards of one verify run (--shard i/n) into one JUnit, JSON and HTML report',
  builder,
  handler: (argv: MergeArgs) =>
    runCommand(async () => {
      const { mergeReports, writeMerged } = await import('../../runner/index.ts');
      const merged = mergeReports((argv.files ?? []).map(String));
      writeMerged(merged, reportersFor(argv, false));
      return exitCodeOfRun(merged.report);
    }),
};
