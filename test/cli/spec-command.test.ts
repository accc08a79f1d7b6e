import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { checkSpec } from '../../src/mock/admin/check-spec.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { runCommands } from './run-commands.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('plantstore-spec-');
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const LOOSE = `openapi: 3.1.0
info: { title: Loose, version: "2" }
paths:
  /things:
    get:
      responses:
        '200': { description: ok, content: { application/json: {} } }
    post:
      operationId: addThing
      security: [{ apiKey: [] }]
      requestBody: { content: { application/json: {} } }
      responses:
        '201': { description: created }
        '401': { description: no }
    delete:
      operationId: dropThings
      responses:
        '204': { description: gone }
        default: { description: error }
`;

describe('plantstore spec', () => {
  it('prints the summary and the missing-401 warning of the Plant Store with --check', async () => {
    const run = await runCommands(['spec', '--check']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /: loads as an OpenAPI 3\.1\.0 document \(OpenAPI Plant Store 1\.0\.0\) and can be mocked; 1 warning\n/,
    );
    expect(run.stdout).toContain('operations (1):\n  POST    /plants  createPlant\n');
    expect(run.stdout).toContain('schemas (3): Plant, NewPlant, Error\n');
    expect(run.stdout).toContain('security schemes (1): bearerAuth (http bearer)\n');
    expect(run.stdout).toContain(
      'warnings (1):\n  createPlant: no 401 declared although the operation requires auth\n',
    );
  });

  it('warns about what a document leaves out', async () => {
    const spec = await loadSpec(write('loose.yaml', LOOSE));
    expect(checkSpec(spec).warnings).toEqual([
      'GET /things: no operationId; example and validate name operations by operationId',
      'GET /things: no 4xx response declared, so clients cannot know the shape of an error',
      'GET /things: response 200 application/json has no schema',
      "addThing: security scheme 'apiKey' is not defined in components.securitySchemes",
      'addThing: request body application/json has no schema',
    ]);
  });

  it.each([
    [['spec'], (text: string) => JSON.parse(text)],
    [['spec', '--format', 'yaml'], (text: string) => YAML.parse(text)],
    [['spec', '--dereference', '--format', 'yaml'], (text: string) => YAML.parse(text)],
  ])('prints the dereferenced document for %j', async (args, parse) => {
    const run = await runCommands(args);
    const document = parse(run.stdout);
    expect(run.code).toBe(0);
    expect(document.paths['/plants'].post.requestBody.content['application/json'].schema.allOf[1].required).toEqual([
      'id',
    ]);
    expect(run.stdout).not.toMatch(/[&*]a\d/); // no YAML anchors or aliases
  });

  it('prints the bundled document with its internal $refs kept', async () => {
    const run = await runCommands(['spec', '--bundle']);
    expect(JSON.parse(run.stdout).paths['/plants'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/NewPlant',
    });
  });

  it.each([
    ['an invalid document', ['--spec', write('bad.yaml', 'openapi: 3.1.0\n')], /^plantstore: .*bad\.yaml/],
    ['a missing document', ['--spec', join(dir, 'nope.yaml')], /nope\.yaml: no such file/],
    ['--bundle with --dereference', ['--bundle', '--dereference'], /mutually exclusive/],
  ])('exits 2 for %s', async (_, args, stderr) => {
    const run = await runCommands(['spec', '--check', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(stderr);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
