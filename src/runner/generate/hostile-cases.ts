// Hostile cases (--hostile N per operation): an otherwise valid request with one parameter or one
// body field replaced by a value real servers mishandle (hostile-values.ts), or a body that is no
// JSON at all. Whatever the value, the server must answer, and never with a 5xx; a value the
// document forbids (read from the wire by the rules the mock reads it with) must be refused with a 4xx ("invalid
// data accepted"); one it allows may be refused too, since a document rarely says everything.
import { parseJson, stringifyJson, type JsonValue } from '../../json/exact-json.ts';
import type { Operation, ParameterSpec } from '../../document/operations.ts';
import { resolveSchema } from '../../document/schema-shape.ts';
import { isPrimitiveSchema, readWireText } from '../wire-text.ts';
import { createSeededRandom, mixSeed } from '../../example/seeded-random.ts';
import type { Validators } from '../../validation/validator.ts';
import type { Case, FixtureExpectation, FixtureRequest } from '../fixture.ts';
import { generateParameters, type DrawValue, type ParameterParts } from './generated-parameters.ts';
import { HOSTILE_BODIES, hostileBodyText, hostileValues, pickRoundRobin, type HostileValue } from './hostile-values.ts';

// OpenAPI: header parameters with these names are ignored (the body and the security schemes own them).
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
const HEADER_TEXT = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;
const HOSTILE_SEED = 0x4057;
/** Body fields this deep and no deeper get hostile values (an array's first element stands for all). */
const MAX_FIELD_DEPTH = 3;

export interface HostileContext {
  draw: DrawValue;
  seed: number;
  document: unknown;
  validators: Validators;
  budget: number;
  /** Parameters the credentials fill: left alone. */
  filled(parameter: ParameterSpec): boolean;
  /**
   * The valid request around the hostile part: parameters (undefined: the first valid ones), and a body as raw text.
   *
   */
  build(
    parts: ParameterParts | undefined,
    body?: { value?: JsonValue; rawBody?: string; contentType?: string },
  ): FixtureRequest;
  /** The valid JSON body the field values go into (undefined: the operation takes no JSON body). */
  jsonBody?: { value: JsonValue; mediaType: string; schemaPointer: string };
}

interface Pick {
  where: string;
  value: HostileValue | { kind: 'body'; label: string; raw?: string; contentType: string };
  request(): FixtureRequest | undefined;
  /** The value breaks the document's rules: the answer must be a 4xx. */
  forbidden(): boolean;
}

/** The hostile cases of one operation, at most `budget`, the same for the same seed. */
export function hostileCases(operation: Operation, context: HostileContext): Case[] {
  if (context.budget <= 0) return [];
  const targets: Pick[][][] = [];
  for (const parameter of operation.parameters) {
    if (context.filled(parameter) || parameter.schema === undefined) continue;
    if (parameter.in === 'header' && IGNORED_HEADERS.has(parameter.name.toLowerCase())) continue;
    const schema = resolveSchema(parameter.schema, context.document);
    if (!schema) continue;
    const groups = hostileValues(schema, parameter.in === 'query')
      .map((group) =>
        group
          .map((value) => parameterPick(operation, parameter, schema, value, context))
          .filter((pick): pick is Pick => pick !== undefined),
      )
      .filter((group) => group.length > 0);
    if (groups.length > 0) targets.push(groups);
  }
  if (context.jsonBody) {
    const { value } = context.jsonBody;
    for (const [pointer, field] of fieldsOf(value, '', 0)) {
      const schema = {
        type:
          typeof field === 'number'
            ? Number.isInteger(field)
              ? 'integer'
              : 'number'
            : typeof field === 'bigint'
              ? 'integer'
              : typeof field,
      };
      targets.push(
        hostileValues(schema, false).map((group) => group.map((hostile) => fieldPick(pointer, hostile, context))),
      );
    }
    targets.push([HOSTILE_BODIES.map((body) => bodyPick(body, context))]);
  }
  const random = createSeededRandom(mixSeed(context.seed, HOSTILE_SEED, operation.id.length));
  // The first value of each class is its representative: kept first, the rest shuffled by the seed.
  const shuffle = <U>(items: U[]): U[] => {
    for (let i = items.length - 1; i > 1; i--) {
      const j = 1 + (random.next32() % i);
      [items[i], items[j]] = [items[j], items[i]];
    }
    return items;
  };
  const out: Case[] = [];
  for (const pick of pickRoundRobin(targets, context.budget, shuffle)) {
    const request = pick.request();
    if (!request) continue;
    const n = out.length + 1;
    const expect: FixtureExpectation = pick.forbidden() ? { status: '4xx' } : { hostile: true };
    out.push({
      id: `generated/${operation.id}/hostile-${n}`,
      name: `${operation.id}: ${expect.status ? 'rejects' : 'survives'} ${pick.where} = ${pick.value.label}`,
      source: 'generated',
      probe: `${pick.where}: ${pick.value.kind}`,
      steps: [{ name: 'request', request, expect, operationId: operation.id }],
    });
  }
  return out;
}

function parameterPick(
  operation: Operation,
  parameter: ParameterSpec,
  schema: Record<string, unknown>,
  value: HostileValue,
  context: HostileContext,
): Pick | undefined {
  const { text } = value;
  // A lone surrogate has no UTF-8 form, so no URL or header carries it (a JSON body does, escaped).
  if (!text.isWellFormed()) return undefined;
  if (parameter.in === 'path' && (text === '' || text === '.' || text === '..')) return undefined;
  if (parameter.in === 'header' && !HEADER_TEXT.test(text)) return undefined;
  const where = `${parameter.in} ${parameter.name}`;
  return {
    where,
    value,
    request: () => {
      const patched =
        parameter.in === 'path'
          ? { ...operation, path: operation.path.replace(`{${parameter.name}}`, encodeURIComponent(text)) }
          : operation;
      const rest = generateParameters(
        patched,
        context.draw,
        context.seed,
        context.document,
        true,
        (other) => other === parameter || context.filled(other),
        context.validators,
      );
      if (!rest.ok) return undefined;
      const parts = rest.parts;
      const key = encodeURIComponent(parameter.name);
      if (parameter.in === 'query') {
        const pieces =
          value.kind === 'repeated-key' ? [`${key}=1`, `${key}=2`] : [`${key}=${encodeURIComponent(text)}`];
        parts.rawQuery = [...parts.rawQuery, ...pieces];
      } else if (parameter.in === 'header') parts.headers = { ...parts.headers, [parameter.name.toLowerCase()]: text };
      else if (parameter.in === 'cookie') {
        const pair = `${key}=${encodeURIComponent(text)}`;
        parts.headers = { ...parts.headers, cookie: parts.headers.cookie ? `${parts.headers.cookie}; ${pair}` : pair };
      }
      return context.build(parts);
    },
    // Only a primitive is judged: how an array or object parameter reads one odd text is the server's choice.
    forbidden: () => {
      if (!isPrimitiveSchema(schema) || parameter.in === 'cookie' || value.kind === 'repeated-key') return false;
      const read = readWireText(text, schema);
      try {
        return !context.validators.at(parameter.schemaPointer)(read).ok;
      } catch {
        // A value the validator cannot even read is no value the document allows.
        return true;
      }
    },
  };
}

function fieldPick(pointer: string, value: HostileValue, context: HostileContext): Pick {
  const body = context.jsonBody!;
  const mark = 'plantstore-hostile-mark-5b2e';
  const raw = stringifyJson(withValue(body.value, pointer, mark)).replace(JSON.stringify(mark), value.json);
  return {
    where: `body ${pointer}`,
    value,
    request: () => context.build(undefined, { rawBody: raw, contentType: body.mediaType }),
    forbidden: () => {
      const parsed = parseJson(raw);
      return !parsed.ok || !context.validators.at(body.schemaPointer)(parsed.value).ok;
    },
  };
}

function bodyPick(body: (typeof HOSTILE_BODIES)[number], context: HostileContext): Pick {
  const raw = hostileBodyText(body);
  return {
    where: 'body',
    value: { kind: 'body', label: body.label, raw, contentType: body.contentType },
    request: () =>
      context.build(
        undefined,
        raw === undefined
          ? { rawBody: stringifyJson(context.jsonBody!.value), contentType: body.contentType }
          : { rawBody: raw, contentType: body.contentType },
      ),
    // Not JSON, not the declared media type, or an array where the schema wants an object: all must be refused.
    forbidden: () => {
      if (raw === undefined) return true;
      const parsed = parseJson(raw);
      return !parsed.ok || !context.validators.at(context.jsonBody!.schemaPointer)(parsed.value).ok;
    },
  };
}

/** The scalar fields of a JSON value by pointer (objects' properties, arrays' first element). */
function fieldsOf(value: JsonValue, pointer: string, depth: number): Array<[string, JsonValue]> {
  if (value === null || typeof value !== 'object') return depth === 0 ? [] : [[pointer, value]];
  if (depth >= MAX_FIELD_DEPTH) return [];
  if (Array.isArray(value)) return value.length === 0 ? [] : fieldsOf(value[0], `${pointer}/0`, depth + 1);
  return Object.entries(value).flatMap(([key, item]) =>
    fieldsOf(item, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, depth + 1),
  );
}

function withValue(value: JsonValue, pointer: string, replacement: JsonValue): JsonValue {
  const tokens = pointer
    .split('/')
    .slice(1)
    .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
  const copy = structuredClone(value);
  let node = copy as Record<string, JsonValue>;
  for (const token of tokens.slice(0, -1)) node = node[token] as Record<string, JsonValue>;
  node[tokens[tokens.length - 1]] = replacement;
  return copy;
}
