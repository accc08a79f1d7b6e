// Which of a create's marks an answer can show at all: a mark sent in a field the answer's schema
// does not declare (Stripe's `expand`, GitHub's `prompt` for an agent task, Twilio's
// `CredentialListSid`) or declares as something other than a string (GitHub's migration
// `repositories`, strings in the request and objects in the answer) can never come back in a valid
// answer, however well the mock keeps it. Judging a read or a list by such marks would blame the
// mock for the contract, so they are left out, and a step with no mark left is not measured.
import { resolve, type Json, type LoadedDocument, type Operation } from './document.ts';
import { isJsonMedia } from './judge.ts';

/** The path that stands for "any": the answer's item is itself a string. */
const ANY = '*';

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

/**
 * Every field path (normalized names joined by dots) an answer of `op` may hold a string at, down
 * to four objects deep, from the item's root: the answer itself, or a list's items (bare, or in an
 * array one or two fields down). In an answer of at most three fields, a path is also kept without
 * its first name, so that a wrapped item (`{data: {name}}`) meets a bare one (`{name}`).
 */
export function stringFieldPaths(loaded: LoadedDocument, op: Operation, list = false): Set<string> {
  const paths = new Set<string>();
  const takesString = (schema: Json, depth = 0): boolean => {
    const s = resolve(loaded.doc, schema, '').value;
    if (!s || typeof s !== 'object' || depth > 8) return false;
    const types = typesOf(s);
    if (types.includes('string')) return true;
    if (types.includes('array')) return takesString(s.items, depth + 1);
    if (types.length > 0 || s.properties) return false;
    const members = [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])];
    // An untyped schema takes anything; one made of members takes a string when a member does.
    return members.length === 0 || members.some((m: Json) => takesString(m, depth + 1));
  };
  const visit = (schema: Json, prefix: string[], seen: Set<Json>) => {
    const s = resolve(loaded.doc, schema, '').value;
    if (!s || typeof s !== 'object' || seen.has(s) || prefix.length > 4) return;
    const inner = new Set(seen).add(s);
    for (const [name, property] of Object.entries<Json>(s.properties ?? {})) {
      const path = [...prefix, norm(name)];
      if (takesString(property)) {
        paths.add(path.join('.'));
        if (path.length > 1 && wrapper) paths.add(path.slice(1).join('.'));
      }
      visit(property, path, inner);
    }
    for (const member of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) visit(member, prefix, inner);
  };
  const root = successSchema(loaded.doc, op);
  // An answer of at most three fields may wrap the item in one of them (`{data: {...}}`, `{message, budget: {...}}`).
  const rootSchema = resolve(loaded.doc, root, '').value;
  const wrapper = !list && Object.keys(rootSchema?.properties ?? {}).length <= 3;
  const roots = list ? listItems(loaded, root) : [root];
  for (const item of roots) {
    // Items that are strings themselves (GitHub's status check contexts) may show any mark.
    if (takesString(item)) paths.add(ANY);
    visit(item, [], new Set());
  }
  return paths;
}

/** A list answer's item schemas: a bare array's items, else those of arrays one or two fields down. */
function listItems(loaded: LoadedDocument, schema: Json, depth = 0): Json[] {
  const s = resolve(loaded.doc, schema, '').value;
  if (!s || typeof s !== 'object' || depth > 2) return [];
  if (typesOf(s).includes('array')) return s.items ? [s.items] : [];
  const found: Json[] = [];
  for (const property of Object.values<Json>(s.properties ?? {})) found.push(...listItems(loaded, property, depth + 1));
  for (const member of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])])
    found.push(...listItems(loaded, member, depth));
  return found;
}

/**
 * The marks an answer of `op` can show: those sent at a field path its schema (a list's: its
 * items') declares a string at. An answer with no JSON schema (text, or nothing declared) is searched for every mark.
 */
export function showableMarks(
  loaded: LoadedDocument,
  op: Operation,
  marks: string[],
  fields: string[][],
  list = false,
): string[] {
  if (fields.length !== marks.length || successSchema(loaded.doc, op) === undefined) return marks;
  const paths = stringFieldPaths(loaded, op, list);
  if (paths.has(ANY)) return marks;
  return marks.filter((_, i) => {
    const path = fields[i].map(norm);
    return paths.has(path.join('.')) || (path.length > 1 && paths.has(path.slice(1).join('.')));
  });
}
