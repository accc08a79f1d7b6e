// Which schemas the generation audit must draw to know a body can be made. A draw costs the
// schema's compiled validator (most of a first load's audit: Stripe's answers reach most of its
// components) and json-schema-faker's work. A schema made only of what json-schema-faker always
// satisfies, and the validator reads the same way, cannot fail to generate: plain objects and arrays
// whose bounds agree, strings, numbers, booleans, enums of the declared type, well-known formats,
// and anyOf over such schemas (any branch's draw is valid). Everything else (oneOf, whose branches
// may overlap; allOf, not, patterns, const, uniqueItems, multipleOf, conditionals, required names
// no property declares, ...) is drawn, as before. The mock's answers draw from the same generator,
// so a schema called plain here is one a request can never find unsatisfiable.

type Node = Record<string, unknown>;

/** Keywords that say nothing about the value json-schema-faker draws or the validator checks. */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'example',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'xml',
  'externalDocs',
  'discriminator',
  '$comment',
  'nullable',
]);

/** Formats json-schema-faker draws and the validator checks alike. */
const DRAWN_FORMATS = new Set([
  'date-time',
  'date',
  'time',
  'email',
  'uri',
  'url',
  'uuid',
  'hostname',
  'ipv4',
  'ipv6',
  'int32',
  'int64',
  'float',
  'double',
  'byte',
  'binary',
  'password',
  'unix-time',
]);

/**
 * Formats the validator (ajv-formats) checks. One it does not know takes any string, and json-schema-faker draws a
 * plain string for it (Twilio's `date-time-rfc-2822`, `currency`): plain too.
 */
const VALIDATED_FORMATS = new Set([
  ...DRAWN_FORMATS,
  'iso-time',
  'iso-date-time',
  'duration',
  'uri-reference',
  'uri-template',
  'regex',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
]);
const plainFormat = (format: string) => DRAWN_FORMATS.has(format) || !VALIDATED_FORMATS.has(format);

const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
const PLAIN = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'anyOf',
  '$ref',
]);

/**
 * Whether a schema (of the dereferenced document) must be drawn to know it can be generated. A cycle counts as plain
 * where the rest of it is.
 */
export function needsDraw(schema: unknown, context: RiskContext): boolean {
  if (schema === true || schema === undefined) return false;
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return true;
  const cached = context.known.get(schema);
  if (cached !== undefined) return cached;
  context.known.set(schema, false); // a cycle back here adds no risk of its own
  const risky = risk(schema as Node, context);
  context.known.set(schema, risky);
  return risky;
}

export interface RiskContext {
  /** Resolves a `$ref` left in the dereferenced document (a circular one). */
  resolve: (ref: string) => unknown;
  /**
   * Whether a plain string with a pattern (and lengths) is drawn valid every time: checked by drawing it alone, which
   * needs no compiled validator (Twilio's 34-character sids, Stripe's URL prefixes).
   */
  patternHolds: (schema: PatternString) => boolean;
  /** What is already known, by schema node. */
  known: Map<object, boolean>;
}

export interface PatternString {
  pattern: string;
  minLength?: number;
  maxLength?: number;
}

const PATTERN_STRING = new Set(['type', 'pattern', 'minLength', 'maxLength']);

function risk(node: Node, context: RiskContext): boolean {
  const child = (value: unknown) => needsDraw(value, context);
  const resolve = context.resolve;
  if (typeof node.pattern === 'string') {
    const own = Object.keys(node).filter((key) => !ANNOTATIONS.has(key) && !key.startsWith('x-'));
    if (node.type !== 'string' || !own.every((key) => PATTERN_STRING.has(key))) return true;
    if (!ordered(node.minLength, node.maxLength)) return true;
    return !context.patternHolds({
      pattern: node.pattern,
      minLength: node.minLength as number | undefined,
      maxLength: node.maxLength as number | undefined,
    });
  }
  for (const key of Object.keys(node))
    if (!PLAIN.has(key) && !ANNOTATIONS.has(key) && !key.startsWith('x-')) return true;
  if (typeof node.$ref === 'string') {
    const target = resolve(node.$ref);
    return Object.keys(node).length > 1 || target === undefined || child(target);
  }
  const types = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
  if (!types.every((type) => typeof type === 'string' && TYPES.has(type)) || types.length > 2) return true;
  if (node.format !== undefined && !(typeof node.format === 'string' && plainFormat(node.format))) return true;
  if (!ordered(node.minLength, node.maxLength) || !ordered(node.minimum, node.maximum)) return true;
  if (!ordered(node.minItems, node.maxItems)) return true;
  if (node.enum !== undefined) {
    // An enum beside a format or a bound may list values they refuse: drawn.
    if (!plainEnum(node.enum, types)) return true;
    if (['format', 'minLength', 'maxLength', 'minimum', 'maximum'].some((key) => node[key] !== undefined)) return true;
  }
  // A format that makes its own string may not fit the lengths beside it (base64 of a given length).
  if (node.format !== undefined && (node.minLength !== undefined || node.maxLength !== undefined)) return true;
  // Integer bounds with no integer between them (0.5 to 0.7).
  if (
    types.length === 1 &&
    types[0] === 'integer' &&
    typeof node.minimum === 'number' &&
    typeof node.maximum === 'number' &&
    Math.ceil(node.minimum) > Math.floor(node.maximum)
  )
    return true;
  if (node.properties !== undefined) {
    if (node.properties === null || typeof node.properties !== 'object' || Array.isArray(node.properties)) return true;
    for (const property of Object.values(node.properties)) if (child(property)) return true;
  }
  if (node.required !== undefined) {
    const declared = (node.properties ?? {}) as Node;
    if (!Array.isArray(node.required) || !node.required.every((name) => typeof name === 'string' && name in declared))
      return true;
  }
  if (node.additionalProperties !== undefined && typeof node.additionalProperties !== 'boolean')
    if (child(node.additionalProperties)) return true;
  if (node.items !== undefined && (Array.isArray(node.items) || child(node.items))) return true;
  if (node.anyOf !== undefined) {
    if (!Array.isArray(node.anyOf) || node.anyOf.length === 0) return true;
    // Beside other keywords, a branch's draw must meet them too: only a bare anyOf is plain.
    if (Object.keys(node).some((key) => key !== 'anyOf' && !ANNOTATIONS.has(key) && !key.startsWith('x-'))) return true;
    for (const branch of node.anyOf) if (child(branch)) return true;
  }
  return false;
}

const ordered = (low: unknown, high: unknown) =>
  (low === undefined || typeof low === 'number') &&
  (high === undefined || typeof high === 'number') &&
  (low === undefined || high === undefined || low <= high);

/** A non-empty enum whose values are all of the declared type (or of any type where none is declared). */
function plainEnum(values: unknown, types: unknown[]): boolean {
  if (!Array.isArray(values) || values.length === 0) return false;
  if (types.length === 0) return true;
  const typeOf = (value: unknown) =>
    value === null
      ? 'null'
      : Array.isArray(value)
        ? 'array'
        : typeof value === 'number'
          ? Number.isInteger(value)
            ? 'integer'
            : 'number'
          : typeof value;
  return values.every((value) => {
    const type = typeOf(value);
    return types.includes(type) || (type === 'integer' && types.includes('number'));
  });
}
