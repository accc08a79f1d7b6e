// Keeps secrets out of reports, by where they are: a credential header (Authorization, Cookie,
// an apiKey scheme's header) keeps its scheme and loses its value, a credential query parameter
// (an apiKey scheme's, access_token, ...) loses its value, the target URL loses its password,
// and wherever a fixture wrote {{token}} the report shows [redacted] (run-case.ts substitutes the
// step a second time for the report). The token's text is never searched for in ordinary text:
// a one-letter token would match inside every word. A secret long enough not to be mistaken for
// a word (MIN_ECHOED_SECRET) is still replaced wherever it occurs, because a server may echo it
// back in a body or a message.
import { CREDENTIAL_QUERY, isCredentialHeader } from '../../http/credential-headers.ts';
import type { SecurityScheme } from '../../document/operations.ts';

export { isCredentialHeader };
export const REDACTED = '[redacted]';

/** Secrets at least this long are replaced wherever they occur, also inside other text. */
const MIN_ECHOED_SECRET = 8;

export type Redactor = <T>(value: T) => T;

/** Header and query names (lower case) that carry credentials in this document, beyond the usual ones. */
export interface CredentialNames {
  headers: ReadonlySet<string>;
  query: ReadonlySet<string>;
}

/** The names the document's apiKey schemes put their keys under. */
export function credentialNames(schemes: Iterable<SecurityScheme>): CredentialNames {
  const headers = new Set<string>();
  const query = new Set<string>();
  for (const scheme of schemes) {
    if (scheme.type !== 'apiKey' || !scheme.parameterName) continue;
    if (scheme.in === 'header') headers.add(scheme.parameterName.toLowerCase());
    if (scheme.in === 'query') query.add(scheme.parameterName.toLowerCase());
  }
  return { headers, query };
}

const NO_NAMES: CredentialNames = { headers: new Set(), query: new Set() };

/** A redactor that replaces the long secrets (empty and short ones are ignored) wherever they occur. */
export function createRedactor(secrets: Array<string | undefined>): Redactor {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_ECHOED_SECRET) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(JSON.stringify(secret).slice(1, -1)); // as written inside a JSON string
  }
  // Longest first, so a secret that contains another is replaced whole.
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  const redactString = (text: string) => ordered.reduce<string>((out, form) => out.replaceAll(form, REDACTED), text);
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return redactString(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        Object.defineProperty(out, redactString(key), {
          value: walk(item),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return value;
  };
  if (ordered.length === 0) return <T>(value: T) => value;
  return <T>(value: T) => walk(value) as T;
}

/**
 * Headers fit for a report: credential values become "<scheme> [redacted]". `keep` says which values may stay (a
 * marked {{token}}).
 */
export function redactHeaders(
  headers: Record<string, string>,
  names: CredentialNames = NO_NAMES,
  keep: (value: string) => boolean = () => false,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const secret = isCredentialHeader(name) || names.headers.has(name.toLowerCase());
    // A bare scheme ("Bearer" alone) holds no credential, and is what a reader needs to see.
    if (!secret || /^(bearer|basic)$/i.test(value.trim()) || keep(value)) out[name] = value;
    else {
      const scheme = /^(\S+)\s+\S/.exec(value)?.[1];
      out[name] = scheme && /^(bearer|basic|digest|token|apikey)$/i.test(scheme) ? `${scheme} ${REDACTED}` : REDACTED;
    }
  }
  return out;
}

/**
 * A raw query string (no "?") with the values of credential parameters redacted; every other piece stays as written.
 *
 */
export function redactQuery(
  query: string,
  names: CredentialNames = NO_NAMES,
  keep: (value: string) => boolean = () => false,
): string {
  if (query === '') return query;
  return query
    .split('&')
    .map((piece) => {
      const equals = piece.indexOf('=');
      if (equals === -1) return piece;
      const name = safeDecode(piece.slice(0, equals)).toLowerCase();
      const secret = CREDENTIAL_QUERY.test(name) || names.query.has(name);
      return secret && !keep(piece) ? `${piece.slice(0, equals)}=${REDACTED}` : piece;
    })
    .join('&');
}

/** The URL with its password (if any) redacted. */
export function redactUrl(url: URL): URL {
  if (url.password === '') return url;
  const out = new URL(url.href);
  out.password = REDACTED;
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}
