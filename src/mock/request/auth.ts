// Authentication from the operation's security requirements (OpenAPI: any one requirement of the
// list suffices; every scheme inside one must hold). Bearer follows RFC 6750: the scheme name is
// case-insensitive, the token is a b64token.
import { B64TOKEN, PLAIN_BEARER } from './bearer-token.ts';
import type { SecurityScheme } from '../../document/operations.ts';
import type { HttpRequest } from '../../http/types.ts';

export type AuthResult = { ok: true } | { ok: false; message: string; challenge: string };

export interface AuthPolicy {
  /** Accepted bearer tokens; empty means any well-formed token. */
  tokens: ReadonlySet<string>;
}

// "Bearer <token>" and nothing else (PLAIN_BEARER) is a header the steps of checkCredentials accept, in one test.

/** Checks a request against the operation's security requirements. */
export function authenticate(security: SecurityScheme[][], request: HttpRequest, policy: AuthPolicy): AuthResult {
  if (security.length === 0 || security.some((requirement) => requirement.length === 0)) return OK;
  let firstFailure: AuthResult | undefined;
  for (const requirement of security) {
    const failure = firstFailureOf(requirement, request, policy);
    if (!failure) return OK;
    firstFailure ??= failure;
  }
  return firstFailure!;
}

const OK: AuthResult = Object.freeze({ ok: true });

/** The first scheme of one requirement that fails, or undefined when all hold (every one is checked, as before). */
function firstFailureOf(
  requirement: SecurityScheme[],
  request: HttpRequest,
  policy: AuthPolicy,
): AuthResult | undefined {
  let failure: AuthResult | undefined;
  for (const scheme of requirement) {
    const result = checkScheme(scheme, request, policy);
    if (!result.ok) failure ??= result;
  }
  return failure;
}

function checkScheme(scheme: SecurityScheme, request: HttpRequest, policy: AuthPolicy): AuthResult {
  if (scheme.type === 'http' && scheme.scheme === 'basic') return checkCredentials(request, 'Basic', undefined);
  if (scheme.type === 'apiKey') return checkApiKey(scheme, request);
  if (scheme.type === 'mutualTLS') return OK; // the transport's business, not the mock's
  // Digest, and any other http scheme (HOBA, Negotiate, AWS4-HMAC-SHA256): present credentials of that scheme.
  if (scheme.type === 'http' && scheme.scheme !== undefined && scheme.scheme !== 'bearer')
    return checkOtherScheme(request, scheme.scheme);
  // http bearer, oauth2 and openIdConnect all present a bearer token.
  return checkCredentials(request, 'Bearer', policy.tokens.size > 0 ? policy.tokens : undefined);
}

// RFC 7616 §3.4: a Digest response carries at least these parameters (Prism asks the same).
const DIGEST_PARAMETERS = ['username', 'realm', 'nonce', 'uri', 'response'];

/** Credentials of a scheme the mock cannot verify: present, of that scheme, and for Digest with its parameters. */
function checkOtherScheme(request: HttpRequest, scheme: string): AuthResult {
  const name = scheme === 'digest' ? 'Digest' : scheme.replace(/^./, (c) => c.toUpperCase());
  const challenge =
    scheme === 'digest'
      ? 'Digest realm="plantstore", nonce="plantstore-mock", qop="auth"'
      : `${name} realm="plantstore"`;
  const refuse = (message: string): AuthResult => ({ ok: false, message, challenge });
  const header = request.headers.authorization;
  if ((request.authorizationCount ?? 0) > 1) return refuse('more than one Authorization header; send exactly one');
  if (header === undefined || header.trim() === '')
    return refuse(`missing credentials: send "Authorization: ${name} <credentials>"`);
  const [given, ...rest] = header.trim().split(/\s+/);
  if (given.toLowerCase() !== scheme)
    return refuse(`the Authorization header uses the ${given} scheme; this operation expects ${name}`);
  const credentials = rest.join(' ');
  if (credentials === '') return refuse(`"${name}" without credentials`);
  if (scheme === 'digest') {
    const names = new Set([...credentials.matchAll(/([A-Za-z][\w-]*)\s*=/g)].map((m) => m[1].toLowerCase()));
    const missing = DIGEST_PARAMETERS.filter((parameter) => !names.has(parameter));
    if (missing.length > 0)
      return refuse(
        `Digest credentials without ${missing.join(', ')} (RFC 7616 asks for ${DIGEST_PARAMETERS.join(', ')})`,
      );
  }
  return OK;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** RFC 7617: Basic credentials are the base64 of `user-id:password`. */
function basicCredentialsProblem(token: string): string | undefined {
  if (!BASE64.test(token)) return 'Basic credentials that are not base64';
  if (!atob(token).includes(':')) return 'Basic credentials that do not decode to user:password';
  return undefined;
}

const UNKNOWN_TOKEN: AuthResult = Object.freeze({
  ok: false,
  message: 'the bearer token is not one the mock accepts (see --token)',
  challenge: 'Bearer error="invalid_token"',
});

/** Checks the Authorization header (a function per request would be garbage: this runs on every request). */
function checkCredentials(
  request: HttpRequest,
  scheme: 'Bearer' | 'Basic',
  accepted: ReadonlySet<string> | undefined,
): AuthResult {
  const header = request.headers.authorization;
  const count = request.authorizationCount ?? 0;
  // The common request, when any well-formed token will do: one test instead of the steps below.
  if (accepted === undefined && scheme === 'Bearer' && count <= 1 && header !== undefined && PLAIN_BEARER.test(header))
    return OK;
  // Node keeps only the first of two Authorization headers; which one counts would be a guess.
  if (count > 1) return refuse(scheme, 'more than one Authorization header; send exactly one');
  if (header === undefined || header.trim() === '')
    return refuse(
      scheme,
      `missing credentials: send "Authorization: ${scheme} <${scheme === 'Bearer' ? 'token' : 'credentials'}>"`,
    );
  const space = header.indexOf(' ');
  const given = space === -1 ? header : header.slice(0, space);
  const token = space === -1 ? '' : header.slice(space + 1).trim();
  if (given !== scheme && given.toLowerCase() !== scheme.toLowerCase())
    return refuse(scheme, `the Authorization header uses the ${given} scheme; this operation expects ${scheme}`);
  if (token === '') return refuse(scheme, `"${scheme}" without credentials; send "Authorization: ${scheme} <token>"`);
  if (!B64TOKEN.test(token))
    return refuse(scheme, `malformed ${scheme} credentials (spaces or characters a token cannot hold)`);
  const basicProblem = scheme === 'Basic' ? basicCredentialsProblem(token) : undefined;
  if (basicProblem !== undefined)
    return refuse(scheme, `${basicProblem}; send "Authorization: Basic " and the base64 of user:password`);
  return accepted !== undefined && !accepted.has(token) ? UNKNOWN_TOKEN : OK;
}

function refuse(scheme: 'Bearer' | 'Basic', message: string): AuthResult {
  return { ok: false, message, challenge: scheme === 'Bearer' ? 'Bearer' : 'Basic realm="plantstore"' };
}

function checkApiKey(scheme: SecurityScheme, request: HttpRequest): AuthResult {
  const name = scheme.parameterName ?? '';
  const fail = {
    ok: false,
    message: `missing API key: send it in the ${scheme.in} "${name}"`,
    challenge: `ApiKey name="${name}"`,
  } as const;
  if (scheme.in === 'header') return request.headers[name.toLowerCase()] ? { ok: true } : fail;
  if (scheme.in === 'query') return new URLSearchParams(request.query).get(name) ? { ok: true } : fail;
  const cookies = request.headers.cookie ?? '';
  // An empty value is no key, as in a header or the query.
  return cookies.split(';').some((c) => c.trim().startsWith(`${name}=`) && c.trim().length > name.length + 1)
    ? { ok: true }
    : fail;
}
