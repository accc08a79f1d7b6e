// A curl command that sends the same request again, for a failure report. The token is written
// as "$PLANTSTORE_TOKEN", so the command reproduces the request without holding the secret.
export const TOKEN_ENV = 'PLANTSTORE_TOKEN';

export interface CurlRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** The request as one shell command line (POSIX sh quoting). */
export function toCurl(request: CurlRequest, token: string | undefined): string {
  const quote = (text: string) => quoteWithToken(text, token);
  const parts = ['curl', '-sS', '-i', '-X', request.method, quote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) parts.push('-H', quote(`${name}: ${value}`));
  if (request.body !== undefined) parts.push('--data-binary', quote(request.body));
  return parts.join(' ');
}

function quoteWithToken(text: string, token: string | undefined): string {
  const pieces = token ? text.split(token) : [text];
  return pieces.map((piece) => (piece === '' ? '' : `'${piece.replaceAll("'", `'\\''`)}'`)).join(`"$${TOKEN_ENV}"`) || "''";
}
