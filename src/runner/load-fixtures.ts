// Reads fixture files (YAML or JSON; a file, or a folder searched recursively) into cases. Every
// file is checked against fixtures/fixture.schema.json, then for what a schema cannot say (unique
// names, variables that exist, steps referenced before they run). All problems of all files are
// reported together, each as "file:line:column: where: why".
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { isNode, LineCounter, parseDocument, type Document } from 'yaml';
import { PlantstoreError } from '../errors.ts';
import type { JsonValue } from '../json/exact-json.ts';
import { toValidationView } from '../json/int64.ts';
import { escapePointerToken } from '../document/json-pointer.ts';
import type { Case, FixtureExpectation, FixtureRequest, FixtureStep } from './fixture.ts';
import { checkVariable, variablesIn } from './run/variables.ts';

const FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');

/** The shipped Plant Store fixtures: the default when verifying against the built-in document. */
export const DEFAULT_FIXTURES_DIR = join(FIXTURES_DIR, 'plant-store');

/** The JSON Schema every fixture file must satisfy. */
export const FIXTURE_SCHEMA_PATH = join(FIXTURES_DIR, 'fixture.schema.json');

const FIXTURE_FILE = /\.(ya?ml|json)$/i;

interface RawFixture {
  name: string;
  request?: FixtureRequest;
  expect?: FixtureExpectation;
  steps?: FixtureStep[];
}

/**
 * Loads the fixtures under the given files and folders, in path order.
 * @example const cases = loadFixtures(['fixtures/plant-store']);
 */
export function loadFixtures(paths: string[]): Case[] {
  const validate = compileFixtureSchema();
  const problems: string[] = [];
  const cases: Case[] = [];
  for (const file of expandPaths(paths, problems)) cases.push(...loadFile(file, validate, problems));
  if (problems.length > 0) {
    throw new PlantstoreError(
      'FIXTURE_INVALID',
      `${problems.length} problem${problems.length === 1 ? '' : 's'} in fixture files`,
      [...problems, `The format: docs/reference.md "Fixtures", and ${relative(process.cwd(), FIXTURE_SCHEMA_PATH)}.`],
    );
  }
  return cases;
}

function compileFixtureSchema(): ValidateFunction {
  const schema = JSON.parse(readFileSync(FIXTURE_SCHEMA_PATH, 'utf8')) as { $id: string };
  // A separate Ajv: this judges the runner's own file format, not the API's schemas.
  const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true });
  ajv.addSchema(schema);
  return ajv.getSchema(`${schema.$id}#/$defs/fixture`)!;
}

function expandPaths(paths: string[], problems: string[]): string[] {
  const files: string[] = [];
  for (const path of paths) {
    const absolute = resolve(path);
    let isDirectory: boolean;
    try {
      isDirectory = statSync(absolute).isDirectory();
    } catch {
      problems.push(`${path}: no such file or folder`);
      continue;
    }
    if (!isDirectory) {
      files.push(absolute);
      continue;
    }
    const found = readdirSync(absolute, { recursive: true, encoding: 'utf8' })
      .filter((name) => FIXTURE_FILE.test(name) && !name.endsWith('.schema.json'))
      .map((name) => join(absolute, name))
      .sort();
    if (found.length === 0) problems.push(`${path}: no fixture files (*.yaml, *.yml, *.json) in this folder`);
    files.push(...found);
  }
  return [...new Set(files)];
}

function loadFile(file: string, validate: ValidateFunction, problems: string[]): Case[] {
  const shown = relative(process.cwd(), file) || file;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    problems.push(`${shown}: cannot read: ${(error as Error).message}`);
    return [];
  }
  // JSON is YAML too, so one parser gives positions for both; big integers stay exact.
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { intAsBigInt: true, lineCounter, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    for (const error of document.errors)
      problems.push(`${shown}:${place(lineCounter, error.pos[0])}: ${error.message.split('\n')[0]}`);
    return [];
  }
  const value = exactNumbers(document.toJS());
  const list = Array.isArray(value) ? value : [value];
  const prefix = Array.isArray(value) ? (index: number) => `/${index}` : () => '';
  const before = problems.length;
  const names = new Set<string>();
  list.forEach((item, index) => {
    const at = (pointer: string) => {
      const full = `${prefix(index)}${pointer}`;
      return `${shown}:${placeOf(document, lineCounter, full)}: ${full || '(fixture)'}`;
    };
    if (!validate(toValidationView(item as JsonValue))) {
      for (const error of relevantErrors(validate.errors ?? []))
        problems.push(`${at(error.instancePath)}: ${describe(error)}`);
      return;
    }
    const fixture = item as RawFixture;
    if (names.has(fixture.name))
      problems.push(`${at('/name')}: another fixture in this file is named '${fixture.name}'`);
    names.add(fixture.name);
    checkSteps(fixture, at, problems);
  });
  if (problems.length > before) return [];
  return (list as RawFixture[]).map((fixture) => ({
    id: `${shown}#${fixture.name}`,
    name: fixture.name,
    source: shown,
    steps: fixture.steps ?? [{ name: 'request', request: fixture.request!, expect: fixture.expect! }],
  }));
}

function checkSteps(fixture: RawFixture, at: (pointer: string) => string, problems: string[]): void {
  const steps = fixture.steps ?? [{ name: 'request', request: fixture.request!, expect: fixture.expect! }];
  const earlier: string[] = [];
  steps.forEach((step, index) => {
    const base = fixture.steps ? `/steps/${index}` : '';
    if (earlier.includes(step.name)) problems.push(`${at(`${base}/name`)}: another step is named '${step.name}'`);
    for (const [pointer, text] of stringsAt({ request: step.request, expect: step.expect }, base)) {
      for (const name of variablesIn(text)) {
        const why = checkVariable(name, earlier);
        if (why) problems.push(`${at(pointer)}: ${why}`);
      }
    }
    earlier.push(step.name);
  });
}

/** Every string of a value with its JSON pointer. */
function stringsAt(value: unknown, pointer: string, out: Array<[string, string]> = []): Array<[string, string]> {
  if (typeof value === 'string') out.push([pointer, value]);
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) stringsAt(item, `${pointer}/${escapePointerToken(key)}`, out);
  }
  return out;
}

/** YAML's BigInts back to numbers where a double holds them exactly (the toolkit's JsonValue). */
function exactNumbers(value: unknown): unknown {
  if (typeof value === 'bigint')
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  if (Array.isArray(value)) return value.map(exactNumbers);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      Object.defineProperty(out, key, {
        value: exactNumbers(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  }
  return value;
}

// Errors inside an anyOf/not say less than the anyOf itself ("must be string" x3); keep the outer one.
function relevantErrors(errors: ErrorObject[]): ErrorObject[] {
  const composite = errors.filter((e) => ['anyOf', 'oneOf', 'not'].includes(e.keyword));
  return errors.filter(
    (e) =>
      !composite.some(
        (c) =>
          c !== e && e.schemaPath.startsWith(`${c.schemaPath.slice(0, c.schemaPath.lastIndexOf('/'))}/${c.keyword}/`),
      ),
  );
}

function describe(error: ErrorObject): string {
  const custom = (error.parentSchema as { 'x-messages'?: Record<string, string> } | undefined)?.['x-messages']?.[
    error.keyword
  ];
  if (custom) return custom;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const allowed = Object.keys((error.parentSchema as { properties?: object })?.properties ?? {});
      return (
        `unknown property ` +
        `'${String(params.additionalProperty)}'${allowed.length ? `; allowed: ${allowed.join(', ')}` : ''}`
      );
    }
    case 'required':
      return `'${String(params.missingProperty)}' is required`;
    case 'dependentRequired':
      return `'${String(params.missingProperty)}' is required with '${String(params.property)}'`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'anyOf':
      return error.instancePath.endsWith('/status')
        ? 'must be a status (100-599), a class such as "4xx", or a list of them'
        : 'matches none of the allowed forms';
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}

function placeOf(document: Document, lineCounter: LineCounter, pointer: string): string {
  const path = pointer
    .split('/')
    .slice(1)
    .map((token) => (/^\d+$/.test(token) ? Number(token) : token.replaceAll('~1', '/').replaceAll('~0', '~')));
  // The deepest node that exists: a missing property is reported where its object is.
  for (let length = path.length; length >= 0; length--) {
    const node = length === 0 ? document.contents : document.getIn(path.slice(0, length), true);
    if (isNode(node) && node.range) return place(lineCounter, node.range[0]);
  }
  return '1:1';
}

function place(lineCounter: LineCounter, offset: number): string {
  const { line, col } = lineCounter.linePos(offset);
  return `${line}:${col}`;
}
