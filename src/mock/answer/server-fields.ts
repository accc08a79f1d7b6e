// Which fields the server makes: those a collection's answers require (or mark readOnly) that a
// request may leave out, such as a server-made id or a createdAt. Worked out once per operation at
// start-up, from every answer of the collection, so that a record made by a create also makes a
// valid read, list item and replace answer later.
import { escapePointerToken, getAtPointer } from '../../document/json-pointer.ts';
import { findResponse, jsonContent, type Operation } from '../../document/operations.ts';
import { successStatus } from '../../document/operation-facts.ts';
import { requestContent, type ResourceBinding } from '../../document/resources.ts';
import { objectShape } from '../../document/schema-shape.ts';

type Obj = Record<string, unknown>;
const isObj = (value: unknown): value is Obj => value !== null && typeof value === 'object' && !Array.isArray(value);

export interface ServerField {
  name: string;
  /** Where the property's schema sits in the document (the example generator and validators work by pointer). */
  pointer: string;
  /** The property's schema, $refs followed. */
  schema: Obj;
  /** The collection's key: generated unique, and the record is stored under it. */
  key: boolean;
}

/** What a collection's answers declare, together: a name required by any of them is required. */
interface Answers {
  properties: Map<string, { pointer: string; schema: Obj }>;
  required: Set<string>;
}

/**
 * For each create, replace and merge: the fields its answers need that its request does not
 * require. An operation with none is left out, so the common create pays one failed map lookup.
 */
export function planServerFields(
  bindings: Map<Operation, ResourceBinding>,
  document: unknown,
): Map<Operation, ServerField[]> {
  const answers = new Map<string, Answers>();
  for (const [operation, binding] of bindings) {
    const pointer = answerPointer(operation, binding, document);
    if (pointer === undefined) continue;
    let collected = answers.get(binding.collection);
    if (!collected) answers.set(binding.collection, (collected = { properties: new Map(), required: new Set() }));
    collectProperties(pointer, document, collected, 0);
  }
  const plans = new Map<Operation, ServerField[]>();
  for (const [operation, binding] of bindings) {
    if (binding.role !== 'create' && binding.role !== 'replace' && binding.role !== 'merge') continue;
    const body = requestContent(operation);
    const wrapped = binding.requestEnvelope;
    const requestSchema =
      wrapped === undefined ? body?.schema : objectShape(body?.schema, document).properties.get(wrapped);
    const requestRequired = objectShape(requestSchema, document).required;
    const fields: ServerField[] = [];
    const collected = answers.get(binding.collection);
    for (const [name, property] of collected?.properties ?? []) {
      const key = name === binding.keyField;
      // A replace keeps the stored key; it never makes one.
      if (key && binding.role !== 'create') continue;
      // A readOnly name in the request's `required` is not asked of a request (OpenAPI): the server still makes it.
      if (property.schema.writeOnly === true || (requestRequired.has(name) && property.schema.readOnly !== true))
        continue;
      // readOnly fields (an id, a createdAt) are the server's to fill even where not required.
      if (collected!.required.has(name) || property.schema.readOnly === true || key)
        fields.push({ name, pointer: property.pointer, schema: property.schema, key });
    }
    if (fields.length > 0) plans.set(operation, fields);
  }
  return plans;
}

/** The object schema the operation answers records with (a list's items), by pointer; undefined for none. */
function answerPointer(operation: Operation, binding: ResourceBinding, document: unknown): string | undefined {
  const content = jsonContent(findResponse(operation, successStatus(operation))?.contents ?? []);
  if (content?.schema === undefined) return undefined;
  if (binding.answerEnvelope !== undefined)
    return propertyPointer(content.schemaPointer, binding.answerEnvelope, document);
  if (binding.role !== 'list') return content.schemaPointer;
  const list = follow(content.schemaPointer, document);
  return list && list.schema.items !== undefined ? `${list.pointer}/items` : undefined;
}

/** Where one property's schema sits: the schema's own `properties`, else an allOf member's. */
function propertyPointer(pointer: string, name: string, document: unknown, depth = 0): string | undefined {
  const found = follow(pointer, document);
  if (!found || depth > 8) return undefined;
  if (isObj(found.schema.properties) && Object.hasOwn(found.schema.properties, name))
    return `${found.pointer}/properties/${escapePointerToken(name)}`;
  const members = found.schema.allOf;
  if (Array.isArray(members))
    for (let i = 0; i < members.length; i++) {
      const inner = propertyPointer(`${found.pointer}/allOf/${i}`, name, document, depth + 1);
      if (inner !== undefined) return inner;
    }
  return undefined;
}

/** A schema and its pointer, past any $ref left in the dereferenced document (circular ones). */
function follow(pointer: string, document: unknown): { pointer: string; schema: Obj } | undefined {
  let at = pointer;
  let node = getAtPointer(document, at);
  for (let hops = 0; isObj(node) && typeof node.$ref === 'string' && hops < 32; hops++) {
    at = node.$ref;
    node = getAtPointer(document, at);
  }
  return isObj(node) ? { pointer: at, schema: node } : undefined;
}

/** Every property an object schema declares, through allOf/anyOf/oneOf; the first declaration of a name wins. */
function collectProperties(
  pointer: string,
  document: unknown,
  into: Answers,
  depth: number,
  alternative = false,
): void {
  const found = follow(pointer, document);
  if (!found || depth > 16) return;
  const { schema } = found;
  // `required` may name a property another branch declares (allOf: [Base, {required: [id]}]).
  // What one alternative of anyOf/oneOf requires, the others need not have: Stripe's read answers
  // a customer or a deleted_customer, and a created customer is not `deleted: true`.
  if (Array.isArray(schema.required) && !alternative)
    for (const name of schema.required) into.required.add(String(name));
  if (isObj(schema.properties)) {
    for (const name of Object.keys(schema.properties)) {
      if (into.properties.has(name)) continue;
      const property = follow(`${found.pointer}/properties/${escapePointerToken(name)}`, document);
      if (property) into.properties.set(name, property);
    }
  }
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (Array.isArray(branches))
      branches.forEach((_, index) =>
        collectProperties(
          `${found.pointer}/${keyword}/${index}`,
          document,
          into,
          depth + 1,
          alternative || (keyword !== 'allOf' && branches.length > 1),
        ),
      );
  }
}
