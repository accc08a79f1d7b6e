// What making examples costs: `plantstore example NewPlant --count N --format ndjson`'s work after
// loading the document (generator, validator, output text) against json-schema-faker alone making
// and stringifying as many NewPlant values, in one process, three rounds interleaved; the medians
// and their ratio. Run: node bench/plant-store/example-rate.ts [count]
import { generateSync, type JsonSchema } from 'json-schema-faker';
import { createExampleGenerator } from '../../src/example/example-generator.ts';
import { renderPayloads } from '../../src/example/render-payloads.ts';
import { resolveTarget } from '../../src/document/resolve-target.ts';
import { loadSpec } from '../../src/document/load-spec.ts';

const count = Number(process.argv[2] ?? 100_000);
const spec = await loadSpec();

function jsfAlone(): number {
  const schema = (spec.document.components?.schemas as Record<string, JsonSchema>).NewPlant;
  let lines = '';
  for (let seed = 1; seed <= count; seed++) lines += `${JSON.stringify(generateSync(schema, { seed }))}\n`;
  return lines.length;
}

function ours(): number {
  const generator = createExampleGenerator(spec);
  const target = resolveTarget(spec, 'NewPlant');
  const payloads = generator.examples(target, { seed: 1, count }).map((body) => ({ body }));
  const settings = { format: 'ndjson', as: 'body', list: true, target, baseUrl: '', invalid: false } as const;
  return renderPayloads(payloads, { ...settings, compact: generator.compactJson }).length;
}

const rate = (run: () => number) => {
  const start = performance.now();
  run();
  return count / ((performance.now() - start) / 1000);
};
const rounds = [0, 1, 2].map(() => ({ jsf: rate(jsfAlone), ours: rate(ours) }));
const median = (values: number[]) => values.sort((a, b) => a - b)[1];
const [jsf, mine] = [median(rounds.map((r) => r.jsf)), median(rounds.map((r) => r.ours))];
const perSecond = (n: number) => `${Math.round(n).toLocaleString('en-US')}/s`;
process.stdout.write(
  `example generator, NewPlant x ${count.toLocaleString('en-US')} ndjson in one process, median of 3 rounds:\n` +
    `  json-schema-faker alone ${perSecond(jsf)}; plantstore example ${perSecond(mine)}: ${(mine / jsf).toFixed(2)}x json-schema-faker\n`,
);
