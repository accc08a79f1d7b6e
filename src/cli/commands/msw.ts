// `plantstore msw`: writes the module that runs the mock as MSW handlers in a page or a test runner.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import type { Argv } from 'yargs';
import { PlantstoreError } from '../../errors.ts';
import { loadCommandSpec, runCommand, withSpecOption } from '../command-support.ts';

const builder = (y: Argv) =>
  withSpecOption(y)
    .option('out', {
      alias: 'o',
      type: 'string',
      demandOption: true,
      describe: 'The module to write (FILE.js, with FILE.d.ts beside it)',
    })
    .option('import-from', {
      type: 'string',
      default: 'plantstore/msw',
      describe: 'Where the module imports createHandlers from (a path, for a checkout of plantstore)',
    })
    .check((argv) => {
      if (!/\.m?js$/.test(argv.out))
        throw new PlantstoreError('USAGE', `--out must name a .js or .mjs file, got ${argv.out}`);
      return true;
    })
    .example(
      '$0 msw --spec openapi.yaml --out src/mocks/plantstore.js',
      'The module a Vite app imports: createHandlers() gives MSW handlers',
    );

type MswArgs = Awaited<ReturnType<typeof builder>['argv']>;

export const mswCommand = {
  command: 'msw',
  describe: 'Write a module that runs the mock as MSW handlers (browser or test runner)',
  builder,
  handler: (argv: MswArgs) =>
    runCommand(async () => {
      const { prepareDocument, preparedModule } = await import('../../msw/prepare.ts');
      const spec = await loadCommandSpec(argv);
      const prepared = await prepareDocument(spec);
      const command = `plantstore msw --spec ${relative(process.cwd(), spec.file)} --out ${argv.out}`;
      const { js, dts } = preparedModule(prepared, command, argv['import-from']);
      await mkdir(dirname(argv.out), { recursive: true });
      await writeFile(argv.out, js);
      await writeFile(argv.out.replace(/\.(m?)js$/, '.d.$1ts'), dts);
      process.stderr.write(`plantstore: wrote ${argv.out} (${Math.round(js.length / 1024)} KB) and its .d.ts\n`);
      return 0;
    }),
};
