// For an error schema that a status and a message cannot fill (a required array of errors, an
// enum of codes, a nested envelope): a valid body of that schema (its declared example, else a
// generated one), with the message written into its most fitting string field and the status into
// its status field, each only where the body stays valid.
import { containsBigInt, type JsonValue } from '../../json/exact-json.ts';
import type { SchemaCheck } from '../../validation/validator.ts';

type Obj = Record<string, JsonValue>;
const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

export const STATUS_NAMES = ['error', 'code', 'status', 'statusCode', 'status_code'];
export const MESSAGE_NAMES = ['message', 'detail', 'title', 'error_description', 'description', 'msg'];
// Where a message fits in a body of any shape: the names above, then looser ones.
const FITTING_NAMES = [...MESSAGE_NAMES, 'error', 'reason', 'text', 'summary'];

/** A place in a body: the object holding it and its key. */
interface Slot {
  holder: Obj | JsonValue[];
  key: string | number;
  depth: number;
  name: string;
}

/** The base body with the message and status written where they fit and keep it valid. */
export function fillBase(base: JsonValue, check: SchemaCheck, status: number, message: string): JsonValue {
  const body = structuredClone(base);
  // A generated base may hold an int64 beyond 2^53 (a bigint): the check must then project it.
  const plain = !containsBigInt(body);
  const slots = collectSlots(body);
  const tryWrite = (candidates: Slot[], value: (slot: Slot) => JsonValue) => {
    for (const slot of candidates) {
      const before = (slot.holder as Record<string | number, JsonValue>)[slot.key];
      (slot.holder as Record<string | number, JsonValue>)[slot.key] = value(slot);
      if (check(body, plain).ok) return slot;
      (slot.holder as Record<string | number, JsonValue>)[slot.key] = before;
    }
    return undefined;
  };
  const strings = slots.filter((s) => typeof (s.holder as Record<string | number, JsonValue>)[s.key] === 'string');
  const byFit = (names: string[]) => (a: Slot, b: Slot) => rank(names, a) - rank(names, b) || a.depth - b.depth;
  const used = tryWrite([...strings].sort(byFit(FITTING_NAMES)), () => message);
  const statusSlots = slots.filter((s) => s !== used && STATUS_NAMES.includes(s.name));
  tryWrite(statusSlots, (slot) =>
    typeof (slot.holder as Record<string | number, JsonValue>)[slot.key] === 'string' ? String(status) : status,
  );
  return body;
}

function rank(names: string[], slot: Slot): number {
  const index = names.indexOf(slot.name);
  return index === -1 ? names.length : index;
}

/** Every primitive place in the body, breadth first, up to four levels deep. */
function collectSlots(body: JsonValue): Slot[] {
  const slots: Slot[] = [];
  const visit = (node: JsonValue, depth: number, name: string) => {
    if (depth > 4) return;
    if (Array.isArray(node))
      node.forEach((item, index) =>
        isObj(item) || Array.isArray(item)
          ? visit(item, depth + 1, name)
          : slots.push({ holder: node, key: index, depth, name }),
      );
    else if (isObj(node)) {
      for (const [key, item] of Object.entries(node)) {
        if (isObj(item) || Array.isArray(item)) visit(item, depth + 1, key);
        else slots.push({ holder: node, key, depth, name: key });
      }
    }
  };
  visit(body, 0, '');
  return slots;
}
