// Maps (method, path) to an operation. Literal paths are a Map lookup; templated paths are
// regexes tried in an order where more literal segments win, as OpenAPI requires
// (/plants/mine before /plants/{id}).
import { pathDiscriminator, type PathDiscriminator } from './lenient.ts';
import type { Operation } from './operations.ts';

export type RouteResult =
  | { kind: 'operation'; operation: Operation; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

interface Route {
  template: string;
  pattern: RegExp;
  names: string[];
  literalSegments: number;
  /** Characters outside parameters: /v1/{name}:cancel is more specific than /v1/{name}. */
  literalChars: number;
  byMethod: Map<string, Operation>;
}

/** What a discriminated path key looks at besides the path: the headers, the query and a form body. */
export interface RouteHints {
  headers: Record<string, string | undefined>;
  query: string;
  body?: Uint8Array | string;
}

export type Router = (method: string, pathname: string, hints?: RouteHints) => RouteResult;

/** A literal text as a regular expression's source. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A path template as a regular expression's source: literal text as a URL carries it (wireForm),
 * each parameter one segment, in a group whose name is pushed onto `names`.
 */
export function templateSource(path: string, names: string[] = []): string {
  return path
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const param = /^\{([^}]+)\}$/.exec(part);
      if (!param) return escapeRegExp(wireForm(part));
      names.push(param[1]);
      return '([^/]+)';
    })
    .join('');
}

/** Builds the router once; each call is a Map lookup or a few regex tests. */
export function createRouter(operations: Operation[]): Router {
  const literal = new Map<string, Map<string, Operation>>();
  const templated = new Map<string, Route>();
  // AWS's `/#X-Amz-Target=S.Op` and Flickr's `/rest?method=m`: one wire path, told apart by a
  // header or a query (or form) value. Their literal wire form (`/%23X-Amz-Target=...`) still
  // routes too, so that a client that sends the key as written is answered.
  const discriminated = new Map<string, Array<{ operation: Operation; discriminator: PathDiscriminator }>>();
  for (const operation of operations) {
    const discriminator = pathDiscriminator(operation.path);
    if (discriminator && !discriminator.path.includes('{')) {
      const wire = wireForm(discriminator.path);
      const list = discriminated.get(wire) ?? [];
      list.push({ operation, discriminator });
      discriminated.set(wire, list);
    }
    if (!operation.path.includes('{')) {
      const wire = wireForm(operation.path);
      const methods = literal.get(wire) ?? new Map<string, Operation>();
      methods.set(operation.method, operation);
      literal.set(wire, methods);
      continue;
    }
    let route = templated.get(operation.path);
    if (!route) {
      const names: string[] = [];
      const source = templateSource(operation.path, names);
      route = {
        template: operation.path,
        pattern: new RegExp(`^${source}$`),
        names,
        literalSegments: operation.path.split('/').filter((s) => s && !s.includes('{')).length,
        literalChars: operation.path.replace(/\{[^}]+\}/g, '').length,
        byMethod: new Map(),
      };
      templated.set(operation.path, route);
    }
    route.byMethod.set(operation.method, operation);
  }
  const routes = [...templated.values()].sort(
    (a, b) => b.literalSegments - a.literalSegments || b.literalChars - a.literalChars,
  );
  const allowOf = (methods: Map<string, Operation>) => [...methods.keys()];
  // A literal path has no parameters: its answers are built once, frozen, and shared.
  const literalResults = new Map<string, { byMethod: Map<string, RouteResult>; notAllowed: RouteResult }>();
  for (const [path, methods] of literal) {
    const byMethod = new Map<string, RouteResult>();
    for (const [method, operation] of methods)
      byMethod.set(method, Object.freeze({ kind: 'operation', operation, params: Object.freeze({}) }) as RouteResult);
    literalResults.set(path, {
      byMethod,
      notAllowed: Object.freeze({ kind: 'method-not-allowed', allow: Object.freeze(allowOf(methods)) }) as RouteResult,
    });
  }

  return (method, pathname, hints) => {
    const exact = literalResults.get(pathname);
    if (exact) return exact.byMethod.get(method) ?? exact.notAllowed;
    const candidates = hints && discriminated.get(pathname);
    if (candidates) {
      const matching = chooseDiscriminated(candidates, hints);
      const operation = matching.find((candidate) => candidate.method === method);
      if (operation) return { kind: 'operation', operation, params: {} };
      if (matching.length > 0)
        return { kind: 'method-not-allowed', allow: matching.map((candidate) => candidate.method) };
    }
    let notAllowed: RouteResult | undefined;
    for (const route of routes) {
      const match = route.pattern.exec(pathname);
      if (!match) continue;
      const operation = route.byMethod.get(method);
      // Another template may match the same path with this method (/v1/{name} and /v1/{name}:cancel).
      if (!operation) {
        notAllowed ??= { kind: 'method-not-allowed', allow: allowOf(route.byMethod) };
        continue;
      }
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = safeDecode(match[i + 1]);
      });
      return { kind: 'operation', operation, params };
    }
    return notAllowed ?? { kind: 'not-found' };
  };
}

/** The operations whose discriminator the request carries (one per method, as a rule). */
function chooseDiscriminated(
  candidates: Array<{ operation: Operation; discriminator: PathDiscriminator }>,
  hints: RouteHints,
): Operation[] {
  let query: URLSearchParams | undefined;
  let form: URLSearchParams | undefined;
  const valueOf = (d: PathDiscriminator): string | undefined => {
    const header = hints.headers[d.name.toLowerCase()];
    if (header !== undefined) return header.trim();
    query ??= new URLSearchParams(hints.query);
    const inQuery = query.get(d.name);
    if (inQuery !== null) return inQuery;
    // AWS's query protocol sends Action=... in a form body.
    if (form === undefined) {
      const type = hints.headers['content-type'] ?? '';
      const text =
        /^application\/x-www-form-urlencoded/i.test(type) && hints.body !== undefined
          ? typeof hints.body === 'string'
            ? hints.body
            : new TextDecoder().decode(hints.body)
          : '';
      form = new URLSearchParams(text);
    }
    return form.get(d.name) ?? undefined;
  };
  return candidates
    .filter(({ discriminator }) => valueOf(discriminator) === discriminator.value)
    .map(({ operation }) => operation);
}

/**
 * A path's literal text as a request carries it: characters a URL path cannot hold (`#`, a
 * space, `?`, non-ASCII) percent-encoded, everything else as written. AWS's documents declare
 * paths such as `/#X-Amz-Target=...`, which a client can only send as `/%23X-Amz-Target=...`;
 * text a path can hold still matches only as written (`/%70lants` is not `/plants`).
 */
export function wireForm(text: string): string {
  // A `%` that starts no escape (`/100% sure`) is a character of the path, sent as %25.
  return text.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]|%(?![0-9A-Fa-f]{2})/gu, (char) => encodeURIComponent(char));
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
