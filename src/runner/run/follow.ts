// A step that follows an earlier one (fixture.ts's FollowPlan): its path, parameters and body
// are filled, when it runs, from what that step sent and got back. Nothing to follow (no id and
// no Location; an expression with no value) is no fault of the server: the case stops there
// with a warning, and the steps after it are not run.
import { stringifyJson, type JsonValue } from '../../json/exact-json.ts';
import type { FixtureRequest } from '../fixture.ts';
import { evaluateLinkValue, type Exchange } from './runtime-values.ts';

/** Why a step could not follow: the source's status, a value an expression names, or the created item. */
export type NotFollowed = 'another status' | 'no value' | 'no item';

export type Followed = { ok: true; request: FixtureRequest } | { ok: false; why: NotFollowed; message: string };

/** The request with what it follows filled in. `base` is the target's path prefix (`/v1`, or ''). */
export function follow(request: FixtureRequest, exchange: Exchange | undefined, base: string): Followed {
  const plan = request.follow!;
  const { follow: _plan, ...plain } = request;
  if (exchange === undefined)
    return { ok: false, why: 'no value', message: `step '${plan.step}' made no exchange to follow` };
  const out: FixtureRequest = { ...plain, headers: { ...plain.headers }, query: { ...plain.query } };
  const about = plan.link === undefined ? `the ${plan.step} step's answer` : `the link ${plan.link}`;
  const status = exchange.response?.status;
  if (plan.status !== undefined && (status === undefined || !statusFits(plan.status, status)))
    return {
      ok: false,
      why: 'another status',
      message:
        `${about} is declared on a ${plan.status} answer; ${plan.step} got ${status ?? 'no answer'}, so ` +
        `this step and the ones after it were not run`,
    };
  if (plan.item) {
    const key = plan.item.field === undefined ? undefined : keyAt(exchange.response?.body, plan.item.field);
    if (key !== undefined) out.path = out.path.replaceAll(`{${plan.item.param}}`, encodeURIComponent(key));
    else {
      const location = exchange.response?.headers.location;
      if (location === undefined || location === '')
        return {
          ok: false,
          why: 'no item',
          message:
            `${about} named no item ` +
            `(${plan.item.field === undefined ? 'it declares no key field' : `no "${plan.item.field}" in its body`}` +
            ` and no Location header): this step and the ones after it were not run`,
        };
      // RFC 9110 §10.2.2: a relative Location is resolved against the request's URL. The item is asked for at the
      // target, whatever origin the server named (a server behind a proxy often names its own).
      let url: URL;
      try {
        url = new URL(location, exchange.url);
      } catch {
        return { ok: false, why: 'no item', message: `${about} has a Location header that is no URL: ${location}` };
      }
      out.path = base !== '' && url.pathname.startsWith(`${base}/`) ? url.pathname.slice(base.length) : url.pathname;
      if (url.search.length > 1) out.rawQuery = [...(out.rawQuery ?? []), url.search.slice(1)];
    }
  }
  for (const parameter of plan.parameters ?? []) {
    const value = evaluateLinkValue(parameter.value, exchange);
    if (value === undefined)
      return {
        ok: false,
        why: 'no value',
        message:
          `${about}: its ${parameter.in} parameter "${parameter.name}" has no value in the ${plan.step} ` +
          `exchange, so this step and the ones after it were not run`,
      };
    const text = typeof value === 'string' ? value : stringifyJson(value);
    if (text.includes('{{'))
      return {
        ok: false,
        why: 'no value',
        message: `${about}: the value for "${parameter.name}" holds "{{", which reads as a variable`,
      };
    if (parameter.in === 'path') out.path = out.path.replaceAll(`{${parameter.name}}`, encodeURIComponent(text));
    else if (parameter.in === 'query') {
      // The link's value replaces the one the base request drew, however its style wrote it.
      out.rawQuery = out.rawQuery?.filter((piece) => !namesParameter(piece, parameter.name));
      out.query![parameter.name] = text;
    } else if (parameter.in === 'header') out.headers![parameter.name.toLowerCase()] = text;
    else
      out.headers!.cookie = [
        ...(out.headers!.cookie ?? '').split(/;\s*/).filter((c) => c !== '' && !c.startsWith(`${parameter.name}=`)),
        `${parameter.name}=${encodeURIComponent(text)}`,
      ]
        .filter(Boolean)
        .join('; ');
  }
  if (plan.body !== undefined) {
    const body = evaluateLinkValue(plan.body, exchange);
    if (body === undefined)
      return {
        ok: false,
        why: 'no value',
        message: `${about}: its request body has no value in the ${plan.step} exchange`,
      };
    out.body = body;
  }
  if (Object.keys(out.query!).length === 0) delete out.query;
  return { ok: true, request: out };
}

/**
 * An item's key as path text: a string or a number at `field` (`id`, or `data/id` in an envelope) of an object body.
 */
function keyAt(body: JsonValue | undefined, field: string): string | undefined {
  let value: JsonValue | undefined = body;
  for (const name of field.split('/')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, name))
      return undefined;
    value = value[name];
  }
  return typeof value === 'string' && value !== ''
    ? value
    : typeof value === 'number' || typeof value === 'bigint'
      ? String(value)
      : undefined;
}

/** `201` fits 201, `2XX` fits 200-299. */
function statusFits(key: string, status: number): boolean {
  return /^[1-5]xx$/i.test(key) ? String(status)[0] === key[0] : Number(key) === status;
}

/** True when a written query piece (`ids=1,2`, `filter%5Bcolor%5D=red`) is the parameter's. */
function namesParameter(piece: string, name: string): boolean {
  const key = piece.split('=')[0];
  let decoded = key;
  try {
    decoded = decodeURIComponent(key);
  } catch {
    // a malformed escape is its own name
  }
  return decoded === name || decoded.startsWith(`${name}[`);
}
