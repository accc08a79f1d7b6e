// A schema `type` that is not a JSON type (`objetc`, `int`): the schema means nothing a validator
// or a generator can act on. The loader names each by its pointer and the operations that reach
// it; those operations answer a 500 that says why (the engine asks brokenOperations), and
// --strict refuses the document, as it refuses every warning.
import { escapePointerToken, getAtPointer } from './json-pointer.ts';
import { JSON_TYPES } from './lenient.ts';
import type { Operation } from './operations.ts';

type Obj = Record<string, unknown>;

export interface BadType {
  /** Where the `type` is, in the bundled document (`#/components/schemas/Plant/type`). */
  pointer: string;
  type: string;
}

/** Where a schema's `type` names no JSON type, in the bundled document (schemas only). */
export function badTypes(document: object): BadType[] {
  const found: BadType[] = [];
  const seen = new Set<object>();
  const walk = (node: unknown, pointer: string, key: string | undefined): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, `${pointer}/${index}`, undefined));
      return;
    }
    // Data and non-schemas that have a `type` of their own (security schemes: http, apiKey).
    if (key === 'example' || key === 'examples' || key === 'securitySchemes' || key?.startsWith('x-')) return;
    const obj = node as Obj;
    const isMap = key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions';
    if (!isMap && key !== 'paths' && key !== 'webhooks') {
      const types = typeof obj.type === 'string' ? [obj.type] : Array.isArray(obj.type) ? obj.type : [];
      const bad = types.find((type) => typeof type !== 'string' || !JSON_TYPES.has(type));
      if (bad !== undefined && pointer !== '#') found.push({ pointer: `${pointer}/type`, type: String(bad) });
    }
    for (const [child, value] of Object.entries(obj))
      walk(value, `${pointer}/${escapePointerToken(child)}`, isMap ? undefined : child);
  };
  walk(document, '#', undefined);
  return found;
}

/**
 * The operations whose parameters, request body or responses reach a bad schema, with why.
 * `document` is the dereferenced document, where every reference to a schema is that schema.
 */
export function brokenOperations(operations: Operation[], bad: BadType[], document: object): Map<Operation, string> {
  const broken = new Map<Operation, string>();
  if (bad.length === 0) return broken;
  const byObject = new Map<object, BadType>();
  for (const b of bad) {
    const schema = getAtPointer(document, schemaOf(b));
    if (schema !== null && typeof schema === 'object') byObject.set(schema, b);
  }
  for (const operation of operations) {
    const schemas = [
      ...operation.parameters.map((p) => p.schema),
      ...(operation.requestBody?.contents ?? []).map((c) => c.schema),
      ...operation.responses.flatMap((r) => r.contents.map((c) => c.schema)),
    ];
    const hit = reach(schemas, byObject, document);
    if (hit)
      broken.set(
        operation,
        `the schema at ${schemaOf(hit)} has type "${hit.type}", which is not a JSON type; correct it in the document`,
      );
  }
  return broken;
}

const schemaOf = (bad: BadType) => bad.pointer.slice(0, -'/type'.length);

function reach(roots: unknown[], targets: Map<object, BadType>, document: object): BadType | undefined {
  const seen = new Set<object>();
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    const target = targets.get(node);
    if (target) return target;
    // A circular reference stays a `$ref` in the dereferenced document.
    const ref = (node as Obj).$ref;
    if (typeof ref === 'string' && ref.startsWith('#')) stack.push(getAtPointer(document, ref));
    for (const [key, value] of Object.entries(node))
      if (key !== 'example' && key !== 'examples' && !key.startsWith('x-')) stack.push(value);
  }
  return undefined;
}

/** The loader's warning for each bad type: the place, and the operations it breaks. */
export function badTypeWarnings(bad: BadType[], broken: Map<Operation, string>): string[] {
  return bad.map((b) => {
    const names = [...broken]
      .filter(([, why]) => why.startsWith(`the schema at ${schemaOf(b)} `))
      .map(([operation]) => operation.id);
    const breaks =
      names.length === 0
        ? 'no operation uses it'
        : `${names.join(', ')} answer${names.length === 1 ? 's' : ''} 500 until it is corrected`;
    return `${b.pointer}: "${b.type}" is not a JSON type (${[...JSON_TYPES].join(', ')}); ${breaks}`;
  });
}
