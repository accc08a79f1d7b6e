// Valid requests for the operations of any OpenAPI document, read from the raw document: the probe
// that tells a server is up (a GET without required parameters) and a seeded sample of GET
// operations whose first requests show what lazy compilation costs. GETs only: their requests need
// no body, so every server gets the same valid request, and the work is the routing, the parameter
// checks and the response (the largest schemas of Stripe's and GitHub's documents are responses).
import { createSeededRandom } from '../../src/example/seeded-random.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

type Json = Record<string, unknown>;

export interface BenchRequest {
  /** `GET /v1/customers/{customer}`: the operation, as the tables name it. */
  operation: string;
  method: string;
  /** The path with parameters filled in and the query string. */
  target: string;
  headers: Record<string, string>;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Json;
  example?: unknown;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Follows local `$ref`s (`#/components/...`), the only kind these documents use. */
function resolve(document: Json, value: unknown, depth = 0): unknown {
  if (!isObject(value) || typeof value.$ref !== 'string' || depth > 20) return value;
  const ref = value.$ref;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const part of ref.slice(2).split('/'))
    node = isObject(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return resolve(document, node, depth + 1);
}

/** A value the schema accepts, or undefined when this simple reading cannot make one. */
export function sampleValue(
  document: Json,
  rawSchema: unknown,
  example?: unknown,
): string | number | boolean | undefined {
  const schema = resolve(document, rawSchema);
  if (['string', 'number', 'boolean'].includes(typeof example)) return example as string | number | boolean;
  if (!isObject(schema)) return 'bench';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const first = schema.enum.find((v) => ['string', 'number', 'boolean'].includes(typeof v));
    return first as string | number | boolean | undefined;
  }
  if (['string', 'number', 'boolean'].includes(typeof schema.example))
    return schema.example as string | number | boolean;
  const alternatives = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (Array.isArray(alternatives)) return sampleValue(document, alternatives[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'integer' || type === 'number')
    return typeof schema.minimum === 'number' ? Math.max(1, schema.minimum) : 1;
  if (type === 'boolean') return true;
  if (type === 'array' || type === 'object') return undefined;
  if (schema.format === 'date-time') return '2024-01-01T00:00:00Z';
  if (schema.format === 'date') return '2024-01-01';
  return 'bench';
}

/** Headers and query parameters for the first security alternative this harness can satisfy. */
function credentials(
  document: Json,
  operation: Json,
): { headers: Record<string, string>; query: string[] } | undefined {
  const requirements = (operation.security ?? document.security ?? []) as Json[];
  if (requirements.length === 0) return { headers: {}, query: [] };
  const schemes = (
    isObject(document.components) && isObject(document.components.securitySchemes)
      ? document.components.securitySchemes
      : {}
  ) as Json;
  for (const requirement of requirements) {
    const headers: Record<string, string> = {};
    const query: string[] = [];
    let usable = true;
    for (const name of Object.keys(requirement)) {
      const scheme = resolve(document, schemes[name]);
      if (!isObject(scheme)) usable = false;
      else if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic')
        headers.authorization = `Basic ${Buffer.from('bench:bench').toString('base64')}`;
      else if (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect')
        headers.authorization = 'Bearer bench-token';
      else if (scheme.type === 'apiKey' && scheme.in === 'header')
        headers[String(scheme.name).toLowerCase()] = 'bench-key';
      else if (scheme.type === 'apiKey' && scheme.in === 'query')
        query.push(`${encodeURIComponent(String(scheme.name))}=bench-key`);
      else if (scheme.type === 'apiKey' && scheme.in === 'cookie') headers.cookie = `${String(scheme.name)}=bench-key`;
      else usable = false;
    }
    if (usable) return { headers, query };
  }
  return undefined;
}

/** A valid request for the operation, or undefined when a required part cannot be made simply. */
function requestFor(document: Json, path: string, pathItem: Json, method: string): BenchRequest | undefined {
  const operation = pathItem[method] as Json;
  const byKey = new Map<string, Parameter>();
  for (const raw of [...((pathItem.parameters ?? []) as unknown[]), ...((operation.parameters ?? []) as unknown[])]) {
    const parameter = resolve(document, raw) as Parameter | undefined;
    if (parameter) byKey.set(`${parameter.in} ${parameter.name}`, parameter);
  }
  const auth = credentials(document, operation);
  if (!auth) return undefined;
  const headers: Record<string, string> = { ...auth.headers, accept: 'application/json' };
  const query = [...auth.query];
  let target = path;
  for (const parameter of byKey.values()) {
    if (!parameter.required && parameter.in !== 'path') continue;
    const value = sampleValue(document, parameter.schema, parameter.example);
    if (value === undefined) return undefined;
    if (parameter.in === 'path') target = target.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
    else if (parameter.in === 'query')
      query.push(`${encodeURIComponent(parameter.name)}=${encodeURIComponent(String(value))}`);
    else if (parameter.in === 'header') headers[parameter.name.toLowerCase()] = String(value);
    else return undefined; // a required cookie parameter: rare, and not worth a cookie jar here
  }
  if (target.includes('{')) return undefined; // a template variable no parameter declares
  return {
    operation: `${method.toUpperCase()} ${path}`,
    method: method.toUpperCase(),
    target: query.length > 0 ? `${target}?${query.join('&')}` : target,
    headers,
  };
}

/** Every GET operation this harness can send a valid request to, in document order. */
export function getRequests(document: Json): BenchRequest[] {
  const requests: BenchRequest[] = [];
  for (const [path, rawItem] of Object.entries((document.paths ?? {}) as Json)) {
    const pathItem = resolve(document, rawItem);
    if (!isObject(pathItem) || !isObject(pathItem.get)) continue;
    const request = requestFor(document, path, pathItem, 'get');
    if (request) requests.push(request);
  }
  return requests;
}

/** How many operations the document declares (every method of every path). */
export const operationCount = (document: Json) =>
  Object.values((document.paths ?? {}) as Json).reduce<number>(
    (n, item) => n + (isObject(item) ? METHODS.filter((m) => isObject(item[m])).length : 0),
    0,
  );

/** The probe: the first GET that needs no parameter (its request is the same on every try). */
export const probeRequest = (requests: readonly BenchRequest[]) =>
  requests.find((r) => !r.target.includes('?') && !r.operation.includes('{')) ?? requests[0];

/** A seeded uniform [0, 1), so that every run samples the same operations (the toolkit's mulberry32). */
function seeded(seed: number): () => number {
  const random = createSeededRandom(seed);
  return () => random.next32() / 4294967296;
}

/** `count` different requests (all if there are fewer), chosen with `seed`, never the probe's operation. */
export function sampleRequests(
  requests: readonly BenchRequest[],
  count: number,
  seed: number,
  probe?: BenchRequest,
): BenchRequest[] {
  const pool = requests.filter((r) => r.operation !== probe?.operation);
  const random = seeded(seed);
  // A partial Fisher-Yates shuffle: the first `count` places are a uniform sample.
  for (let i = 0; i < Math.min(count, pool.length); i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, count);
}
