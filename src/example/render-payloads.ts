// Payloads to text for stdout. `json` is always one JSON document (a list becomes an array),
// `ndjson` one compact payload per line, `yaml` one YAML document; curl commands are shell lines
// whatever the format. int64 values stay exact in every format (bigints are written as literals).
import YAML from 'yaml';
import { stringifyJson, type JsonValue } from '../json/exact-json.ts';
import type { PayloadFormat, PayloadShape } from './payload-formats.ts';
import { toCurl, toFixture, type Payload } from './payload-shapes.ts';
import type { ExampleTarget } from '../document/resolve-target.ts';

export interface RenderOptions {
  format: PayloadFormat;
  as: PayloadShape;
  /** Write a list (JSON array, YAML sequence) even for one payload. */
  list: boolean;
  target: ExampleTarget;
  baseUrl: string;
  invalid: boolean;
  /** Compact JSON writer; the generator's `compactJson` reuses texts it already made. */
  compact?: (value: JsonValue) => string;
}

type Item = { json: JsonValue } | { raw: string };

/** Renders payloads as stdout text, ending with a newline. */
export function renderPayloads(payloads: Payload[], options: RenderOptions): string {
  if (options.as === 'curl')
    return payloads.map((payload) => `${toCurl(payload, options.target, options.baseUrl)}\n`).join('');
  const items: Item[] =
    options.as === 'fixture'
      ? payloads.map((payload, index) => ({
          json: toFixture(payload, options.target, fixtureName(options, index, payload), options.invalid) as JsonValue,
        }))
      : payloads.map((payload) => ('body' in payload ? { json: payload.body } : { raw: payload.rawBody }));
  switch (options.format) {
    case 'ndjson': {
      const compact = options.compact ?? ((value: JsonValue) => stringifyJson(value));
      return items.map((item) => `${'raw' in item ? item.raw : compact(item.json)}\n`).join('');
    }
    case 'yaml':
      return YAML.stringify(options.list ? items.map(asJson) : asJson(items[0] ?? { json: null }), {
        aliasDuplicateObjects: false,
      });
    case 'json':
      if (!options.list && items.length === 1 && 'raw' in items[0]) return `${items[0].raw}\n`;
      return `${stringifyJson(options.list ? items.map(asJson) : asJson(items[0] ?? { json: null }), 2)}\n`;
  }
}

function fixtureName(options: RenderOptions, index: number, payload: Payload): string {
  const id = options.target.operation?.id ?? options.target.name;
  const description = (payload as { description?: string }).description;
  return options.invalid && description ? `${id} rejects ${description}` : `${id} example ${index + 1}`;
}

// A list cannot hold text that is not JSON; the command asks for no malformed payloads there, so
// this string fallback only shows up if a caller does.
function asJson(item: Item): JsonValue {
  return 'raw' in item ? item.raw : item.json;
}
