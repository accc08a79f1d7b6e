// Which of a create's marks an answer can show at all: a mark sent in a field the answer's schema
// does not declare (Stripe's `expand`, GitHub's `prompt` for an agent task, Twilio's
// `CredentialListSid`) or declares as something other than a string (GitHub's migration
// `repositories`, strings in the request and objects in the answer) can never come back in a valid
// answer, however well the mock keeps it. Judging a read or a list by such marks would blame the
// mock for the contract, so they are left out, and a step with no mark left is not measured.
import { resolve, type Json, type LoadedDocument, type Operation } from './document.ts';
import { isJsonMedia } from './judge.ts';

/** FriendlyName, friendly_name and friendly-name are one name (a form create, a JSON answer). */
const norm = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

const typesOf = (schema: Json): string[] =>
  Array.isArray(schema?.type) ? schema.type : schema?.type === undefined ? [] : [schema.type];

/** The lowest declared 2xx JSON schema of an operation. */
function successSchema(doc: Json, op: Operation): Json {
  const responses = op.operation.responses ?? {};
  const status = Object.keys(responses)
    .filter((s) => /^2(\d\d|XX)$/i.test(s))
    .sort()[0];
  if (status === undefined) return undefined;
  const response = resolve(doc, responses[status], '').value;
  const content = response?.content ?? {};
  const media = Object.keys(content).find((m) => isJsonMedia(m.split(';')[0].trim().toLowerCase()));
  return media === undefined ? undefined : resolve(doc, content[media]?.schema, '').value;
}

/** Every property name (normalized) an answer of `op` may hold a string in, any depth down to six. */
export function stringFieldNames(loaded: LoadedDocument, op: Operation): Set<string> {
  const names = new Set<string>();
  const seen = new Set<Json>();
  const takesString = (schema: Json): boolean => {
    const s = resolve(loaded.doc, schema, '').value;
    if (!s || typeof s !== 'object') return false;
    const types = typesOf(s);
    if (types.includes('string')) return true;
    if (types.includes('array')) return takesString(s.items);
    if (types.length > 0 || s.properties) return false;
    const members = [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])];
    // An untyped schema takes anything; one made of members takes a string when a member does.
    return members.length === 0 || members.some(takesString);
  };
  const visit = (schema: Json, depth: number) => {
    const s = resolve(loaded.doc, schema, '').value;
    if (!s || typeof s !== 'object' || seen.has(s) || depth > 6) return;
    seen.add(s);
    for (const [name, property] of Object.entries<Json>(s.properties ?? {})) {
      if (takesString(property)) names.add(norm(name));
      visit(property, depth + 1);
    }
    if (s.items) visit(s.items, depth + 1);
    if (s.additionalProperties && typeof s.additionalProperties === 'object') visit(s.additionalProperties, depth + 1);
    for (const member of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) visit(member, depth + 1);
  };
  visit(successSchema(loaded.doc, op), 0);
  return names;
}

/**
 * The marks an answer of `op` can show: those sent in a field whose name its schema declares as a
 * string. An answer with no JSON schema (text, or nothing declared) is searched for every mark.
 */
export function showableMarks(loaded: LoadedDocument, op: Operation, marks: string[], fields: string[][]): string[] {
  if (fields.length !== marks.length || successSchema(loaded.doc, op) === undefined) return marks;
  const names = stringFieldNames(loaded, op);
  return marks.filter((_, i) => names.has(norm(fields[i].at(-1) ?? '')));
}
