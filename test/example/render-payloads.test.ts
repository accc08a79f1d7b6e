import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { renderPayloads, type RenderOptions } from '../../src/example/render-payloads.ts';
import { parseJson } from '../../src/json/exact-json.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { resolveTarget, type ExampleTarget } from '../../src/document/resolve-target.ts';

let target: ExampleTarget;
beforeAll(async () => {
  target = resolveTarget(await loadSpec(), 'createPlant');
});

const big = { name: "Fern's", id: 9223372036854775807n };
const small = { name: 'Moss', id: -3 };
const options = (overrides: Partial<RenderOptions>): RenderOptions => ({
  format: 'json',
  as: 'body',
  list: false,
  target,
  baseUrl: 'http://127.0.0.1:4010',
  invalid: false,
  ...overrides,
});

describe('render payloads', () => {
  it.each([
    ['json, one payload', options({}), [big], '{\n  "name": "Fern\'s",\n  "id": 9223372036854775807\n}\n'],
    [
      'json, a list',
      options({ list: true }),
      [big, small],
      '[\n  {\n    "name": "Fern\'s",\n    "id": 9223372036854775807\n  },\n  {\n    "name": "Moss",\n    "id": -3\n  }\n]\n',
    ],
    [
      'ndjson',
      options({ format: 'ndjson', list: true }),
      [big, small],
      '{"name":"Fern\'s","id":9223372036854775807}\n{"name":"Moss","id":-3}\n',
    ],
    ['yaml, one payload', options({ format: 'yaml' }), [big], "name: Fern's\nid: 9223372036854775807\n"],
    ['yaml, a list', options({ format: 'yaml', list: true }), [small], '- name: Moss\n  id: -3\n'],
  ])('writes %s', (_, opts, bodies, expected) => {
    expect(
      renderPayloads(
        bodies.map((body) => ({ body })),
        opts,
      ),
    ).toBe(expected);
  });

  it('writes malformed JSON as its raw text in ndjson and alone in json', () => {
    expect(
      renderPayloads([{ body: small }, { rawBody: '{"name":"Moss"' }], options({ format: 'ndjson', list: true })),
    ).toBe('{"name":"Moss","id":-3}\n{"name":"Moss"\n');
    expect(renderPayloads([{ rawBody: '{"name":"Moss"' }], options({}))).toBe('{"name":"Moss"\n');
  });

  it('keeps int64 exact through YAML', () => {
    expect(YAML.parse(renderPayloads([{ body: big }], options({ format: 'yaml' })), { intAsBigInt: true }).id).toBe(
      9223372036854775807n,
    );
  });

  it('prints a ready curl command with the method, URL, content type, token placeholder and quoted body', () => {
    expect(renderPayloads([{ body: big }], options({ as: 'curl', baseUrl: 'http://localhost:8080/' }))).toBe(
      `curl -sS -i -X POST 'http://localhost:8080/plants' -H 'Content-Type: application/json' -H "Authorization: Bearer $PLANTSTORE_TOKEN" --data-raw '{"name":"Fern'\\''s","id":9223372036854775807}'\n`,
    );
  });

  it.each([
    [false, 200, 'createPlant example 1'],
    [true, '4xx', 'createPlant rejects /id: removed required field'],
  ])('prints a fixture in the runner format (invalid: %s)', (invalid, status, name) => {
    const text = renderPayloads(
      [{ body: small, description: '/id: removed required field' } as never],
      options({ as: 'fixture', invalid }),
    );
    const parsed = parseJson(text);
    expect(parsed.ok && parsed.value).toEqual({
      name,
      request: {
        method: 'POST',
        path: '/plants',
        headers: { authorization: 'Bearer {{token}}', 'content-type': 'application/json' },
        body: small,
      },
      expect: { status },
    });
  });

  it('puts malformed JSON of a fixture in rawBody', () => {
    const parsed = parseJson(renderPayloads([{ rawBody: '{"a":' }], options({ as: 'fixture', invalid: true })));
    expect(parsed.ok && (parsed.value as { request: { rawBody: string } }).request.rawBody).toBe('{"a":');
  });
});
