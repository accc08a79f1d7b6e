// A wrapped list's answer: the document's envelope with the stored page in its items field and
// its page fields saying the truth (total, has_more, next, previous, offset, limit, page). A
// `next` link repeats the request with the next page's parameters; a cursor is the key of the
// page's last item, which the list's cursor parameter reads back.
import type { JsonValue } from '../../json/exact-json.ts';
import type { ListEnvelope, Paging } from '../../document/resources.ts';
import type { HttpRequest } from '../../http/types.ts';
import type { ListPage } from './state-actions.ts';

type Obj = Record<string, JsonValue>;

/** The envelope for one page; `base` is the document's envelope and is not changed. */
export function pageEnvelope(
  base: Obj,
  envelope: ListEnvelope,
  page: ListPage,
  paging: Paging | undefined,
  request: HttpRequest,
): Obj {
  const out: Obj = { ...base };
  out[envelope.items] = page.records;
  const size = page.limit ?? page.records.length;
  const set = (path: string | undefined, value: JsonValue) => {
    if (path === undefined) return;
    const dot = path.indexOf('.');
    if (dot === -1) {
      out[path] = value;
      return;
    }
    const outer = path.slice(0, dot);
    const nested = out[outer];
    out[outer] = {
      ...(nested !== null && typeof nested === 'object' && !Array.isArray(nested) ? (nested as Obj) : {}),
      [path.slice(dot + 1)]: value,
    };
  };
  if (envelope.self !== undefined) {
    const path = request.query === '' ? request.path : `${request.path}?${request.query}`;
    set(envelope.self, envelope.selfKind === 'url' ? `http://${request.headers.host ?? 'localhost'}${path}` : path);
  }
  set(envelope.total, page.total);
  set(envelope.hasMore, page.hasMore);
  set(envelope.offset, page.offset);
  set(envelope.limit, size);
  const firstPage = paging?.firstPage ?? 1;
  if (envelope.page !== undefined && size > 0) set(envelope.page, Math.floor(page.offset / size) + firstPage);
  set(envelope.next, page.hasMore ? pointer(envelope, page, paging, request, 'next') : null);
  set(envelope.previous, page.offset > 0 ? pointer(envelope, page, paging, request, 'previous') : null);
  return out;
}

/** What a next (or previous) field holds: a link, the cursor, or a number. */
function pointer(
  envelope: ListEnvelope,
  page: ListPage,
  paging: Paging | undefined,
  request: HttpRequest,
  way: 'next' | 'previous',
): JsonValue {
  const size = page.limit ?? page.records.length;
  const offset = way === 'next' ? page.offset + page.records.length : Math.max(0, page.offset - size);
  const cursor = way === 'next' ? page.lastKey : page.firstKey;
  const firstPage = paging?.firstPage ?? 1;
  const pageNumber = size > 0 ? Math.floor(offset / size) + firstPage : firstPage;
  if (envelope.nextKind === 'number') return paging?.page !== undefined ? pageNumber : offset;
  if (envelope.nextKind === 'cursor') return cursor ?? String(offset);
  const query = new URLSearchParams(request.query);
  if (paging?.after !== undefined && cursor !== undefined && way === 'next') query.set(paging.after, cursor);
  else if (paging?.before !== undefined && cursor !== undefined && way === 'previous') {
    query.delete(paging.after ?? '');
    query.set(paging.before, cursor);
  } else if (paging?.page !== undefined) query.set(paging.page, String(pageNumber));
  else query.set(paging?.offset ?? 'offset', String(offset));
  if (page.limit !== undefined) query.set(paging?.limit ?? 'limit', String(page.limit));
  const host = request.headers.host ?? 'localhost';
  return `http://${host}${request.path}?${query}`;
}
