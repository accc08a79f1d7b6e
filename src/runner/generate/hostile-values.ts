// The hostile values a parameter or a body field gets beside its valid ones (--hostile N per
// operation): the declared bounds and one step past them, numbers servers overflow on, values of
// the wrong type, strings that are empty, huge, odd unicode or break SQL, paths and templates,
// format near-misses, a repeated query key. The lists are data (hostile-values.json); this module
// only picks from them by the declared type, the way Schemathesis's coverage phase and fast-check's
// biased arbitraries reach for the edges before the middle.
import LISTS from './hostile-values.json' with { type: 'json' };

export type HostileClass = 'bounds' | 'numbers' | 'confusion' | 'repeated-key' | 'strings' | 'breakers' | 'formats';

/**
 * One value to send: `json` is the token a JSON body carries (maybe no valid JSON, such as NaN); `text` is what a
 * parameter carries.
 */
export interface HostileValue {
  kind: HostileClass;
  label: string;
  json: string;
  text: string;
}

interface Entry {
  label: string;
  json?: string;
  text?: string;
  repeat?: { unit: string; times: number };
}

const entry = (kind: HostileClass, raw: Entry): HostileValue => {
  const json = raw.repeat ? JSON.stringify(raw.repeat.unit.repeat(raw.repeat.times)) : raw.json!;
  return { kind, label: raw.label, json, text: raw.text ?? textOf(json) };
};

/** A JSON token as a parameter writes it: a string without its quotes, anything else as written. */
function textOf(json: string): string {
  if (!json.startsWith('"')) return json;
  return JSON.parse(json) as string;
}

const NUMBERS = LISTS.numbers.map((raw) => entry('numbers', raw));
const CONFUSION = LISTS.confusion.map((raw) => entry('confusion', raw));
const STRINGS = LISTS.strings.map((raw) => entry('strings', raw));
const BREAKERS = LISTS.breakers.map((raw) => entry('breakers', raw));
const FORMATS = LISTS.formats as Record<string, string[]>;

/**
 * The bodies that are not the declared JSON: each replaces the whole body, or (no raw) keeps it under another
 * Content-Type.
 */
export const HOSTILE_BODIES = LISTS.bodies as Array<{
  label: string;
  raw?: string;
  repeatRaw?: { open: string; close: string; times: number };
  contentType: string;
}>;

/** The raw text of a hostile body (undefined: the valid body under another Content-Type). */
export function hostileBodyText(body: (typeof HOSTILE_BODIES)[number]): string | undefined {
  if (body.repeatRaw)
    return body.repeatRaw.open.repeat(body.repeatRaw.times) + body.repeatRaw.close.repeat(body.repeatRaw.times);
  return body.raw;
}

/**
 * The hostile values of one schema, by class, in the order each class is tried. `repeatable`:
 * a query parameter, which also gets its key twice.
 */
export function hostileValues(schema: Record<string, unknown>, repeatable: boolean): HostileValue[][] {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  const numeric = type === 'integer' || type === 'number';
  const groups: HostileValue[][] = [];
  if (numeric) groups.push(bounds(schema, type === 'integer'));
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  if (format)
    groups.push(
      format.map((text) => ({
        kind: 'formats' as const,
        label: `a near-miss of format ${String(schema.format)}`,
        json: JSON.stringify(text),
        text,
      })),
    );
  // A number where text is expected (lastdays=99999999999) is the confusion servers meet most.
  groups.push(NUMBERS);
  if (repeatable) groups.push([{ kind: 'repeated-key', label: 'the key twice', json: '[1,2]', text: '1' }]);
  groups.push(CONFUSION);
  if (!numeric && type !== 'boolean') groups.push(STRINGS, BREAKERS);
  else groups.push(STRINGS.slice(0, 3), BREAKERS.slice(0, 2));
  return groups.filter((group) => group.length > 0);
}

/** The declared bounds, one step past each, and the length bounds' neighbours. */
function bounds(schema: Record<string, unknown>, integer: boolean): HostileValue[] {
  const out: HostileValue[] = [];
  const step = integer ? 1 : 0.001;
  const add = (label: string, value: number) => {
    if (Number.isFinite(value)) out.push({ kind: 'bounds', label, json: String(value), text: String(value) });
  };
  for (const key of ['minimum', 'exclusiveMinimum'] as const) {
    const bound = schema[key];
    if (typeof bound !== 'number') continue;
    add(`the ${key} ${bound}`, bound);
    add(`one below the ${key} ${bound}`, bound - step);
  }
  for (const key of ['maximum', 'exclusiveMaximum'] as const) {
    const bound = schema[key];
    if (typeof bound !== 'number') continue;
    add(`the ${key} ${bound}`, bound);
    add(`one above the ${key} ${bound}`, bound + step);
  }
  return out;
}

/**
 * Up to `budget` picks from several targets' classes: round robin over the targets, and within a
 * target over its classes, each class in a seeded order, so that a small budget still reaches
 * every target and every class before any class's second value.
 */
export function pickRoundRobin<T>(targets: T[][][], budget: number, shuffle: <U>(items: U[]) => U[]): T[] {
  const queues = targets.map((groups) => {
    const classes = groups.map((group) => shuffle([...group]));
    const order: T[] = [];
    for (let round = 0; classes.some((c) => round < c.length); round++)
      for (const c of classes) if (round < c.length) order.push(c[round]);
    return order;
  });
  const out: T[] = [];
  for (let round = 0; out.length < budget && queues.some((q) => round < q.length); round++) {
    for (const queue of queues) if (round < queue.length && out.length < budget) out.push(queue[round]);
  }
  return out;
}
