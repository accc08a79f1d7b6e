// A curl command that sends the same request again, for a failure report. The request it is
// given has credentials already redacted by place (redact.ts), and `tokenMark` where a fixture
// wrote {{token}}: the mark is written as "$PLANTSTORE_TOKEN", so the command reproduces the
// request without holding the secret. Only the mark is looked for, never the token's own text,
// so a short token cannot break the quoting of ordinary words.
export const TOKEN_ENV = 'PLANTSTORE_TOKEN';

export interface CurlRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** The request as one shell command line (POSIX sh quoting). */
export function toCurl(request: CurlRequest, tokenMark: string): string {
  const quote = (text: string) => quoteWithToken(text, tokenMark);
  const parts = ['curl', '-sS', '-i', '-X', request.method, quote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) parts.push('-H', quote(`${name}: ${value}`));
  if (request.body !== undefined) parts.push('--data-binary', quote(request.body));
  return parts.join(' ');
}

function quoteWithToken(text: string, tokenMark: string): string {
  return (
    text
      .split(tokenMark)
      .map((piece) => (piece === '' ? '' : `'${piece.replaceAll("'", `'\\''`)}'`))
      .join(`"$${TOKEN_ENV}"`) || "''"
  );
}
