// The credentials a generated request presents, from the operation's security requirements and
// the user's `--auth NAME=VALUE` flags (NAME is the document's security scheme name, as in
// Schemathesis' and Prism's per-scheme settings). Bearer-like schemes (http bearer, oauth2,
// openIdConnect) fall back to --token; basic (`user:pass`) and apiKey have no default, so an
// operation that needs them without --auth gets no case and the report says which flag to pass.
import { PlantstoreError } from '../../errors.ts';
import type { Operation, SecurityScheme } from '../../document/operations.ts';

/** Where credentials go in a request; values are literal text, or {{token}}. */
export interface CredentialParts {
  headers: Record<string, string>;
  query: Record<string, string>;
  cookies: Record<string, string>;
}

export type CredentialChoice = { ok: true; parts: CredentialParts } | { ok: false; reason: string };

const BEARER_LIKE = new Set(['oauth2', 'openIdConnect']);

const NONE = (): CredentialParts => ({ headers: {}, query: {}, cookies: {} });

/**
 * The credentials of the first security alternative the runner can satisfy ({} parts when the
 * operation is open); else why none can be, naming the flag to pass.
 */
export function credentialsFor(operation: Operation, auth: Record<string, string>): CredentialChoice {
  if (operation.security.length === 0 || operation.security.some((requirement) => requirement.length === 0))
    return { ok: true, parts: NONE() };
  const missing: string[] = [];
  for (const requirement of operation.security) {
    const parts = NONE();
    const lacking = requirement
      .map((scheme) => present(scheme, auth[scheme.name], parts))
      .filter((why): why is string => why !== undefined);
    if (lacking.length === 0) return { ok: true, parts };
    missing.push(lacking.join(' and '));
  }
  return { ok: false, reason: `needs credentials the run was not given: ${[...new Set(missing)].join('; or ')}` };
}

/** True when a request carries any credential. */
export function hasCredentials(parts: CredentialParts): boolean {
  return Object.keys(parts.headers).length + Object.keys(parts.query).length + Object.keys(parts.cookies).length > 0;
}

/** Adds one scheme's credentials to `parts`; returns what is missing, or undefined. */
function present(scheme: SecurityScheme, value: string | undefined, parts: CredentialParts): string | undefined {
  // The transport's business (--ca, a client certificate), not a header.
  if (scheme.type === 'mutualTLS') return undefined;
  if ((scheme.type === 'http' && scheme.scheme === 'bearer') || BEARER_LIKE.has(scheme.type)) {
    parts.headers.authorization = `Bearer ${value ?? '{{token}}'}`;
    return undefined;
  }
  if (scheme.type === 'http' && scheme.scheme === 'basic') {
    if (value === undefined) return `--auth ${scheme.name}=USER:PASSWORD (HTTP basic)`;
    parts.headers.authorization = `Basic ${basicCredentials(value)}`;
    return undefined;
  }
  if (scheme.type === 'apiKey' && scheme.parameterName && scheme.in) {
    if (value === undefined) return `--auth ${scheme.name}=KEY (API key in the ${scheme.in} "${scheme.parameterName}")`;
    const where = scheme.in === 'header' ? parts.headers : scheme.in === 'query' ? parts.query : parts.cookies;
    where[scheme.in === 'header' ? scheme.parameterName.toLowerCase() : scheme.parameterName] = value;
    return undefined;
  }
  // Digest and other HTTP schemes answer a challenge; a fixed header cannot.
  if (scheme.type === 'http' && value !== undefined) {
    parts.headers.authorization = `${scheme.scheme ?? ''} ${value}`.trim();
    return undefined;
  }
  return (
    `security scheme ${scheme.name} (${scheme.type}${scheme.scheme ? ` ${scheme.scheme}` : ''}) is not one ` +
    `the runner can present; pass its Authorization value with --auth ${scheme.name}=VALUE`
  );
}

/** RFC 7617: base64 of "user:password" in UTF-8. */
export function basicCredentials(userPass: string): string {
  return Buffer.from(userPass, 'utf8').toString('base64');
}

/** Parses `--auth NAME=VALUE` flags (the value may hold "=" and ":"); a malformed one is a USAGE error. */
export function parseAuthFlags(flags: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const flag of flags) {
    const equals = flag.indexOf('=');
    const name = equals === -1 ? '' : flag.slice(0, equals).trim();
    if (name === '' || flag.slice(equals + 1) === '') {
      // The flag may hold a secret: only its name goes into the message.
      throw new PlantstoreError(
        'USAGE',
        `--auth ${equals === -1 ? '(a value without "=")' : `${JSON.stringify(name)}=…`} is not NAME=VALUE`,
        [
          'NAME is a security scheme of the document. For example: --auth apiKeyAuth=KEY, --auth ' +
            'basicAuth=user:password, --auth bearerAuth=TOKEN',
        ],
      );
    }
    out[name] = flag.slice(equals + 1);
  }
  return out;
}

/**
 * Checks --auth against the document: every NAME a security scheme, basic values USER:PASSWORD; a USAGE error listing
 * the schemes otherwise.
 */
export function checkAuth(auth: Record<string, string>, schemes: Record<string, unknown>): void {
  const names = Object.keys(schemes);
  const known =
    names.length === 0
      ? 'The document declares no security schemes.'
      : `The document's security schemes: ` +
        `${names.map((name) => `${name} (${describeScheme(schemes[name])})`).join(', ')}.`;
  for (const [name, value] of Object.entries(auth)) {
    if (!Object.hasOwn(schemes, name))
      throw new PlantstoreError('USAGE', `--auth ${name}: the document has no security scheme named '${name}'`, [
        known,
      ]);
    const scheme = schemes[name] as { type?: unknown; scheme?: unknown };
    if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic' && !value.includes(':')) {
      throw new PlantstoreError('USAGE', `--auth ${name}: HTTP basic credentials are USER:PASSWORD`, [
        `For example: --auth ${name}=alice:secret`,
      ]);
    }
  }
}

/** The text a report must never show for each --auth value: the value, and a basic scheme's base64 form. */
export function authSecrets(auth: Record<string, string>): string[] {
  return Object.values(auth).flatMap((value) => [value, basicCredentials(value)]);
}

function describeScheme(value: unknown): string {
  const scheme = (value ?? {}) as { type?: unknown; scheme?: unknown };
  return scheme.type === 'http' ? `http ${String(scheme.scheme)}` : String(scheme.type);
}

/** The request with the credentials added: headers, query values and a Cookie header. */
export function withCredentials<
  T extends {
    headers?: Record<string, string>;
    query?: Record<string, string | number | boolean | Array<string | number | boolean>>;
  },
>(request: T, parts: CredentialParts): T {
  const headers = { ...request.headers, ...parts.headers };
  const cookies = Object.entries(parts.cookies).map(([name, value]) => `${name}=${value}`);
  if (cookies.length > 0) headers.cookie = [headers.cookie, ...cookies].filter(Boolean).join('; ');
  const query = Object.keys(parts.query).length > 0 ? { ...request.query, ...parts.query } : request.query;
  return { ...request, headers, ...(query && { query }) };
}
