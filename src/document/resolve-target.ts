// Names a tester types (`NewPlant`, `createPlant`) turned into the schema they mean. Shared by
// `example` and `validate`, so both accept exactly the same names.
import { PlantstoreError } from '../errors.ts';
import { escapePointerToken, getAtPointer } from './json-pointer.ts';
import { type LoadedSpec } from './loaded-spec.ts';
import { jsonContent, listOperations, type JsonSchema, type Operation } from './operations.ts';

export interface ExampleTarget {
  /** The name as given. */
  name: string;
  kind: 'schema' | 'operation';
  /** Where the schema sits in the document: what the shared validator compiles. */
  pointer: string;
  schema: JsonSchema;
  /** The operation whose request body this is (for a schema: the first operation that takes it). */
  operation?: Operation;
  /** The request body's media type, when there is an operation. */
  mediaType?: string;
}

/**
 * Resolves a components.schemas name or an operationId (its JSON request body); an unknown name
 * fails with UNKNOWN_NAME listing the names that exist.
 * @example const target = resolveTarget(spec, 'createPlant'); // the NewPlant request body
 */
export function resolveTarget(spec: LoadedSpec, name: string): ExampleTarget {
  const operations = listOperations(spec);
  const schemas = schemaNames(spec);
  if (schemas.includes(name)) {
    const pointer = `#/components/schemas/${escapePointerToken(name)}`;
    const schema = getAtPointer(spec.document, pointer) as JsonSchema;
    // Freshly dereferenced, the body schema IS the component object; from the spec cache it is an
    // equal copy (JSON keeps no identity), so equal text counts too.
    const text = JSON.stringify(schema);
    const user = operations.find((op) => {
      const body = jsonContent(op.requestBody?.contents ?? [])?.schema;
      return body === schema || (body !== undefined && JSON.stringify(body) === text);
    });
    const media = user ? jsonContent(user.requestBody?.contents ?? []) : undefined;
    return { name, kind: 'schema', pointer, schema, operation: user, mediaType: media?.mediaType };
  }
  const operation = operations.find((op) => op.id === name);
  if (operation) {
    const media = jsonContent(operation.requestBody?.contents ?? []);
    if (!media?.schema) {
      throw new PlantstoreError(
        'USAGE',
        `${name} (${operation.method} ${operation.path}) has no JSON request body schema`,
        [`Operations with one: ${operationsWithBody(operations).join(', ') || '(none)'}`],
      );
    }
    return {
      name,
      kind: 'operation',
      pointer: media.schemaPointer,
      schema: media.schema,
      operation,
      mediaType: media.mediaType,
    };
  }
  const ids = operations.map((op) => op.id);
  const guess = [...schemas, ...ids].find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  throw new PlantstoreError(
    'UNKNOWN_NAME',
    `unknown schema or operationId '${name}'${guess ? `; did you mean '${guess}'?` : ''}`,
    [`Schemas: ${schemas.join(', ') || '(none)'}`, `operationIds: ${ids.join(', ') || '(none)'}`],
  );
}

/** The names of components.schemas, in document order. */
export function schemaNames(spec: LoadedSpec): string[] {
  const schemas = spec.document.components?.schemas;
  return schemas && typeof schemas === 'object' ? Object.keys(schemas) : [];
}

function operationsWithBody(operations: Operation[]): string[] {
  return operations.filter((op) => jsonContent(op.requestBody?.contents ?? [])?.schema).map((op) => op.id);
}
