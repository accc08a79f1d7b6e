// First answers of many operations of one document, in process (no socket, no warm-up): what each
// operation's first request costs the mock engine (compiling its schemas, generating its answer),
// then a second request to the same operation. Prints the median, the maximum and how many took
// over 200 ms. It asserts nothing.
// Run: node bench/large-documents/first-answers.ts FILE [--sample N] [--seed S] [--only "POST /v1/x/{id}/pay,..."]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import { getRequests, sampleRequests, sampleValue, type BenchRequest } from '../lib/document-requests.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    sample: { type: 'string', default: '40' },
    seed: { type: 'string', default: '1' },
    only: { type: 'string', default: '' },
    extra: { type: 'string', default: '' },
  },
});
const file = positionals[0];
if (!file)
  throw new Error(
    'usage: node bench/large-documents/first-answers.ts FILE [--sample N] [--seed S] [--extra "POST /path,..."]',
  );
const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

/** A request with its path parameters filled, for an operation named "METHOD /path" (any method). */
function requestOf(name: string): BenchRequest {
  const [method, path] = name.split(' ');
  const target = path.replace(/\{[^}]+\}/g, () => String(sampleValue(raw, { type: 'string' })));
  return {
    operation: name,
    method,
    target,
    headers: {
      authorization: 'Bearer bench-token',
      accept: 'application/json',
      'content-type': 'application/x-www-form-urlencoded',
    },
  };
}

const started = performance.now();
const spec = await loadSpec(file);
const loaded = performance.now();
const engine = createMockEngine({ spec });
const ready = performance.now();
const all = getRequests(raw);
const chosen = values.only
  ? values.only.split(',').map(requestOf)
  : [
      ...sampleRequests(all, Number(values.sample), Number(values.seed)),
      ...(values.extra ? values.extra.split(',').map(requestOf) : []),
    ];

const send = async (request: BenchRequest) => {
  const [path, query = ''] = request.target.split('?');
  const t = performance.now();
  const response = await engine.handle({ method: request.method, path, query, headers: request.headers, body: '' });
  return { ms: performance.now() - t, status: response.status };
};
const firsts: number[] = [];
for (const request of chosen) {
  const first = await send(request);
  const second = await send(request);
  firsts.push(first.ms);
  console.log(
    `${first.ms.toFixed(0).padStart(6)} ms ${second.ms.toFixed(1).padStart(6)} ms  ${first.status}  ${request.operation}`,
  );
}
const sorted = [...firsts].sort((a, b) => a - b);
const median =
  sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
console.log(
  `load ${(loaded - started).toFixed(0)} ms, engine ${(ready - loaded).toFixed(0)} ms; ${firsts.length} operations: median ${median.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms, ${firsts.filter((ms) => ms > 200).length} over 200 ms`,
);
