// A list read page by page until the created item turns up (find-in-list's paging: see
// generate/sequence-lists.ts for the plan it follows).
import { parseJson, type JsonValue } from '../../json/exact-json.ts';
import type { HttpRequest } from '../../http/types.ts';
import { listItems, MAX_PAGES } from '../generate/sequence-lists.ts';
import { compareJson } from './compare-json.ts';
import type { HttpOutcome } from './http-client.ts';

/**
 * Reads the list's next pages (offset += the page's length) while the page is full and lacks the
 * item, up to MAX_PAGES; returns the answer to judge (the page that holds it, or the last read).
 */
export async function findOnPages(
  first: HttpRequest,
  answer: HttpOutcome,
  want: { item: JsonValue; limit: number; offsetParam: string },
  send: (request: HttpRequest) => Promise<HttpOutcome>,
): Promise<{ outcome: HttpOutcome; pages: number; query: string }> {
  let outcome = answer;
  let query = first.query;
  let pages = 1;
  let offset = 0;
  while (pages < MAX_PAGES && outcome.ok && outcome.status >= 200 && outcome.status < 300) {
    const parsed = parseJson(outcome.body.toString('utf8'));
    const list = parsed.ok ? listItems(parsed.value) : undefined;
    if (
      !list ||
      list.length < want.limit ||
      list.some((element) => compareJson(want.item, element, 'subset').length === 0)
    )
      break;
    offset += list.length;
    const search = new URLSearchParams(first.query);
    search.set(want.offsetParam, String(offset));
    query = search.toString();
    outcome = await send({ ...first, query });
    pages++;
  }
  return { outcome, pages, query };
}
