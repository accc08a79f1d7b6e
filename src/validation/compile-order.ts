// The order in which a warm-up compiles a document's component schemas, so that no single step
// holds the event loop long: Ajv compiles a schema together with every schema it reaches that is
// not compiled yet, so Stripe's account (which reaches most of the document) took most of a second
// in one piece (docs/performance.md §10.16). Compiled dependencies first, each schema then only
// adds its own code; schemas that refer to each other in a cycle can only be compiled together
// (Stripe's largest cycle has 65 schemas).
import { escapePointerToken } from '../document/json-pointer.ts';

const PREFIX = '#/components/schemas/';

/** Groups of component schema pointers, each group's dependencies in earlier groups; one group per step. */
export function compileOrder(bundled: { components?: Record<string, unknown> }): string[][] {
  const schemas = (bundled.components?.schemas ?? {}) as Record<string, unknown>;
  const pointers = Object.keys(schemas).map((name) => `${PREFIX}${escapePointerToken(name)}`);
  const known = new Set(pointers);
  const edges = new Map<string, string[]>();
  for (const [index, name] of Object.keys(schemas).entries()) {
    const found = new Set<string>();
    collectRefs(schemas[name], found);
    edges.set(
      pointers[index],
      [...found].filter((ref) => known.has(ref)),
    );
  }
  return stronglyConnected(pointers, edges);
}

function collectRefs(node: unknown, found: Set<string>): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, found);
    return;
  }
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith(PREFIX)) found.add(ref);
  for (const value of Object.values(node)) collectRefs(value, found);
}

/**
 * Tarjan's strongly connected components, iteratively (a chain of references can be long): each
 * component is emitted after every component it reaches, which is the order to compile them in.
 */
function stronglyConnected(nodes: string[], edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  let counter = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = edges.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        groups.push(group);
      }
    }
  }
  return groups;
}
