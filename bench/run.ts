// `npm run bench [-- SUITE ...]`: runs the suites named on the one command line (bench/lib/options.ts),
// by default the Plant Store, MSW and the large documents. Each prints figures and ratios against a
// peer measured in the same run; nothing is asserted (exit 1 only when the harness itself failed).
import { runLargeDocuments } from './large-documents/large-documents.ts';
import { findWrk } from './lib/load.ts';
import { optionsFor, resolveBenchOptions, USAGE, type BenchOptions, type SuiteName } from './lib/options.ts';
import { runMsw } from './msw/msw.ts';
import { runPlantStore } from './plant-store/plant-store.ts';
import { runProxy } from './proxy/proxy.ts';
import { runRedisBench } from './redis/redis-state.ts';

const say = (line: string) => process.stderr.write(`${line}\n`);
if (Number(process.versions.node.split('.')[0]) < 24) {
  say(`bench: needs Node 24 (this is ${process.version}); \`npm run bench\` puts the project's Node 24 first on PATH.`);
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
if (!findWrk()) {
  say('bench: wrk is not on PATH: install it (apt-get install wrk, brew install wrk) and run again');
  process.exit(2);
}

/** Each suite prints its report; a throw means the harness could not measure it. */
const suites: Record<SuiteName, (options: BenchOptions, say: (line: string) => void) => Promise<void>> = {
  'plant-store': runPlantStore,
  msw: runMsw,
  'large-documents': runLargeDocuments,
  proxy: runProxy,
  redis: async (o) => {
    if ((await runRedisBench(o)) !== 0) throw new Error('the Redis suite exited 1');
  },
};
const broken: string[] = [];
for (const name of options.suites) {
  say(`bench: ${name}`);
  try {
    await suites[name](optionsFor(options, name), say);
  } catch (error) {
    say(`bench: the ${name} suite stopped: ${(error as Error).stack ?? error}`);
    broken.push(name);
  }
}
if (broken.length > 0) say(`bench: the harness could not measure everything: ${broken.join(', ')} (see above)`);
process.exit(broken.length > 0 ? 1 : 0);
