// The middle of a generated sequence, when the collection has them: replace the created item
// (PUT with a new valid body, then read it back) and merge into it (PATCH with a valid partial
// body). Both use the created item's key, so the item operations of a collection run against an
// item that exists. A body keeps the key the item was created with; a body the runner cannot keep
// valid that way leaves its step out.
import type { JsonValue } from '../../json/exact-json.ts';
import { objectShape, pickDeclared, resolveSchema } from '../../document/schema-shape.ts';
import { escapePointerToken, getAtPointer } from '../../document/json-pointer.ts';
import { jsonContent, type Operation } from '../../document/operations.ts';
import type { Validators } from '../../validation/validator.ts';
import type { FixtureRequest, FixtureStep } from '../fixture.ts';
import type { CaseSource } from './case-source.ts';
import { withUniqueField, type UniqueBody } from './generated-request-parts.ts';

export interface UpdateContext {
  document: unknown;
  validators: Validators;
  source: CaseSource;
  seed: number;
  count: number;
  /** Bodies drawn so far, per operation: each is drawn once for all N sequences. */
  drawn: Map<Operation, JsonValue[]>;
  /** Builds a request to the item (credentials, the key in the path). */
  request(operation: Operation, extra: Partial<FixtureRequest>): FixtureRequest;
  /** The created item's key field and its value (template and sample); undefined when the server numbers items. */
  key?: { field: string; template: JsonValue; sample: JsonValue | undefined };
  /** The item's key field, known or not, and the request field names the mock maps to answer fields. */
  keyField?: string;
  fieldMap: Record<string, string>;
  /** The field that labels the item, and the noun for its text. */
  label?: string;
  noun: string;
}

/** The replace and read-back steps (PUT), then the merge step (PATCH), for the sequence at `index`. */
export function updateSteps(
  replace: Operation | undefined,
  merge: Operation | undefined,
  read: Operation | undefined,
  index: number,
  context: UpdateContext,
): FixtureStep[] {
  const steps: FixtureStep[] = [];
  const replaced = replace && bodyFor(replace, index, 1, `${context.noun} replaced `, context);
  if (replace && replaced) {
    const expected = expectedPart(replaced.body.template, replace, context);
    steps.push({
      name: 'replace',
      request: context.request(replace, {
        headers: { 'content-type': replaced.mediaType },
        body: replaced.body.template,
      }),
      expect: { status: '2xx', ...(expected && { body: expected }) },
    });
    const readBack = read && expectedPart(replaced.body.template, read, context);
    if (read)
      steps.push({
        name: 'read-after-replace',
        request: context.request(read, {}),
        expect: { status: '2xx', ...(readBack && { body: readBack }) },
      });
  }
  const merged = merge && bodyFor(merge, index, 2, `${context.noun} merged `, context);
  if (merge && merged)
    steps.push({
      name: 'merge',
      request: context.request(merge, { headers: { 'content-type': merged.mediaType }, body: merged.body.template }),
      expect: { status: '2xx' },
    });
  return steps;
}

/** A valid generated body for an update, keeping the item's key and giving it a new unique label. */
function bodyFor(
  operation: Operation,
  index: number,
  salt: number,
  labelPrefix: string,
  context: UpdateContext,
): { mediaType: string; body: UniqueBody } | undefined {
  const media = jsonContent(operation.requestBody?.contents ?? []);
  if (!media || media.schema === undefined) return undefined;
  let bodies = context.drawn.get(operation);
  if (!bodies) {
    bodies = context.source.valid(operation, context.count, context.seed + salt);
    context.drawn.set(operation, bodies);
  }
  const generated = bodies[index];
  if (generated === null || typeof generated !== 'object' || Array.isArray(generated)) return undefined;
  const check = context.validators.at(media.schemaPointer);
  let body: UniqueBody = { template: { ...generated }, sample: { ...generated } };
  const { key, label } = context;
  // A different key in the body than in the path would ask the server to move the item. The body may spell the key
  // otherwise than the answer (`guid` for `GUID`); a key the run does not know is left out of the body.
  const field = bodyKeyField(generated, key?.field ?? context.keyField, context.fieldMap);
  if (key && field !== undefined)
    body = {
      template: { ...body.template, [field]: key.template },
      // A key the server named is not known here: the drawn value stands in for it when the body is checked.
      sample: key.sample === undefined ? body.sample : { ...body.sample, [field]: key.sample },
    };
  else if (field !== undefined) body = { template: without(body.template, field), sample: without(body.sample, field) };
  if (label !== undefined && Object.hasOwn(generated, label))
    body = withUniqueField(body, label, 'string', labelPrefix, check) ?? body;
  return check(body.sample).ok ? { mediaType: media.mediaType, body } : undefined;
}

/** The body's own name for the item's key field: the field itself, or the request field the mock maps to it. */
function bodyKeyField(
  body: Record<string, JsonValue>,
  keyField: string | undefined,
  fieldMap: Record<string, string>,
): string | undefined {
  if (keyField === undefined) return undefined;
  if (Object.hasOwn(body, keyField)) return keyField;
  return Object.keys(body).find((name) => fieldMap[name] === keyField);
}

function without(body: Record<string, JsonValue>, field: string): Record<string, JsonValue> {
  const { [field]: _dropped, ...rest } = body;
  return rest;
}

/**
 * What the answer of `operation` must show of what was sent (the list's items with `items`): the fields its success
 * schema declares (as the mock cuts its answers; a free-form answer declares none), less those whose value that
 * schema refuses (the mock answers them generated, as a server that types a field otherwise would); undefined when
 * nothing is left to compare.
 */
export function expectedPart(
  sent: Record<string, JsonValue>,
  operation: Operation,
  context: { document: unknown; validators: Validators },
  items?: 'items',
): Record<string, JsonValue> | undefined {
  const ok = operation.responses.find((r) => r.status.startsWith('2'));
  const content = ok && jsonContent(ok.contents);
  if (content?.schema === undefined) return undefined;
  const { document } = context;
  const schema = items ? resolveSchema(content.schema, document)?.items : content.schema;
  // A free-form answer (`type: object` alone) declares no field, so it promises none back.
  if (schema === undefined || objectShape(schema, document).properties.size === 0) return undefined;
  const part = pickDeclared(sent, schema, document) as Record<string, JsonValue>;
  const at = items ? `${content.schemaPointer}/items` : content.schemaPointer;
  const kept: Record<string, JsonValue> = {};
  for (const [name, value] of Object.entries(part)) {
    const pointer = `${at}/properties/${escapePointerToken(name)}`;
    if (getAtPointer(document, pointer) === undefined || context.validators.at(pointer)(value).ok) kept[name] = value;
  }
  return Object.keys(kept).length > 0 ? kept : undefined;
}
