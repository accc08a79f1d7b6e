// Header names whose values are credentials: the mock's journal and the runner's reports both
// redact them, from this one list.
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
]);

/** True for header names whose values are credentials. */
export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name.toLowerCase());
}

/** Query parameter names (any case) whose values are credentials, whatever the document says. */
export const CREDENTIAL_QUERY = /^(access_token|token|api_key|apikey|key)$/i;
