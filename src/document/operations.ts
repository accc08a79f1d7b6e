// Turns a dereferenced OpenAPI document into the operation list every product works from.
// Plain data, computed once at start-up; nothing here knows about plants.
import { escapePointerToken } from './json-pointer.ts';
import { type LoadedSpec } from './loaded-spec.ts';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export type JsonSchema = Record<string, unknown> | boolean;

export interface MediaContent {
  mediaType: string;
  schema?: JsonSchema;
  /** Where the schema sits in the document, for compiled validators and messages. */
  schemaPointer: string;
  /** Named examples (`examples`), plus `example` under the name 'default'. */
  examples: Map<string, unknown>;
}

export interface ResponseSpec {
  /** '200', '4XX' or 'default', as the document writes it. */
  status: string;
  description: string;
  contents: MediaContent[];
}

export interface SecurityScheme {
  name: string;
  type: string;
  /** For type http: the scheme, lower-cased ('bearer', 'basic'). */
  scheme?: string;
  /** For type apiKey: where and under which name. */
  in?: 'header' | 'query' | 'cookie';
  parameterName?: string;
}

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema?: JsonSchema;
  schemaPointer: string;
}

export interface Operation {
  /** operationId, or "METHOD /path" when the document gives none. */
  id: string;
  method: string;
  path: string;
  pointer: string;
  parameters: ParameterSpec[];
  requestBody?: { required: boolean; contents: MediaContent[] };
  responses: ResponseSpec[];
  /** Alternatives (any one suffices); each lists schemes that must all hold. [] means open. */
  security: SecurityScheme[][];
}

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Lists the operations of a loaded document, in document order. */
/**
 * The header and query names (lower case) under which the operations' apiKey schemes send their keys: secrets, like
 * Authorization.
 */
export function apiKeyNames(operations: Operation[]): Set<string> {
  const names = new Set<string>();
  for (const operation of operations)
    for (const scheme of operation.security.flat())
      if (scheme.type === 'apiKey' && scheme.parameterName) names.add(scheme.parameterName.toLowerCase());
  return names;
}

export function listOperations(spec: LoadedSpec): Operation[] {
  const { document } = spec;
  const schemes = isObj(document.components?.securitySchemes) ? (document.components.securitySchemes as Obj) : {};
  const operations: Operation[] = [];
  for (const [path, pathItem] of Object.entries(document.paths ?? {})) {
    if (!isObj(pathItem)) continue;
    const pathPointer = `#/paths/${escapePointerToken(path)}`;
    const shared = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
    for (const method of HTTP_METHODS) {
      const op = pathItem[method];
      if (!isObj(op)) continue;
      const pointer = `${pathPointer}/${method}`;
      operations.push({
        id: typeof op.operationId === 'string' ? op.operationId : `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pointer,
        parameters: mergeParameters(shared, Array.isArray(op.parameters) ? op.parameters : [], pathPointer, pointer),
        requestBody: readRequestBody(op.requestBody, `${pointer}/requestBody`),
        responses: readResponses(op.responses, `${pointer}/responses`),
        security: readSecurity(op.security ?? document.security ?? [], schemes),
      });
    }
  }
  return operations;
}

function mergeParameters(shared: unknown[], own: unknown[], pathPointer: string, opPointer: string): ParameterSpec[] {
  const byKey = new Map<string, ParameterSpec>();
  const add = (list: unknown[], base: string) =>
    list.forEach((param, index) => {
      if (!isObj(param) || typeof param.name !== 'string') return;
      const where = param.in as ParameterSpec['in'];
      byKey.set(`${where}:${param.name}`, {
        name: param.name,
        in: where,
        required: param.required === true || where === 'path',
        schema: param.schema as JsonSchema | undefined,
        schemaPointer: `${base}/parameters/${index}/schema`,
      });
    });
  add(shared, pathPointer); // operation-level parameters override path-level ones
  add(own, opPointer);
  return [...byKey.values()];
}

function readContents(content: unknown, pointer: string): MediaContent[] {
  if (!isObj(content)) return [];
  return Object.entries(content).map(([mediaType, media]) => {
    const m = isObj(media) ? media : {};
    const examples = new Map<string, unknown>();
    if (isObj(m.examples)) {
      for (const [name, example] of Object.entries(m.examples)) {
        if (isObj(example) && 'value' in example) examples.set(name, example.value);
      }
    }
    if ('example' in m) examples.set('default', m.example);
    return {
      mediaType: mediaType.toLowerCase(),
      schema: m.schema as JsonSchema | undefined,
      schemaPointer: `${pointer}/${escapePointerToken(mediaType)}/schema`,
      examples,
    };
  });
}

function readRequestBody(body: unknown, pointer: string): Operation['requestBody'] {
  if (!isObj(body)) return undefined;
  return { required: body.required === true, contents: readContents(body.content, `${pointer}/content`) };
}

function readResponses(responses: unknown, pointer: string): ResponseSpec[] {
  if (!isObj(responses)) return [];
  return Object.entries(responses).map(([status, response]) => {
    const r = isObj(response) ? response : {};
    return {
      status: status.toUpperCase() === 'DEFAULT' ? 'default' : status.toUpperCase(),
      description: typeof r.description === 'string' ? r.description : '',
      contents: readContents(r.content, `${pointer}/${escapePointerToken(status)}/content`),
    };
  });
}

function readSecurity(requirements: unknown, schemes: Obj): SecurityScheme[][] {
  if (!Array.isArray(requirements)) return [];
  return requirements.filter(isObj).map((requirement) =>
    Object.keys(requirement).map((name) => {
      const scheme = isObj(schemes[name]) ? (schemes[name] as Obj) : {};
      return {
        name,
        type: String(scheme.type ?? 'unknown'),
        scheme: typeof scheme.scheme === 'string' ? scheme.scheme.toLowerCase() : undefined,
        in: scheme.in as SecurityScheme['in'],
        parameterName: typeof scheme.name === 'string' ? scheme.name : undefined,
      };
    }),
  );
}

/**
 * Finds the declared response for a status: exact code, then its class (4XX), then default. Not
 * cached here: the mock's per-request callers (the responder's answer plans, the error bodies) each
 * keep what they derive from it per operation and status, through perOperationStatus.
 */
export function findResponse(operation: Operation, status: number): ResponseSpec | undefined {
  const exact = String(status);
  const range = `${exact[0]}XX`;
  return (
    operation.responses.find((r) => r.status === exact) ??
    operation.responses.find((r) => r.status === range) ??
    operation.responses.find((r) => r.status === 'default')
  );
}

/**
 * `derive`, kept per operation and status: what the mock works out from the document for an answer
 * (its plan, an error's content) is fixed by the document, so each pair is worked out once.
 */
export function perOperationStatus<T>(
  derive: (operation: Operation, status: number) => T,
): (operation: Operation, status: number) => T {
  const cache = new WeakMap<Operation, Map<number, T>>();
  return (operation, status) => {
    let byStatus = cache.get(operation);
    if (!byStatus) {
      byStatus = new Map();
      cache.set(operation, byStatus);
    }
    const known = byStatus.get(status);
    // One lookup on the common path; `has` only tells a kept undefined from none kept yet.
    if (known !== undefined || byStatus.has(status)) return known as T;
    const derived = derive(operation, status);
    byStatus.set(status, derived);
    return derived;
  };
}

const statusCache = new WeakMap<Operation, number[]>();

/** The declared statuses as numbers ('4XX' counts as 400, 'default' is left out); computed once per operation. */
export function declaredStatuses(operation: Operation): number[] {
  let statuses = statusCache.get(operation);
  if (!statuses) {
    statuses = computeStatuses(operation);
    statusCache.set(operation, statuses);
  }
  return statuses;
}

function computeStatuses(operation: Operation): number[] {
  return operation.responses.flatMap((r) =>
    /^\d{3}$/.test(r.status) ? [Number(r.status)] : /^\dXX$/.test(r.status) ? [Number(r.status[0]) * 100] : [],
  );
}

/** The JSON content of a set of media types: application/json first, then any +json type. */
export function jsonContent(contents: MediaContent[]): MediaContent | undefined {
  return contents.find((c) => c.mediaType === 'application/json') ?? contents.find((c) => isJsonMediaType(c.mediaType));
}

export function isJsonMediaType(mediaType: string): boolean {
  if (mediaType === 'application/json') return true; // nearly every request: no split, no regex
  const essence = mediaType.split(';')[0].trim().toLowerCase();
  return (
    essence === 'application/json' ||
    /^[a-z]+\/[^;]*\+json$/.test(essence) ||
    essence === '*/*' ||
    essence === 'application/*'
  );
}

/**
 * The status to answer a failure with: the first candidate the operation declares (exactly or by
 * its class, 4XX), else the first candidate (an honest HTTP status, if undeclared; --declared-only
 * maps it later). A declared 404 never answers a validation failure: its meaning is specific.
 */
export function preferDeclared(operation: Operation, candidates: number[]): number {
  const declared = declaredStatuses(operation);
  const covered = (status: number) =>
    declared.includes(status) || operation.responses.some((r) => r.status === `${String(status)[0]}XX`);
  return candidates.find(covered) ?? candidates[0];
}
