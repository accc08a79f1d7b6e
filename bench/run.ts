// `npm run bench`: reads the one command line (bench/lib/options.ts) and runs the suites it names,
// by default the Plant Store suite, then the MSW suite, then the large-document suite; or one suite
// alone (--msw-only, --large-only, --adapters, --unhappy-path, --proxy-only, --redis-only). Each
// suite prints figures and ratios against a peer measured in the same run, and writes them to
// bench/results/. It asserts nothing (benchmarks are not tests): the exit code is 0 unless the
// harness itself could not measure something.
import { runAdaptersBench } from './adapters/adapters.ts';
import { formatLargeReport, measureLargeDocuments } from './large-documents/measure.ts';
import { resolveBenchOptions, USAGE, type BenchOptions, type LargeOptions } from './lib/options.ts';
import { runMsw } from './msw/measure.ts';
import { runPlantStoreBench } from './plant-store/suite.ts';
import { runProxyBench } from './proxy/proxy.ts';
import { runRedisBench } from './redis/redis-state.ts';
import { runUnhappyPathBench } from './unhappy-path/unhappy-path.ts';

const say = (line: string) => process.stderr.write(`${line}\n`);

if (Number(process.versions.node.split('.')[0]) < 24) {
  say(
    `bench: needs Node 24 (this is ${process.version}); run it with \`npm run bench\`, which puts the project's Node 24 first on PATH.`,
  );
  process.exit(2);
}
let options: BenchOptions | 'help';
try {
  options = resolveBenchOptions(process.argv.slice(2));
} catch (error) {
  say(`bench: ${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (options === 'help') {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

/** The large-document suite; false when the harness could not run it (no registry, no tar). */
async function runLarge(large: LargeOptions): Promise<boolean> {
  try {
    process.stdout.write(`\n${formatLargeReport(await measureLargeDocuments(large, say))}\n`);
    return true;
  } catch (error) {
    say(`bench: the large-document suite stopped: ${(error as Error).message}`);
    return false;
  }
}

switch (options.part) {
  case 'adapters':
    process.exit(await runAdaptersBench(options, say));
  case 'unhappy-path':
    process.exit(await runUnhappyPathBench(options, say));
  case 'proxy':
    process.exit(await runProxyBench(options, say));
  case 'redis':
    process.exit(await runRedisBench(options));
  case 'large':
    process.exit(options.large && (await runLarge(options.large)) ? 0 : 1);
  case 'msw':
    process.exit(options.msw && (await runMsw(options.msw, say)) ? 0 : 1);
}
const broken = await runPlantStoreBench(options, say);
if (options.msw) {
  say('bench: MSW handlers, plantstore/msw against @mswjs/source');
  if (!(await runMsw(options.msw, say))) broken.push('the MSW suite (see above)');
}
if (options.large) {
  say('bench: large documents (Stripe, GitHub), plantstore against Prism');
  if (!(await runLarge(options.large))) broken.push('the large-document suite (see above)');
}
if (broken.length > 0) {
  say(`bench: the harness could not measure everything:\n  ${broken.join('\n  ')}`);
  process.exitCode = 1;
}
