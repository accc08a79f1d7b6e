// Inlines the internal `$ref`s of a bundled document, as json-schema-ref-parser's dereference
// does with `circular: 'ignore'`: every reference to one target becomes the same object, and a
// reference back into a schema being inlined stays a `$ref` (so the result is a tree of shared
// objects, never a cycle). Owned, not ref-parser's, because it runs on every start-up from the
// cache: importing swagger-parser alone costs more than a small document's whole start, and
// ref-parser's walk is several times slower on GitHub's document (fast path: see docs/performance.md §10.12).
import { getAtPointer } from './json-pointer.ts';

type Obj = Record<string, unknown>;

/** Dereferences a bundled document in place and returns it. */
export function dereferenceBundled<T extends object>(root: T): T {
  const inProgress = new Set<object>();
  const done = new Set<object>();

  const walk = (node: unknown): unknown => {
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as Obj).$ref;
    if (typeof ref === 'string' && !Array.isArray(node)) return inline(node as Obj, ref);
    if (done.has(node) || inProgress.has(node)) return node;
    inProgress.add(node);
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) node[index] = walk(node[index]);
    } else {
      for (const key of Object.keys(node)) {
        // Examples and extensions are data: a `$ref` key inside them is not a reference. An
        // `examples` map's entries are Example Objects, which may themselves be references.
        if (key === 'examples') referencedExamples((node as Obj)[key]);
        if (key === 'example' || key === 'examples' || key.startsWith('x-')) continue;
        (node as Obj)[key] = walk((node as Obj)[key]);
      }
    }
    inProgress.delete(node);
    done.add(node);
    return node;
  };

  const inline = (reference: Obj, ref: string): unknown => {
    if (!ref.startsWith('#') || inProgress.has(reference)) return reference;
    const target = getAtPointer(root, ref);
    // A reference into something being inlined would make a cycle: it stays a reference.
    if (target === null || typeof target !== 'object' || inProgress.has(target)) return reference;
    inProgress.add(reference);
    const value = walk(target);
    inProgress.delete(reference);
    if (value !== null && typeof value === 'object' && typeof (value as Obj).$ref === 'string') return reference;
    const siblings = Object.keys(reference).filter((key) => key !== '$ref');
    if (siblings.length === 0) return value;
    // OpenAPI 3.1 lets a reference carry a summary or description: they win over the target's.
    const merged: Obj = { ...(value as Obj) };
    for (const key of siblings) merged[key] = walk(reference[key]);
    return merged;
  };

  /**
   * The Example Objects of an `examples` map (a media type's, a parameter's) given by `$ref`, as
   * `components/examples` holds them (Redocly's museum): each becomes its target, whose `value`
   * is left as written. JSON Schema's `examples` is an array and is left alone.
   */
  const referencedExamples = (map: unknown): void => {
    if (map === null || typeof map !== 'object' || Array.isArray(map)) return;
    for (const [name, entry] of Object.entries(map as Obj)) {
      let target: unknown = entry;
      for (let hops = 0; hops < 8 && isReference(target); hops++) {
        const next = getAtPointer(root, (target as Obj).$ref as string);
        if (next === null || typeof next !== 'object') break;
        target = next;
      }
      if (target !== entry && !isReference(target)) (map as Obj)[name] = target;
    }
  };

  return walk(root) as T;
}

const isReference = (value: unknown): boolean =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  typeof (value as Obj).$ref === 'string' &&
  ((value as Obj).$ref as string).startsWith('#');
