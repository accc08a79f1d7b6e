// How fast `plantstore example NewPlant --count 100000 --format ndjson` makes its output,
// against json-schema-faker alone making and stringifying the same number of NewPlant values, in
// the same process. Figures and a ratio, no assertion (benchmarks are not tests).
// Run: node bench/plant-store/example-rate.ts [count]
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
  // Everything the command does after loading the document: generator, validator, output text.
  const generator = createExampleGenerator(spec);
  const target = resolveTarget(spec, 'NewPlant');
  const payloads = generator.examples(target, { seed: 1, count }).map((body) => ({ body }));
  return renderPayloads(payloads, {
    format: 'ndjson',
    as: 'body',
    list: true,
    target,
    baseUrl: '',
    invalid: false,
    compact: generator.compactJson,
  }).length;
}

function rate(run: () => number): number {
  const start = performance.now();
  run();
  return count / ((performance.now() - start) / 1000);
}

const rounds: Array<{ jsf: number; ours: number }> = [];
for (let round = 0; round < 3; round++) rounds.push({ jsf: rate(jsfAlone), ours: rate(ours) });
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const jsf = median(rounds.map((r) => r.jsf));
const mine = median(rounds.map((r) => r.ours));
const format = (n: number) => `${Math.round(n).toLocaleString('en-US')}/s`;
process.stdout.write(`NewPlant x ${count.toLocaleString('en-US')}, ndjson, median of 3 rounds\n`);
process.stdout.write(
  `  json-schema-faker alone: ${format(jsf)}\n  plantstore example:      ${format(mine)} (${((mine / jsf) * 100).toFixed(0)}% of json-schema-faker)\n`,
);
