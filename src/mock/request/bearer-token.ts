// The one reader of a bearer token (RFC 6750 §2.1: "Bearer" in any case, one or more spaces, a
// b64token), for the API's security checks, --isolate-by token and the admin API alike.

/** A b64token (RFC 6750 §2.1). */
export const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** "Bearer <token>" and nothing else, in one test (built from B64TOKEN, so the two cannot drift). */
export const PLAIN_BEARER = new RegExp(`^bearer +${B64TOKEN.source.slice(1)}`, 'i');

/** The token of an `Authorization: Bearer <token>` header (trailing spaces allowed), else undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trimEnd();
  if (!PLAIN_BEARER.test(trimmed)) return undefined;
  return trimmed.slice(trimmed.lastIndexOf(' ') + 1);
}
