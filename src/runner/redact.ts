// Keeps secrets out of reports. Everything that enters a report passes through a redactor first:
// credential headers lose their credentials, and every occurrence of a secret (the token, the
// values of credential headers given with --header) in any string is replaced, also inside
// messages, bodies a server echoed back and URL-encoded query strings.
import { isCredentialHeader } from '../http/credential-headers.ts';

export { isCredentialHeader };
export const REDACTED = '[redacted]';

/** Secrets at least this long are replaced wherever they occur, even inside other text. */
const MIN_SUBSTRING_SECRET = 8;

export type Redactor = <T>(value: T) => T;

/** A redactor for a set of secrets (empty strings are ignored). */
export function createRedactor(secrets: Array<string | undefined>): Redactor {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(JSON.stringify(secret).slice(1, -1)); // as written inside a JSON string
  }
  // Longest first, so a secret that contains another is replaced whole. A short secret ("t")
  // would also match inside ordinary words, so it is replaced only where it stands alone.
  const ordered = [...forms].sort((a, b) => b.length - a.length);
  const patterns = ordered.map((form) => (form.length >= MIN_SUBSTRING_SECRET ? form : new RegExp(`(?<![A-Za-z0-9])${form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9])`, 'g')));
  const redactString = (text: string) => patterns.reduce<string>((out, pattern) => out.replaceAll(pattern, REDACTED), text);
  // Keys are the report's own structure ("status", "steps") as well as body field names: only
  // long secrets, which cannot be mistaken for structure, are looked for in them.
  const longOnly = ordered.filter((form) => form.length >= MIN_SUBSTRING_SECRET);
  const redactKey = (key: string) => longOnly.reduce((out, form) => out.replaceAll(form, REDACTED), key);
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return redactString(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        Object.defineProperty(out, redactKey(key), { value: walk(item), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    return value;
  };
  return <T>(value: T) => walk(value) as T;
}

/** Headers fit for a report: credential values become "<scheme> [redacted]". */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    // A bare scheme ("Bearer" alone) holds no credential, and is what a reader needs to see.
    if (!isCredentialHeader(name) || /^(bearer|basic)$/i.test(value.trim())) out[name] = value;
    else {
      const scheme = /^(\S+)\s+\S/.exec(value)?.[1];
      out[name] = scheme && /^(bearer|basic|digest|token|apikey)$/i.test(scheme) ? `${scheme} ${REDACTED}` : REDACTED;
    }
  }
  return out;
}
