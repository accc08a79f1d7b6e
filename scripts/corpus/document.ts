// The harness's own reading of a document: bundled into one object (external $refs pulled in,
// internal ones kept, so cycles stay finite) and its operations listed. Nothing here comes from
// plantstore's src/: the judge must not share the mock's mistakes.
import SwaggerParser from '@apidevtools/swagger-parser';

export type Json = any;

export interface Operation {
  method: string;
  path: string;
  /** JSON pointer of the operation object in the bundled document. */
  pointer: string;
  operation: Json;
  /** Path-item and operation parameters, resolved, the operation's winning on (name, in). */
  parameters: Json[];
}

export interface LoadedDocument {
  doc: Json;
  version: '3.0' | '3.1';
  operations: Operation[];
}

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
export const pointerOf = (...keys: string[]) => `#/${keys.map(escapePointer).join('/')}`;

/** The value at a local JSON pointer (`#/a/b`), or undefined. */
export function atPointer(doc: Json, pointer: string): Json {
  if (!pointer.startsWith('#')) return undefined;
  let node = doc;
  for (const raw of pointer.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

/** Follows local $ref chains: the node a reference finally names, and its pointer. */
export function resolve(doc: Json, node: Json, pointer: string): { value: Json; pointer: string } {
  for (let hops = 0; hops < 32 && node && typeof node === 'object' && typeof node.$ref === 'string'; hops++) {
    pointer = node.$ref;
    node = atPointer(doc, pointer);
  }
  return { value: node, pointer };
}

const parameterPointers = new WeakMap<object, string>();

/** The JSON pointer of a parameter of a loaded document's operation (its schema is at `/schema` under it). */
export const parameterPointer = (parameter: Json): string | undefined => parameterPointers.get(parameter);

export async function loadDocument(file: string): Promise<LoadedDocument> {
  const doc: Json = await SwaggerParser.bundle(file);
  const declared = String(doc?.openapi ?? doc?.swagger ?? '');
  if (!/^3\.[01]\./.test(declared)) throw new Error(`the harness reads OpenAPI 3.0 and 3.1, this is "${declared}"`);
  const operations: Operation[] = [];
  for (const [path, rawItem] of Object.entries<Json>(doc.paths ?? {})) {
    const item = resolve(doc, rawItem, pointerOf('paths', path));
    if (!item.value || typeof item.value !== 'object') continue;
    for (const method of METHODS) {
      const operation = item.value[method];
      if (!operation || typeof operation !== 'object') continue;
      const byKey = new Map<string, Json>();
      const declared = [
        ...(item.value.parameters ?? []).map((raw: Json, i: number) => [raw, `${item.pointer}/parameters/${i}`]),
        ...(operation.parameters ?? []).map((raw: Json, i: number) => [
          raw,
          `${item.pointer}/${method}/parameters/${i}`,
        ]),
      ];
      for (const [raw, at] of declared) {
        const { value: target, pointer } = resolve(doc, raw, at);
        if (!target || typeof target !== 'object') continue;
        // A reference's siblings (`$ref: Filter.yaml` with `required: true`, Redocly's starter) win over its target's,
        // as json-schema-ref-parser (and so Prism) and plantstore read them, although OpenAPI 3.0 says to ignore them.
        const { $ref: _ref, ...siblings } = raw ?? {};
        const parameter =
          raw?.$ref !== undefined && Object.keys(siblings).length > 0 ? { ...target, ...siblings } : target;
        byKey.set(`${parameter.in}:${parameter.name}`, parameter);
        parameterPointers.set(parameter, pointer);
      }
      operations.push({
        method,
        path,
        pointer: `${item.pointer}/${method}`,
        operation,
        parameters: [...byKey.values()],
      });
    }
  }
  return { doc, version: declared.startsWith('3.1') ? '3.1' : '3.0', operations };
}
