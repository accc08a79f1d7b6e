// `--record DIR`: every exchange becomes a fixture that `plantstore verify --fixtures DIR` replays.
// The key a create sends becomes a run-unique variable ({{uniqueId}}, "plant-{{uniqueString}}",
// {{uniqueBelow N}} for an int64 edge key, whichever the request schema takes), so the recording
// replays on the same server any number of times. An exchange that refers to something an earlier
// create made (its key in a path, in a query parameter or body field named like a key, or the same
// key sent again) joins that create's fixture as a later step with the same variable (or a
// reference to the create's answer, for a key the server made); a create's text field that a later
// path names (a username) is made run-unique then. What a step expects follows the contract, not the upstream: a
// request the contract refuses expects a refusal ("4xx", as the runner's own negative cases) even where the upstream
// accepted it, and every violation seen is written above the step as a comment. Credentials become
// {{token}}. Each fixture is one YAML file, rewritten as its steps grow; integers keep every digit.
import { mkdirSync } from 'node:fs';
import { writeAtomically } from '../document/spec-cache.ts';
import { join } from 'node:path';
import { Document, type YAMLSeq } from 'yaml';
import { CREDENTIAL_QUERY, isCredentialHeader } from '../http/credential-headers.ts';
import { parseJson, type JsonValue } from '../json/exact-json.ts';
import type { HttpRequest } from '../http/types.ts';
import type { FixtureRequest, FixtureStep, StatusExpectation } from '../runner/fixture.ts';
import { findResponse, isJsonMediaType, jsonContent, type Operation } from '../document/operations.ts';
import { keyString, type ResourceBinding } from '../document/resources.ts';
import { textOf } from '../http/bytes.ts';
import type { Validators } from '../validation/validator.ts';
import { withUniqueField, type UniqueBody } from '../runner/generate/generated-request-parts.ts';
import type { Violation } from './violations.ts';

export interface RecordedExchange {
  request: HttpRequest;
  operation?: Operation;
  status: number;
  /** The answer's JSON body, when it has one. */
  responseJson?: JsonValue;
  /** What broke the contract, either way. */
  violations: Violation[];
}

export interface Recorder {
  record(exchange: RecordedExchange): void;
  /** The fixture files written so far. */
  readonly files: string[];
}

export interface RecorderSetup {
  dir: string;
  upstream: string;
  bindings: Map<Operation, ResourceBinding>;
  /** Header and query names that carry credentials (apiKey schemes), lower case. */
  secretNames: ReadonlySet<string>;
  /** The document's validators: a run-unique key must still fit the request's schema. */
  validators: Validators;
  /** Leave out every exchange that had a violation (--record-skip-violations). */
  skipViolations: boolean;
}

interface Fixture {
  file: string;
  name: string;
  steps: FixtureStep[];
  /** The comment above each step (its violations), by index. */
  notes: Array<string | undefined>;
  /** Run-unique keys given out in this fixture ({{uniqueId}}, {{uniqueId 2}}, {{uniqueId 3}}). */
  uniques: number;
}

interface Created {
  fixture: Fixture;
  /** The key as text, as it appears in a path. */
  key: string;
  /** The key's type in the schema: a body value is replaced only where it has that type. */
  type: 'integer' | 'string';
  /** The variable that stands for it in later steps. */
  variable: string;
}

/** A text field a create sent, which becomes a key once a later path names its value. */
interface Named {
  fixture: Fixture;
  /** The create's step and its body as sent (with the run-unique values' samples, to validate). */
  body: { step: FixtureStep; sample: Record<string, JsonValue> };
  field: string;
  noun: string;
  check: (value: JsonValue) => { ok: boolean };
}

/**
 * Where a created key counts as referred to beyond a path: a field or parameter named like a key
 * (`id`, `plantId`, `owner_id`, the create's key field), or any value of 6 characters or more (a
 * short value such as 1 or "red" is as likely a count or a colour as a key).
 */
const KEY_NAME = /id$/i;
const LONG_KEY = 6;
const namesKey = (name: string, value: string, keyField: string | undefined) =>
  KEY_NAME.test(name) || name === keyField || value.length >= LONG_KEY;

/** The first created key named in the query or anywhere in the body (see namesKey). */
function referredIn(
  query: string,
  body: JsonValue | undefined,
  keyField: string | undefined,
  created: Map<string, Created>,
): Created | undefined {
  if (created.size === 0) return undefined;
  if (query !== '') {
    for (const [name, value] of new URLSearchParams(query)) {
      const found = created.get(value);
      if (found && namesKey(name, value, keyField)) return found;
    }
  }
  let found: Created | undefined;
  const walk = (value: JsonValue, name: string) => {
    if (found) return;
    if (Array.isArray(value)) value.forEach((item) => walk(item, name));
    else if (value !== null && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) walk(item, key);
    else {
      const text = keyString(value);
      const match = text === undefined ? undefined : created.get(text);
      if (match && sameType(value, match) && namesKey(name, text!, keyField)) found = match;
    }
  };
  if (body !== undefined) walk(body, '');
  return found;
}

/**
 * The query (`text`: every value is text) or body with every value that names `created`'s key (see namesKey) replaced
 * by its variable.
 */
function replaceKey(
  value: JsonValue,
  created: Created,
  keyField: string | undefined,
  text: boolean,
  name = '',
): JsonValue {
  if (Array.isArray(value)) return value.map((item) => replaceKey(item, created, keyField, text, name));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, replaceKey(item, created, keyField, text, key)]),
    );
  const written = keyString(value);
  // A body value is replaced only where its type is the key's: the variable takes the key's type.
  return written === created.key && (text || sameType(value, created)) && namesKey(name, written, keyField)
    ? created.variable
    : value;
}

const sameType = (value: JsonValue, created: Created) => (created.type === 'string') === (typeof value === 'string');

/** Request headers a replay needs: what the body is, what answer is wanted, and credentials. */
const KEPT_HEADERS = new Set(['content-type', 'accept', 'prefer']);

/** A recorder writing into `dir` (created if missing). */
export function createRecorder(setup: RecorderSetup): Recorder {
  mkdirSync(setup.dir, { recursive: true });
  const files: string[] = [];
  const created = new Map<string, Created>(); // by key text; the newest create of a key wins
  const named = new Map<string, Named>(); // other text fields of creates, by value, until a later path names one
  let count = 0;
  const stamp = new Date().toISOString();

  const header =
    ` Recorded by plantstore proxy from ${setup.upstream} (${stamp}).\n Replay: plantstore verify ` +
    `--target URL --fixtures ${setup.dir} --token TOKEN`;
  const write = (fixture: Fixture) => {
    const single = fixture.steps.length === 1;
    const value = single
      ? { name: fixture.name, request: fixture.steps[0].request, expect: fixture.steps[0].expect }
      : { name: fixture.name, steps: fixture.steps };
    const document = new Document(value);
    document.commentBefore = single && fixture.notes[0] ? `${header}\n\n${fixture.notes[0]}` : header;
    if (!single) {
      const steps = document.get('steps') as YAMLSeq;
      fixture.notes.forEach((note, index) => {
        if (note) (steps.items[index] as { commentBefore?: string }).commentBefore = note;
      });
    }
    // Whole or not at all: a reader (or a crash) never sees half a file.
    writeAtomically(fixture.file, document.toString({ lineWidth: 0 }));
  };

  /**
   * The named field made run-unique in its create (as a key is), now that a later step refers to it; undefined when no
   * form fits or the fixture has used its three.
   */
  const promote = (field: Named, value: string): Created | undefined => {
    named.delete(value);
    const { fixture, body } = field;
    const template = body.step.request.body;
    if (fixture.uniques >= 3 || !isRecord(template)) return undefined;
    const unique = withUniqueField(
      { template, sample: body.sample },
      field.field,
      'string',
      `${field.noun}-`,
      field.check,
      (fixture.uniques + 1) as 1 | 2 | 3,
    );
    if (!unique) return undefined;
    fixture.uniques++;
    body.step.request.body = unique.template;
    body.sample = unique.sample;
    const made: Created = { fixture, key: value, type: 'string', variable: String(unique.template[field.field]) };
    created.set(value, made);
    return made;
  };

  return {
    files,
    record(exchange) {
      const { request, operation, violations } = exchange;
      if (setup.skipViolations && violations.length > 0) return;
      const binding = operation && setup.bindings.get(operation);
      const requestJson = jsonBody(request);
      // The contract refuses this request, whatever the upstream made of it: nothing it "created" exists on a correct
      // server.
      const refused = violations.some((violation) => violation.where === 'request');
      const keyField = binding?.keyField;
      const sentKey = keyField !== undefined && isRecord(requestJson) ? keyString(requestJson[keyField]) : undefined;
      // Does this exchange refer to a key an earlier create made? In its path first, then in its query or body.
      const segments = request.path.split('/');
      let parent: Created | undefined;
      for (const segment of segments) {
        const found = segment === '' ? undefined : created.get(decodeSafe(segment));
        if (found) parent = found;
      }
      const duplicate = !parent && sentKey !== undefined ? created.get(sentKey) : undefined;
      parent ??= duplicate ?? referredIn(request.query, requestJson, keyField, created);
      // A text field of a create that a later path names (a username in /user/{username}) is a key too.
      for (const segment of parent ? [] : segments) {
        const field = segment === '' ? undefined : named.get(decodeSafe(segment));
        if (field) parent = promote(field, decodeSafe(segment));
      }

      const secrets: string[] = [];
      const fixtureRequest = toFixtureRequest(request, requestJson, setup.secretNames, secrets);
      if (parent) {
        const { key, variable } = parent;
        fixtureRequest.path = segments
          .map((segment) => (segment !== '' && decodeSafe(segment) === key ? variable : segment))
          .join('/');
        if (fixtureRequest.query)
          fixtureRequest.query = replaceKey(
            fixtureRequest.query as JsonValue,
            parent,
            keyField,
            true,
          ) as FixtureRequest['query'];
        if (fixtureRequest.body !== undefined)
          fixtureRequest.body = replaceKey(fixtureRequest.body, parent, keyField, false);
      }
      const hide = hideSecrets(fixtureRequest, secrets);
      const expect = { status: refused ? ('4xx' as const) : expectedStatus(operation, exchange.status) };
      const label = operation?.id ?? `${request.method} ${request.path}`;
      let fixture = parent?.fixture;
      const stepName = uniqueStepName(fixture, label);
      const step: FixtureStep = { name: stepName, request: fixtureRequest, expect };
      const note = violations.length > 0 ? hide(violationNote(violations, refused, exchange.status)) : undefined;
      if (fixture) {
        fixture.steps.push(step);
        fixture.notes.push(note);
      } else {
        count++;
        const file = join(setup.dir, `${String(count).padStart(4, '0')}-${fileSafe(label)}.yaml`);
        fixture = {
          file,
          name: `${String(count).padStart(4, '0')} ${label}`,
          steps: [step],
          notes: [note],
          uniques: 0,
        };
        files.push(file);
      }
      // A create the contract allows: its key is made run-unique, and later steps that name it join this fixture.
      if (
        binding?.role === 'create' &&
        keyField !== undefined &&
        !refused &&
        !duplicate &&
        exchange.status >= 200 &&
        exchange.status < 300
      ) {
        const fromResponse = isRecord(exchange.responseJson) ? keyString(exchange.responseJson[keyField]) : undefined;
        let variable: string | undefined;
        if (sentKey !== undefined && isRecord(requestJson) && isRecord(fixtureRequest.body) && fixture.uniques < 3) {
          const check = requestCheck(operation, setup.validators);
          const unique =
            check &&
            uniqueKey(
              { template: fixtureRequest.body, sample: requestJson },
              keyField,
              binding.keyType,
              binding.noun,
              check,
              (fixture.uniques + 1) as 1 | 2 | 3,
            );
          if (unique) {
            fixture.uniques++;
            fixtureRequest.body = unique.template;
            variable = String(unique.template[keyField]);
          }
        } else if (sentKey === undefined && fromResponse !== undefined)
          variable = `{{steps.${stepName}.response.body.${keyField}}}`;
        const key = sentKey ?? fromResponse;
        if (key !== undefined && variable !== undefined)
          created.set(key, { fixture, key, type: binding.keyType, variable });
        if (isRecord(requestJson)) {
          const check = requestCheck(operation, setup.validators);
          const body = { step, sample: requestJson };
          for (const [field, value] of Object.entries(requestJson))
            if (field !== keyField && typeof value === 'string' && value.length >= 3 && check && !created.has(value))
              named.set(value, { fixture, body, field, noun: binding.noun, check });
        }
      }
      write(fixture);
    },
  };
}

/** The comment above a step: what broke the contract, and why the step expects what it does. */
function violationNote(violations: Violation[], refused: boolean, status: number): string {
  const lines = violations.map(
    (v) => ` - ${v.where} ${v.code}${v.pointer ? ` ${v.pointer}` : ''}: ${v.message.replace(/\s+/g, ' ')}`,
  );
  const why = refused
    ? status < 400
      ? ` The contract refuses this request; the upstream answered ${status}. A correct server answers 4xx.`
      : ` The contract refuses this request (the upstream answered ${status}).`
    : ` The upstream answered ${status}; its answer breaks the contract, which the replay checks.`;
  return [' Violations seen while recording:', ...lines, why].join('\n');
}

/** Checks a body against the create's JSON request schema, or undefined when it has none. */
function requestCheck(
  operation: Operation | undefined,
  validators: Validators,
): ((value: JsonValue) => { ok: boolean }) | undefined {
  const content = operation?.requestBody && jsonContent(operation.requestBody.contents);
  return content?.schema === undefined ? undefined : validators.at(content.schemaPointer);
}

/** Integers a double cannot hold: a key past them stays past them, made unique beside its value. */
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The body with its key made run-unique: an int64 edge key as {{uniqueBelow N}} / {{uniqueAbove N}}
 * (still past 2^53, so the replay still checks that the server keeps every digit), any other as the
 * runner's generated sequences make theirs. Undefined when no form fits the schema (an enum, a tight pattern).
 */
function uniqueKey(
  body: UniqueBody,
  field: string,
  type: 'integer' | 'string',
  noun: string,
  check: (value: JsonValue) => { ok: boolean },
  ordinal: 1 | 2 | 3,
): UniqueBody | undefined {
  const value = body.sample[field];
  if (ordinal === 1 && (typeof value === 'bigint' || typeof value === 'number') && Number.isInteger(Number(value))) {
    const n = BigInt(value);
    if (n > SAFE || n < -SAFE) {
      const below = n > 0n;
      const sample = below ? n - (1n << 51n) : n + (1n << 51n);
      const candidate = { ...body.sample, [field]: sample };
      if (check(candidate).ok)
        return {
          template: { ...body.template, [field]: `{{unique${below ? 'Below' : 'Above'} ${n}}}` },
          sample: candidate,
        };
    }
  }
  return withUniqueField(body, field, type, `${noun}-`, check, ordinal);
}

function toFixtureRequest(
  request: HttpRequest,
  json: JsonValue | undefined,
  secretNames: ReadonlySet<string>,
  secrets: string[],
): FixtureRequest {
  const out: FixtureRequest = { method: request.method, path: request.path };
  if (request.query !== '') {
    const query: Record<string, string | string[]> = {};
    for (const [name, value] of new URLSearchParams(request.query)) {
      let kept = value;
      if (CREDENTIAL_QUERY.test(name) || secretNames.has(name.toLowerCase())) {
        if (value !== '') secrets.push(value);
        kept = '{{token}}';
      }
      const before = query[name];
      query[name] = before === undefined ? kept : [...[before].flat(), kept];
    }
    out.query = query;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (isCredentialHeader(name) || secretNames.has(name)) {
      // The scheme stays ("Bearer {{token}}"); a bare scheme carries no credential and stays as sent.
      const match = /^(\S+)\s+(\S.*)$/.exec(value);
      if (match) {
        secrets.push(match[2]);
        headers[name] = `${match[1]} {{token}}`;
      } else if (/^(bearer|basic)$/i.test(value.trim())) headers[name] = value;
      else {
        secrets.push(value);
        headers[name] = '{{token}}';
      }
    } else if (KEPT_HEADERS.has(name)) headers[name] = value;
  }
  if (json !== undefined && isJsonMediaType(request.headers['content-type'] ?? '')) {
    // A JSON body is kept as JSON (so a key can become {{uniqueId}}); the fixture sends it as application/json.
    out.body = json;
    if (headers['content-type'] === 'application/json') delete headers['content-type'];
  } else if (request.body.length > 0) out.rawBody = textOf(request.body);
  if (Object.keys(headers).length > 0) out.headers = headers;
  return out;
}

/**
 * Every remaining occurrence of a credential (echoed in a body, a path) becomes {{token}}; returns the same hiding for
 * other text.
 */
function hideSecrets(request: FixtureRequest, secrets: string[]): (text: string) => string {
  const long = secrets.filter((secret) => secret.length >= 4).sort((a, b) => b.length - a.length);
  if (long.length === 0) return (text) => text;
  const hide = (text: string) =>
    long.reduce(
      (out, secret) => out.replaceAll(secret, '{{token}}').replaceAll(encodeURIComponent(secret), '{{token}}'),
      text,
    );
  const walk = (value: JsonValue): JsonValue => {
    if (typeof value === 'string') return hide(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]));
    return value;
  };
  request.path = hide(request.path);
  if (request.query) request.query = walk(request.query as JsonValue) as FixtureRequest['query'];
  if (request.body !== undefined) request.body = walk(request.body);
  if (request.rawBody !== undefined) request.rawBody = hide(request.rawBody);
  return hide;
}

/** The observed status where the operation declares it; else its class (an undeclared status is not worth pinning). */
function expectedStatus(operation: Operation | undefined, status: number): StatusExpectation {
  if (operation && findResponse(operation, status)) return status;
  return `${Math.floor(status / 100) as 1 | 2 | 3 | 4 | 5}xx`;
}

function uniqueStepName(fixture: Fixture | undefined, label: string): string {
  const base = label.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^([^A-Za-z_])/, '_$1');
  if (!fixture) return base;
  const taken = new Set(fixture.steps.map((step) => step.name));
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}_${n}`)) n++;
  return `${base}_${n}`;
}

function fileSafe(label: string): string {
  return label.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 60);
}

function jsonBody(request: HttpRequest): JsonValue | undefined {
  if (request.body.length === 0) return undefined;
  const parsed = parseJson(textOf(request.body));
  return parsed.ok ? parsed.value : undefined;
}

function isRecord(value: JsonValue | undefined): value is Record<string, JsonValue> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function decodeSafe(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
