// Fixture files: the shipped ones load; a malformed one is reported with its file, its place
// (line:column) and the reason.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { PlantstoreError } from '../../src/errors.ts';
import { DEFAULT_FIXTURES_DIR, FIXTURE_SCHEMA_PATH, loadFixtures } from '../../src/runner/index.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('plantstore-fixtures-');

function problemsOf(name: string, text: string): string[] {
  const file = join(dir, name);
  writeFileSync(file, text);
  try {
    loadFixtures([file]);
  } catch (error) {
    expect(error).toBeInstanceOf(PlantstoreError);
    expect((error as PlantstoreError).code).toBe('FIXTURE_INVALID');
    return (error as PlantstoreError).details.slice(0, -1);
  }
  throw new Error('expected the fixture to be rejected');
}

const valid = `name: ok
request:
  method: POST
  path: /plants
expect:
  status: 200
`;

describe('loading fixtures', () => {
  it('loads the shipped Plant Store fixtures as cases', () => {
    const cases = loadFixtures([DEFAULT_FIXTURES_DIR]);
    expect(cases.length).toBe(23);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    expect(cases.find((c) => c.name === 'rejects a second plant with the same id')!.steps.map((s) => s.name)).toEqual([
      'create',
      'duplicate',
    ]);
  });

  it('ships a fixture schema that is itself a valid JSON Schema', () => {
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validateSchema(JSON.parse(readFileSync(FIXTURE_SCHEMA_PATH, 'utf8')))).toBe(true);
  });

  it('keeps int64 literals exact in YAML and JSON fixtures', () => {
    writeFileSync(
      join(dir, 'big.json'),
      JSON.stringify({
        name: 'big',
        request: { method: 'POST', path: '/plants', body: { id: 1 } },
        expect: { status: 200 },
      }).replace('"id":1', '"id":9007199254740993'),
    );
    const [json] = loadFixtures([join(dir, 'big.json')]);
    expect((json.steps[0].request.body as { id: unknown }).id).toBe(9007199254740993n);
  });

  it.each([
    ['an unknown property', valid.replace('expect:', 'expct:'), /x\.yaml:1:1: \(fixture\): unknown property 'expct'/],
    [
      'a request without expect',
      'name: a\nrequest:\n  method: POST\n  path: /plants\n',
      /x\.yaml:1:1: \(fixture\): 'expect' is required with 'request'/,
    ],
    [
      'an unknown method',
      valid.replace('POST', 'FETCH'),
      /x\.yaml:3:11: \/request\/method: must be one of GET, PUT, POST/,
    ],
    [
      'a status that is no status',
      valid.replace('200', '"2xy"'),
      /x\.yaml:6:11: \/expect\/status: must be a status \(100-599\), a class such as "4xx"/,
    ],
    [
      'a path without a leading slash',
      valid.replace('/plants', 'plants'),
      /x\.yaml:4:9: \/request\/path: must match pattern/,
    ],
    [
      'steps and a request together',
      `${valid}steps:\n  - name: s\n    request: {method: GET, path: /}\n    expect: {status: 200}\n`,
      /has either steps or request and expect, not both/,
    ],
    [
      'an unknown variable',
      valid.replace('path: /plants', 'path: /plants/{{plantId}}'),
      /x\.yaml:4:9: \/request\/path: unknown variable \{\{plantId\}\}/,
    ],
    [
      'a reference to a later step',
      `name: seq\nsteps:\n  - name: a\n    request: {method: GET, path: "/{{steps.b.response.body.id}}"}\n    expect: {status: 200}\n  - name: b\n    request: {method: GET, path: /}\n    expect: {status: 200}\n`,
      /x\.yaml:4:34: \/steps\/0\/request\/path: \{\{steps\.b\.response\.body\.id\}\} names step 'b', which does not run before this one/,
    ],
    ['a YAML syntax error', 'name: [unclosed\n', /x\.yaml:\d+:\d+: /],
    [
      'two fixtures with one name',
      `- ${valid.replaceAll('\n', '\n  ').trim()}\n- ${valid.replaceAll('\n', '\n  ').trim()}\n`,
      /x\.yaml:7:9: \/1\/name: another fixture in this file is named 'ok'/,
    ],
  ])('reports %s with the file, the place and the reason', (_what, text, pattern) => {
    const problems = problemsOf('x.yaml', text);
    expect(problems.join('\n')).toMatch(pattern);
  });

  it('reports a path that does not exist', () => {
    expect(() => loadFixtures([join(dir, 'missing')])).toThrow(/problem/);
  });
});
