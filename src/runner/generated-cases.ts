// Cases built from the document (--generate N --seed S). Per operation: N valid request bodies
// from the example generator, which must be accepted (2xx); then negative ones, which must be
// rejected with a 4xx: each mutation the generator makes (a required field dropped, a field of
// the wrong type, a value out of range, malformed JSON) and a request without credentials. The
// same seed gives the same cases. Stateful sequences (create, read, list, delete) follow, see
// generated-sequences.ts. The example module loads json-schema-faker, so it is imported
// only when cases are generated.
import type { JsonValue } from '../json/exact-json.ts';
import type { LoadedSpec } from '../spec/load-spec.ts';
import { jsonContent, type Operation } from '../spec/operations.ts';
import type { Validators } from '../validation/validator.ts';
import type { Case, FixtureRequest } from './fixture.ts';
import { authHeaders, withUniqueKey } from './generated-request-parts.ts';
import { generateSequences } from './generated-sequences.ts';

export interface GenerateOptions {
  /** Valid bodies per operation. */
  count: number;
  seed: number;
}

/** What the runner needs from an example generator (src/example/ provides it). */
export interface CaseSource {
  valid(operation: Operation, count: number, seed: number): JsonValue[];
  invalid(operation: Operation, seed: number): Array<{ description: string } & ({ body: JsonValue } | { rawBody: string })>;
}

/** Builds the generated cases of a document. */
export async function generateCases(spec: LoadedSpec, operations: Operation[], validators: Validators, options: GenerateOptions, source?: CaseSource): Promise<Case[]> {
  if (options.count <= 0) return [];
  const cases = source ?? (await exampleCaseSource(spec, validators));
  const out: Case[] = [];
  for (const operation of operations) out.push(...casesFor(operation, cases, validators, options));
  out.push(...generateSequences(spec, operations, validators, options, cases));
  return out;
}

/** The example module behind the CaseSource interface. */
async function exampleCaseSource(spec: LoadedSpec, validators: Validators): Promise<CaseSource> {
  const { createExampleGenerator } = await import('../example/index.ts');
  const generator = createExampleGenerator(spec, validators);
  const targetOf = (operation: Operation) => {
    const media = jsonContent(operation.requestBody?.contents ?? [])!;
    return { name: operation.id, kind: 'operation' as const, pointer: media.schemaPointer, schema: media.schema!, operation, mediaType: media.mediaType };
  };
  return {
    valid: (operation, count, seed) => generator.examples(targetOf(operation), { seed, count }),
    invalid: (operation, seed) => generator.invalidExamples(targetOf(operation), { seed, malformed: true }),
  };
}

function casesFor(operation: Operation, source: CaseSource, validators: Validators, options: GenerateOptions): Case[] {
  // Path parameters would need existing resources to be accepted; those operations are left to fixtures.
  if (operation.path.includes('{') || operation.parameters.some((p) => p.required)) return [];
  const media = jsonContent(operation.requestBody?.contents ?? []);
  if (operation.requestBody && (!media || media.schema === undefined)) return [];
  const auth = authHeaders(operation);
  if (auth === undefined) return [];
  const base = `generated/${operation.id}`;
  const request = (headers: Record<string, string>, body?: { body: JsonValue } | { rawBody: string }): FixtureRequest => ({
    method: operation.method,
    path: operation.path,
    headers: body ? { ...headers, 'content-type': media!.mediaType } : headers,
    ...body,
  });
  const make = (id: string, name: string, req: FixtureRequest, status: '2xx' | '4xx'): Case => ({ id: `${base}/${id}`, name: `${operation.id}: ${name}`, source: 'generated', steps: [{ name: 'request', request: req, expect: { status } }] });
  const out: Case[] = [];
  if (!media) {
    out.push(make('valid-1', 'accepts a request (generated)', request(auth), '2xx'));
    if (Object.keys(auth).length > 0) out.push(make('no-credentials', 'rejects a request without credentials', request({}), '4xx'));
    return out;
  }
  const check = validators.at(media.schemaPointer);
  const valid = source.valid(operation, options.count, options.seed);
  valid.forEach((body, index) => {
    out.push(make(`valid-${index + 1}`, `accepts generated example ${index + 1} (seed ${options.seed})`, request(auth, { body: withUniqueKey(body, check) }), '2xx'));
  });
  source.invalid(operation, options.seed).forEach((negative, index) => {
    const payload = 'rawBody' in negative ? { rawBody: negative.rawBody } : { body: negative.body };
    out.push(make(`invalid-${index + 1}`, `rejects ${negative.description}`, request(auth, payload), '4xx'));
  });
  if (Object.keys(auth).length > 0 && valid.length > 0) {
    out.push(make('no-credentials', 'rejects a valid body without credentials', request({}, { body: withUniqueKey(valid[0], check) }), '4xx'));
  }
  return out;
}
