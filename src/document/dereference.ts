// Inlines the internal `$ref`s of a bundled document, as json-schema-ref-parser's dereference
// does with `circular: 'ignore'`: every reference to one target becomes the same object, and a
// reference back into a schema being inlined stays a `$ref` (so the result is a tree of shared
// objects, never a cycle). Owned, not ref-parser's, because it runs on every start-up from the
// cache: importing swagger-parser alone costs more than a small document's whole start, and
// ref-parser's walk takes ~1.1 s on GitHub's document, which this does several times faster.
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
        // Examples and extensions are data: a `$ref` key inside them is not a reference.
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

  return walk(root) as T;
}
