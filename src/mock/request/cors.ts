// CORS for frontends calling from another origin: preflights are answered for every path, and
// every answer reflects the Origin with credentials allowed (a wildcard would forbid credentials).
import type { HttpRequest, HttpAnswer } from '../../http/types.ts';

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS';
const ALLOWED_HEADERS = 'Authorization, Content-Type, Prefer, Accept';
// Headers a frontend may need to read from an error answer.
const EXPOSED_HEADERS = 'WWW-Authenticate, Allow, Location, Content-Length';

export function isPreflight(request: HttpRequest): boolean {
  return (
    request.method === 'OPTIONS' &&
    request.headers.origin !== undefined &&
    request.headers['access-control-request-method'] !== undefined
  );
}

export function preflightResponse(request: HttpRequest): HttpAnswer {
  return {
    status: 204,
    headers: {
      ...corsHeaders(request.headers.origin ?? '*'),
      'access-control-allow-methods': ALLOWED_METHODS,
      // Echo what the browser asks for (custom headers too), else the usual pair plus Prefer.
      'access-control-allow-headers': request.headers['access-control-request-headers'] || ALLOWED_HEADERS,
      'access-control-max-age': '600',
    },
  };
}

export function corsHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': EXPOSED_HEADERS,
    vary: 'Origin',
  };
}
