// What the state stage reads in a mock's answers: whether a mark shows, whether a list holds it
// (bare or wrapped), and where a created item's id is, as a person using the API would find it.
import type { SentAnswer } from './send.ts';

const norm = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function parseJson(answer: SentAnswer): unknown {
  try {
    return JSON.parse(answer.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Whether the answer shows one of `marks` anywhere (any media type: the text is searched). */
export function showsMark(answer: SentAnswer, marks: string[]): boolean {
  const text = answer.body.toString('utf8');
  return marks.some((mark) => text.includes(mark));
}

/**
 * Whether a list answer holds an item showing one of `marks`: in a bare array, or in any array
 * inside the object that wraps the list (`{data: [...]}`, `{items: [...], total}`, two levels down).
 */
export function findInList(
  answer: SentAnswer,
  marks: string[],
): { found: boolean; shape: 'bare array' | 'wrapped list' | 'no list' | 'not JSON' } {
  const value = parseJson(answer);
  const holds = (item: unknown) => marks.some((mark) => JSON.stringify(item).includes(mark));
  if (value === undefined) return { found: showsMark(answer, marks), shape: 'not JSON' };
  if (Array.isArray(value)) return { found: value.some(holds), shape: 'bare array' };
  const arrays = listsOf(value);
  return { found: arrays.some((array) => array.some(holds)), shape: arrays.length > 0 ? 'wrapped list' : 'no list' };
}

/** The lists an answer holds: itself when it is one, else any array inside the object that wraps it, two levels down. */
function listsOf(value: unknown): unknown[][] {
  if (Array.isArray(value)) return [value];
  const arrays: unknown[][] = [];
  const collect = (node: unknown, depth: number) => {
    if (!isObject(node) || depth > 2) return;
    for (const child of Object.values(node)) {
      if (Array.isArray(child)) arrays.push(child);
      else collect(child, depth + 1);
    }
  };
  collect(value, 1);
  return arrays;
}

const KEY_LIKE = /(id|sid|gid|uuid|key|sha|number|slug|name)$/;

/**
 * The created item's id, as a person would find it: the Location header's last segment, else a
 * field of the answer named like the item path's parameter (`{Sid}`: `sid`; `{playlist_id}`:
 * `playlist_id`), else `id`, `uuid`, `sid` or `key`, in the answer or one object down (`{data: {...}}`), else the
 * request's own field of that name (`{username}`: the username sent). A value the item path's
 * parameter refuses (`accepts`: a string where `{gpg_key_id}` is an integer) is passed over.
 */
export function findId(
  answer: SentAnswer,
  param: string,
  sent: unknown,
  accepts: (id: string) => boolean = () => true,
): { id: string; from: 'location' | 'answer' | 'request' } | undefined {
  if (answer.location) {
    try {
      const segments = new URL(answer.location, 'http://corpus.invalid').pathname.split('/').filter(Boolean);
      const last = segments.at(-1)?.replace(/\.json$/, '');
      if (last) return { id: decodeURIComponent(last), from: 'location' };
    } catch {
      // not a URL: look in the body
    }
  }
  const wanted = norm(param);
  const scalar = (value: unknown) => (typeof value === 'string' && value !== '') || typeof value === 'number';
  const body = parseJson(answer);
  const objects = isObject(body) ? [body, ...Object.values(body).filter(isObject)] : [];
  const keys = objects.flatMap((object) => Object.entries(object).filter(([, value]) => scalar(value)));
  // In each object, the parameter's name, then the longest field name it ends with (`{webhook_gid}`: `gid`), then
  // the usual names. Not `name`: an item path that says `{name}` finds it first; elsewhere a name
  // is a label, and reading by it would blame the read for an id the answer left out.
  // Only a key-like tail counts (`{gpg_key_id}`: `key_id`; `{promotion_code}`: not `code`, a label the client chose).
  const suffix = keys
    .map(([key]) => norm(key))
    .filter((key) => key.length >= 2 && wanted.endsWith(key) && KEY_LIKE.test(key))
    .sort((a, b) => b.length - a.length)[0];
  const names = [...new Set([wanted, ...(suffix ? [suffix] : []), 'id', 'uuid', 'sid', 'key'])];
  // The answer's own fields before those of an object inside it: a charge's `refunds` may hold a
  // `charge` of its own, which is not the created charge's id.
  // An item wrapped under the parameter's own name (`{experiment}`: `{experiment: {...}}`, as AWS answers) is named
  // by its `name` too, when nothing else keys it.
  const wrapped = isObject(body)
    ? Object.entries(body).find(([key, value]) => norm(key) === wanted && isObject(value))
    : undefined;
  for (const object of objects)
    for (const name of object === wrapped?.[1] ? [...names, 'name'] : names)
      for (const [key, value] of Object.entries(object))
        if (norm(key) === name && scalar(value) && accepts(String(value))) return { id: String(value), from: 'answer' };
  // The key the client sent: named like the parameter, else a usual key name (a body-less 201 after
  // a create that carried its own `id`, as the OAI petstore's does).
  if (isObject(sent))
    for (const name of [wanted, 'id', 'uuid', 'sid', 'key'])
      for (const [key, value] of Object.entries(sent))
        if (norm(key) === name && scalar(value) && accepts(String(value)))
          return { id: String(value), from: 'request' };
  return undefined;
}

/** Whether an object's key-like field (`id`, `sid`, `*_id`, ...) holds `id`. */
function holdsId(node: unknown, id: string): boolean {
  if (!isObject(node)) return false;
  for (const [key, field] of Object.entries(node))
    if (KEY_LIKE.test(norm(key)) && (typeof field === 'string' || typeof field === 'number') && String(field) === id)
      return true;
  return false;
}

/**
 * Where no field the create sent can show in the answer, the created item's id is the evidence: a read that answers
 * an object (or the object it wraps) holding it, or a list (bare or wrapped) with an item holding it.
 */
export function showsId(answer: SentAnswer, id: string, list = false): boolean {
  const value = parseJson(answer);
  if (value === undefined) return false;
  if (list) return listsOf(value).some((array) => array.some((item) => holdsId(item, id)));
  return holdsId(value, id) || (isObject(value) && Object.values(value).some((child) => holdsId(child, id)));
}
