// `--record DIR`: every exchange becomes a fixture that `plantstore verify --fixtures DIR` replays.
// An exchange that refers to something an earlier create made (its key in a path, or the same key
// sent again) joins that create's fixture as a later step, and the key becomes {{uniqueId}} in
// every step (or a reference to the create's answer, for a key the server made), so the sequence
// replays on any server, any number of times. A key nothing refers to stays as it was sent. Credentials become {{token}}. Each fixture is one YAML file,
// rewritten as its steps grow; integers keep every digit.
import { mkdirSync } from 'node:fs';
import { writeAtomically } from '../document/spec-cache.ts';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { CREDENTIAL_QUERY, isCredentialHeader } from '../http/credential-headers.ts';
import { parseJson, type JsonValue } from '../json/exact-json.ts';
import type { MockRequest } from '../http/types.ts';
import type { FixtureRequest, FixtureStep, StatusExpectation } from '../runner/fixture.ts';
import { findResponse, isJsonMediaType, type Operation } from '../document/operations.ts';
import { keyString, type ResourceBinding } from '../document/resources.ts';
import { textOf } from '../http/bytes.ts';

export interface RecordedExchange {
  request: MockRequest;
  operation?: Operation;
  status: number;
  /** The answer's JSON body, when it has one. */
  responseJson?: JsonValue;
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
}

interface Fixture {
  file: string;
  name: string;
  steps: FixtureStep[];
}

interface Created {
  fixture: Fixture;
  /** The key as text, as it appears in a path. */
  key: string;
  /** The variable that stands for it in later steps. */
  variable: string;
  /** Called when a later step refers to the key: the create then sends the variable too. */
  refer(): void;
}

/** Request headers a replay needs: what the body is, what answer is wanted, and credentials. */
const KEPT_HEADERS = new Set(['content-type', 'accept', 'prefer']);

/** A recorder writing into `dir` (created if missing). */
export function createRecorder(setup: RecorderSetup): Recorder {
  mkdirSync(setup.dir, { recursive: true });
  const files: string[] = [];
  const created = new Map<string, Created>(); // by key text; the newest create of a key wins
  let count = 0;
  const stamp = new Date().toISOString();

  const write = (fixture: Fixture) => {
    const single = fixture.steps.length === 1;
    const value = single
      ? { name: fixture.name, request: fixture.steps[0].request, expect: fixture.steps[0].expect }
      : { name: fixture.name, steps: fixture.steps };
    const text = `# Recorded by plantstore proxy from ${setup.upstream} (${stamp}).\n# Replay: plantstore verify --target URL --fixtures ${setup.dir} --token TOKEN\n${stringify(value, { lineWidth: 0 })}`;
    // Whole or not at all: a reader (or a crash) never sees half a file.
    writeAtomically(fixture.file, text);
  };

  return {
    files,
    record(exchange) {
      const { request, operation } = exchange;
      const binding = operation && setup.bindings.get(operation);
      const requestJson = jsonBody(request);
      // Does this exchange refer to a key an earlier create made?
      const segments = request.path.split('/');
      let parent: Created | undefined;
      for (const segment of segments) {
        const found = segment === '' ? undefined : created.get(decodeSafe(segment));
        if (found) parent = found;
      }
      const sentKey = binding?.keyField !== undefined && isRecord(requestJson) ? keyString(requestJson[binding.keyField]) : undefined;
      if (!parent && sentKey !== undefined) parent = created.get(sentKey);

      const secrets: string[] = [];
      const fixtureRequest = toFixtureRequest(request, requestJson, setup.secretNames, secrets);
      if (parent) {
        // The first step that refers to a key makes it a variable, in the create too.
        parent.refer();
        const { key, variable } = parent;
        fixtureRequest.path = segments.map((segment) => (segment !== '' && decodeSafe(segment) === key ? variable : segment)).join('/');
        if (sentKey === key && isRecord(fixtureRequest.body) && binding?.keyField)
          fixtureRequest.body = { ...fixtureRequest.body, [binding.keyField]: variable };
      }
      hideSecrets(fixtureRequest, secrets);
      const expect = { status: expectedStatus(operation, exchange.status) };
      const label = operation?.id ?? `${request.method} ${request.path}`;
      let fixture = parent?.fixture;
      const stepName = uniqueStepName(fixture, label);
      const step: FixtureStep = { name: stepName, request: fixtureRequest, expect };
      if (fixture) fixture.steps.push(step);
      else {
        count++;
        const file = join(setup.dir, `${String(count).padStart(4, '0')}-${fileSafe(label)}.yaml`);
        fixture = { file, name: `${String(count).padStart(4, '0')} ${label}`, steps: [step] };
        files.push(file);
      }
      // A successful create: later steps that name its key join this fixture.
      if (binding?.role === 'create' && exchange.status >= 200 && exchange.status < 300 && binding.keyField !== undefined) {
        const keyField = binding.keyField;
        const fromResponse = isRecord(exchange.responseJson) ? keyString(exchange.responseJson[keyField]) : undefined;
        const key = sentKey ?? fromResponse;
        if (key !== undefined && !parent) {
          // A key the client sent is made run-unique; one the server made is read from its answer.
          const sent = sentKey !== undefined && isRecord(fixtureRequest.body) ? fixtureRequest : undefined;
          const variable = sent ? uniqueVariable(isRecord(requestJson) ? requestJson[keyField] : undefined) : `{{steps.${stepName}.response.body.${keyField}}}`;
          let referred = false;
          const refer = () => {
            if (referred || !sent) return;
            referred = true;
            sent.body = { ...(sent.body as Record<string, JsonValue>), [keyField]: variable };
          };
          created.set(key, { fixture, key, variable, refer });
        }
      }
      write(fixture);
    },
  };
}

function toFixtureRequest(request: MockRequest, json: JsonValue | undefined, secretNames: ReadonlySet<string>, secrets: string[]): FixtureRequest {
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

/** Every remaining occurrence of a credential (echoed in a body, a path) becomes {{token}}. */
function hideSecrets(request: FixtureRequest, secrets: string[]): void {
  const long = secrets.filter((secret) => secret.length >= 4).sort((a, b) => b.length - a.length);
  if (long.length === 0) return;
  const hide = (text: string) => long.reduce((out, secret) => out.replaceAll(secret, '{{token}}').replaceAll(encodeURIComponent(secret), '{{token}}'), text);
  const walk = (value: JsonValue): JsonValue => {
    if (typeof value === 'string') return hide(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]));
    return value;
  };
  request.path = hide(request.path);
  if (request.query) request.query = walk(request.query as JsonValue) as FixtureRequest['query'];
  if (request.body !== undefined) request.body = walk(request.body);
  if (request.rawBody !== undefined) request.rawBody = hide(request.rawBody);
}

/** The observed status where the operation declares it; else its class (an undeclared status is not worth pinning). */
function expectedStatus(operation: Operation | undefined, status: number): StatusExpectation {
  if (operation && findResponse(operation, status)) return status;
  return `${Math.floor(status / 100) as 1 | 2 | 3 | 4 | 5}xx`;
}

function uniqueVariable(value: JsonValue | undefined): string {
  if (typeof value === 'string') return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value) ? '{{uniqueUuid}}' : '{{uniqueString}}';
  return '{{uniqueId}}';
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

function jsonBody(request: MockRequest): JsonValue | undefined {
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
