// Valid requests for the GET operations of any OpenAPI document, read from the raw document: the
// probe that tells a server is up (a GET without parameters) and a seeded sample of operations whose
// first requests show what compiling on first use costs. GETs only: no body, so every server gets the
// same valid request, and the work is routing, parameter checks and the (often largest) response.
import { createSeededRandom } from '../../src/example/seeded-random.ts';

type Json = Record<string, unknown>;
type Scalar = string | number | boolean;
type Headers = Record<string, string>;
type Parameter = { name: string; in: string; required?: boolean; schema?: Json; example?: unknown };

export interface BenchRequest {
  /** `GET /v1/customers/{customer}`: the operation, as the tables name it. */
  operation: string;
  method: string;
  /** The path with parameters filled in and the query string. */
  target: string;
  headers: Headers;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown): value is Scalar => ['string', 'number', 'boolean'].includes(typeof value);

/** Follows local `$ref`s (`#/components/...`), the only kind these documents use. */
function resolve(document: Json, value: unknown, depth = 0): unknown {
  if (!isObject(value) || typeof value.$ref !== 'string' || depth > 20) return value;
  if (!value.$ref.startsWith('#/')) return undefined;
  let node: unknown = document;
  for (const part of value.$ref.slice(2).split('/'))
    node = isObject(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return resolve(document, node, depth + 1);
}

/** A value the schema accepts, or undefined when this simple reading cannot make one. */
export function sampleValue(document: Json, rawSchema: unknown, example?: unknown): Scalar | undefined {
  const schema = resolve(document, rawSchema);
  if (isScalar(example)) return example;
  if (!isObject(schema)) return 'bench';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.find(isScalar);
  if (isScalar(schema.example)) return schema.example;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(alternatives)) return sampleValue(document, alternatives[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'integer' || type === 'number')
    return typeof schema.minimum === 'number' ? Math.max(1, schema.minimum) : 1;
  if (type === 'boolean') return true;
  if (type === 'array' || type === 'object') return undefined;
  return schema.format === 'date-time' ? '2024-01-01T00:00:00Z' : schema.format === 'date' ? '2024-01-01' : 'bench';
}

/** Headers and query parameters for the first security alternative this harness can meet. */
function credentials(document: Json, operation: Json): { headers: Headers; query: string[] } | undefined {
  const requirements = (operation.security ?? document.security ?? []) as Json[];
  if (requirements.length === 0) return { headers: {}, query: [] };
  const schemes = (isObject(document.components) && document.components.securitySchemes) || {};
  for (const requirement of requirements) {
    const [headers, query]: [Headers, string[]] = [{}, []];
    const usable = Object.keys(requirement).every((name) => {
      const s = resolve(document, (schemes as Json)[name]);
      if (!isObject(s)) return false;
      if (s.type === 'http' && String(s.scheme).toLowerCase() === 'basic')
        headers.authorization = 'Basic YmVuY2g6YmVuY2g=';
      else if (['http', 'oauth2', 'openIdConnect'].includes(String(s.type)))
        headers.authorization = 'Bearer bench-token';
      else if (s.type !== 'apiKey') return false;
      else if (s.in === 'header') headers[String(s.name).toLowerCase()] = 'bench-key';
      else if (s.in === 'query') query.push(`${encodeURIComponent(String(s.name))}=bench-key`);
      else if (s.in === 'cookie') headers.cookie = `${String(s.name)}=bench-key`;
      else return false;
      return true;
    });
    if (usable) return { headers, query };
  }
  return undefined;
}

/** A valid request for the GET of `path`, or undefined when a required part cannot be made simply. */
function requestFor(document: Json, path: string, pathItem: Json): BenchRequest | undefined {
  const operation = pathItem.get as Json;
  const parameters = new Map<string, Parameter>();
  for (const raw of [...((pathItem.parameters ?? []) as unknown[]), ...((operation.parameters ?? []) as unknown[])]) {
    const parameter = resolve(document, raw) as Parameter | undefined;
    if (parameter) parameters.set(`${parameter.in} ${parameter.name}`, parameter);
  }
  const auth = credentials(document, operation);
  if (!auth) return undefined;
  const headers: Headers = { ...auth.headers, accept: 'application/json' };
  const query = [...auth.query];
  let target = path;
  for (const p of parameters.values()) {
    if (!p.required && p.in !== 'path') continue;
    const value = sampleValue(document, p.schema, p.example);
    if (value === undefined || p.in === 'cookie') return undefined; // a required cookie parameter: rare, no cookie jar here
    if (p.in === 'path') target = target.replace(`{${p.name}}`, encodeURIComponent(String(value)));
    else if (p.in === 'query') query.push(`${encodeURIComponent(p.name)}=${encodeURIComponent(String(value))}`);
    else headers[p.name.toLowerCase()] = String(value);
  }
  if (target.includes('{')) return undefined; // a template variable no parameter declares
  target += query.length > 0 ? `?${query.join('&')}` : '';
  return { operation: `GET ${path}`, method: 'GET', target, headers };
}

/** Every GET operation this harness can send a valid request to, in document order. */
export const getRequests = (document: Json): BenchRequest[] =>
  Object.entries((document.paths ?? {}) as Json).flatMap(([path, raw]) => {
    const item = resolve(document, raw);
    const request = isObject(item) && isObject(item.get) ? requestFor(document, path, item) : undefined;
    return request ? [request] : [];
  });

/** How many operations the document declares (every method of every path). */
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
export const operationCount = (document: Json) =>
  Object.values((document.paths ?? {}) as Json)
    .filter(isObject)
    .reduce((n, item) => n + METHODS.filter((m) => isObject(item[m])).length, 0);

/** The probe: the first GET that needs no parameter (its request is the same on every try). */
export const probeRequest = (requests: readonly BenchRequest[]) =>
  requests.find((r) => !r.target.includes('?') && !r.operation.includes('{')) ?? requests[0];

/** `count` different requests (all if there are fewer), chosen with `seed` (mulberry32), never the probe's. */
export function sampleRequests(requests: readonly BenchRequest[], count: number, seed: number, probe?: BenchRequest) {
  const pool = requests.filter((r) => r.operation !== probe?.operation);
  const random = createSeededRandom(seed);
  // A partial Fisher-Yates shuffle: the first `count` places are a uniform sample.
  for (let i = 0; i < Math.min(count, pool.length); i++) {
    const j = i + Math.floor((random.next32() / 4294967296) * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, count);
}
