// The mock's contract battery: one list of cases that every way of running the mock must pass, the
// HTTP mock (`plantstore mock`) and the MSW handlers (`plantstore/msw`, in Node and in a page).
// It is plain, browser-safe TypeScript: no Node built-in, no test framework, no fetch of its own.
// A transport carries each request to the mock under test and reports the answer as it arrived;
// the battery judges it. Where the two adapters differ by design (MSW has no socket and leaves a
// path the document does not declare to other handlers), a case names the transport kinds it
// applies to, and the README lists each difference.
//
// Use: start the mock for one suite of BATTERY_SUITES (its `document`, with its `options`), wrap
// it in a transport, then `const results = await runBattery(transport, { suite: 'plant-store' })`.
// An MSW transport marks what the mock's handlers leave alone (`unhandled: true`) by putting a
// catch-all handler after them (`http.all('*', ...)` answering a marker header), as an
// application's own handlers would sit there; test/battery/node-transports.ts does it for Node.

/** What carries a request to the mock under test. */
export type TransportKind = 'http' | 'msw';

export interface BatteryRequest {
  method: string;
  /** The document's path, without the server's base path ("/plants/1"). */
  path: string;
  /** The raw query string without "?" ('' or absent for none). */
  query?: string;
  /**
   * Header names in lower case. The transport adds none of its own (no Content-Type for a body); redirects are
   * followed (fetch's default).
   */
  headers?: Record<string, string>;
  /** The body text, sent as its UTF-8 bytes (so that fetch adds no Content-Type). */
  body?: string;
}

export interface BatteryResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body decoded as UTF-8 ('' for none). */
  text: string;
  /** The body's bytes, as they arrived. */
  bytes: Uint8Array;
  /** True when no handler answered: the request went past the mock (MSW's onUnhandledRequest saw it). */
  unhandled?: boolean;
}

/** A journal entry as `GET /__mock/requests` and `handlers.journal.list()` give it (credentials redacted). */
export interface BatteryJournalEntry {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
}

export interface BatteryTransport {
  readonly kind: TransportKind;
  send(request: BatteryRequest): Promise<BatteryResponse>;
  /**
   * Seeds all or nothing, as `POST /__mock/state` or `handlers.state.seed()`: the JSON text of `{"/plants": [...]}`,
   * int64 exact.
   */
  seed(collectionsJson: string): Promise<{ ok: true } | { ok: false; message: string }>;
  /** The stored records as JSON text (`{"/plants": [...]}`), int64 exact. */
  state(): Promise<string>;
  /** Removes every stored resource and clears the journal. */
  reset(): Promise<void>;
  /** The requests answered, oldest first. */
  journal(): Promise<BatteryJournalEntry[]>;
}

/** One document and the mock options a suite's cases need; paths are relative to the repository's root. */
export interface BatterySuite {
  document: string;
  /** Mock options, as both `startMockServer` and `createHandlers` take them. */
  options: {
    isolateBy?: 'none' | 'token';
    tokens?: string[];
    declaredOnly?: boolean;
    absentItems?: 'document' | '404';
    maxStateBytes?: number;
  };
}

const PLANT_STORE = 'openapi/plant-store.yaml';
const GROWN = 'test/documents/plant-store-grown.yaml';
const ACCEPTED_TOKEN = 'battery-accepted-token';

/** Every suite the battery has: start one mock per suite. */
export const BATTERY_SUITES = {
  'plant-store': { document: PLANT_STORE, options: {} },
  'plant-store-tokens': { document: PLANT_STORE, options: { tokens: [ACCEPTED_TOKEN] } },
  'plant-store-grown': { document: GROWN, options: {} },
  'plant-store-crud': { document: 'test/documents/plant-store-crud.yaml', options: {} },
  'plant-store-isolated': { document: GROWN, options: { isolateBy: 'token' } },
  'plant-store-declared-only': { document: GROWN, options: { declaredOnly: true } },
  'plant-store-absent-404': { document: GROWN, options: { absentItems: '404' } },
  'plant-store-small-state': { document: GROWN, options: { maxStateBytes: 200 } },
  'transport-corners': { document: 'test/documents/transport-corners.yaml', options: {} },
  'swagger-petstore3': { document: 'test/corpus/documents/swagger-petstore3/openapi.yaml', options: {} },
  'train-travel': { document: 'test/corpus/documents/train-travel/openapi.yaml', options: {} },
  'redocly-museum': { document: 'test/corpus/documents/redocly-museum/openapi.yaml', options: {} },
} as const satisfies Record<string, BatterySuite>;

export type SuiteId = keyof typeof BATTERY_SUITES;

/** The documents the suites need, each once (a browser run prepares each with `plantstore msw`). */
export const BATTERY_DOCUMENTS: readonly string[] = [
  ...new Set(Object.values(BATTERY_SUITES).map((suite: BatterySuite) => suite.document)),
];

export interface BatteryCase {
  name: string;
  suite: SuiteId;
  /** The transports the case applies to (all when absent): an answer that differs by design. */
  only?: TransportKind[];
  run(t: Tester): Promise<void>;
}

export interface BatteryResult {
  suite: SuiteId;
  name: string;
  ok: boolean;
  /** What was wrong, with the request and the answer, when not ok. */
  problem?: string;
}

export interface RunBatteryOptions {
  suite: SuiteId;
  /** Run only the cases whose name contains this text. */
  filter?: string;
}

/**
 * Runs every case of one suite that applies to the transport, each on an empty state, one after
 * the other; never throws for a failing case.
 * @example const results = await runBattery(transport, { suite: 'plant-store-grown' }); results.filter((r) => !r.ok);
 */
export async function runBattery(transport: BatteryTransport, options: RunBatteryOptions): Promise<BatteryResult[]> {
  const results: BatteryResult[] = [];
  for (const batteryCase of casesFor(options.suite, transport.kind)) {
    if (options.filter !== undefined && !batteryCase.name.includes(options.filter)) continue;
    const tester = new Tester(transport);
    try {
      await transport.reset();
      await batteryCase.run(tester);
      results.push({ suite: options.suite, name: batteryCase.name, ok: true });
    } catch (error) {
      const problem =
        error instanceof BatteryFailure ? error.message : `the case threw: ${(error as Error)?.stack ?? String(error)}`;
      results.push({
        suite: options.suite,
        name: batteryCase.name,
        ok: false,
        problem: `${problem}${tester.lastExchange()}`,
      });
    }
  }
  return results;
}

/** The cases of a suite that apply to a kind of transport. */
export const casesFor = (suite: SuiteId, kind: TransportKind): BatteryCase[] =>
  BATTERY_CASES.filter((c) => c.suite === suite && (c.only === undefined || c.only.includes(kind)));

class BatteryFailure extends Error {}

function fail(message: string): never {
  throw new BatteryFailure(message);
}

/** What a case uses: send with the last exchange kept for the failure message, and precise checks. */
export class Tester {
  private last?: { request: BatteryRequest; response: BatteryResponse };
  readonly transport: BatteryTransport;
  constructor(transport: BatteryTransport) {
    this.transport = transport;
  }

  get kind(): TransportKind {
    return this.transport.kind;
  }

  async send(request: BatteryRequest): Promise<BatteryResponse> {
    const response = await this.transport.send(request);
    this.last = { request, response };
    return response;
  }

  lastExchange(): string {
    if (!this.last) return '';
    const { request, response } = this.last;
    const query = request.query ? `?${request.query}` : '';
    const body = response.unhandled
      ? '(unhandled)'
      : `${response.status} ${JSON.stringify(response.headers)} ${response.text.slice(0, 300)}`;
    return `\n  last: ${request.method} ${request.path}${query} -> ${body}`;
  }
}

// ---------------------------------------------------------------- checks

function equal(actual: unknown, expected: unknown, what: string): void {
  if (stable(actual) !== stable(expected)) fail(`${what}: expected ${stable(expected)}, got ${stable(actual)}`);
}

function includes(text: string, part: string, what: string): void {
  if (!text.includes(part))
    fail(`${what}: expected it to contain ${JSON.stringify(part)}, got ${JSON.stringify(text)}`);
}

/** JSON text with object keys sorted, so two values compare whatever their key order. */
function stable(value: unknown): string {
  if (value === undefined) return 'undefined';
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

function status(response: BatteryResponse, expected: number): void {
  if (response.unhandled) fail(`expected status ${expected}, but no handler answered`);
  if (response.status !== expected) fail(`expected status ${expected}, got ${response.status}`);
}

function mediaType(response: BatteryResponse): string {
  return (response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

function json(response: BatteryResponse, type = 'application/json'): unknown {
  equal(mediaType(response), type, 'content-type');
  try {
    return JSON.parse(response.text);
  } catch {
    return fail(`the body is not JSON: ${JSON.stringify(response.text.slice(0, 200))}`);
  }
}

function noBody(response: BatteryResponse): void {
  if (response.bytes.length !== 0)
    fail(`expected no body, got ${response.bytes.length} bytes: ${JSON.stringify(response.text.slice(0, 200))}`);
}

/** The Plant Store's Error: exactly `{error: <status>, message}` in application/json, the message holding `says`. */
function plantError(response: BatteryResponse, expected: number, says: string): void {
  status(response, expected);
  const body = json(response) as Record<string, unknown>;
  equal(Object.keys(body).sort(), ['error', 'message'], 'the Error body keys');
  equal(body.error, expected, 'Error.error');
  if (typeof body.message !== 'string') fail(`Error.message is not a string: ${stable(body.message)}`);
  includes(body.message, says, 'Error.message');
}

/** RFC 9457 problem details as train-travel declares them: status, title (the reason phrase) and detail. */
function problemDetails(response: BatteryResponse, expected: number, title: string, says: string): void {
  status(response, expected);
  const body = json(response, 'application/problem+json') as Record<string, unknown>;
  equal(body.status, expected, 'problem status');
  equal(body.title, title, 'problem title');
  includes(String(body.detail), says, 'problem detail');
}

/** The exact digits of an int64 in a JSON text, next to its field name. */
function exactNumber(text: string, field: string, digits: string, what: string): void {
  if (!new RegExp(`"${field}"\\s*:\\s*${digits}(?![0-9.eE])`).test(text))
    fail(`${what}: expected "${field}": ${digits} exactly in ${text.slice(0, 300)}`);
}

function header(response: BatteryResponse, name: string, expected: string | RegExp): void {
  const value = response.headers[name];
  if (value === undefined) fail(`header ${name} is missing`);
  if (typeof expected === 'string' ? value !== expected : !expected.test(value))
    fail(`header ${name}: expected ${String(expected)}, got ${JSON.stringify(value)}`);
}

function noHeader(response: BatteryResponse, name: string): void {
  if (response.headers[name] !== undefined)
    fail(`header ${name} should be absent, got ${JSON.stringify(response.headers[name])}`);
}

// ---------------------------------------------------------------- requests

const TOKEN = 'battery-token-7f3a9c1e';
const bearer = (token = TOKEN) => ({ authorization: `Bearer ${token}` });
const JSON_TYPE = { 'content-type': 'application/json' };

const createPlant = (t: Tester, body: string, headers: Record<string, string> = {}) =>
  t.send({ method: 'POST', path: '/plants', headers: { ...bearer(), ...JSON_TYPE, ...headers }, body });
const get = (t: Tester, path: string, query = '', headers: Record<string, string> = bearer()) =>
  t.send({ method: 'GET', path, query, headers });

async function stateText(t: Tester): Promise<string> {
  return t.transport.state();
}

async function plantsStored(t: Tester): Promise<unknown[]> {
  const state = JSON.parse(await stateText(t)) as Record<string, unknown[]>;
  return state['/plants'] ?? [];
}

// ---------------------------------------------------------------- the cases

const plantStore: BatteryCase[] = [
  {
    name: 'creates a plant: 200 with exactly the declared Plant fields as sent',
    suite: 'plant-store',
    async run(t) {
      const created = await createPlant(t, '{"id": 9007199254740993, "name": "Fern", "tag": "green"}');
      status(created, 200);
      equal(mediaType(created), 'application/json', 'content-type');
      equal(created.text, '{"name":"Fern","tag":"green"}', 'body text');
      exactNumber(await stateText(t), 'id', '9007199254740993', 'the stored id');
    },
  },
  {
    name: 'keeps int64 ids exact: 2^53 and 2^53+1 are two plants, the int64 extremes are stored to the last digit, one past is refused',
    suite: 'plant-store',
    async run(t) {
      for (const id of ['9007199254740992', '9007199254740993', '9223372036854775807', '-9223372036854775808'])
        status(await createPlant(t, `{"id":${id},"name":"p${id}"}`), 200);
      const state = await stateText(t);
      for (const id of ['9007199254740992', '9007199254740993', '9223372036854775807', '-9223372036854775808'])
        exactNumber(state, 'id', id, 'the stored id');
      plantError(await createPlant(t, '{"id":9223372036854775808,"name":"too big"}'), 400, 'invalid request body: /id');
      plantError(
        await createPlant(t, '{"id":9007199254740993,"name":"again"}'),
        400,
        'a plant with id 9007199254740993 already exists',
      );
    },
  },
  {
    name: 'refuses a request without credentials with 401, WWW-Authenticate: Bearer and the Error shape, before reading the body',
    suite: 'plant-store',
    async run(t) {
      const answer = await t.send({ method: 'POST', path: '/plants', headers: JSON_TYPE, body: '{"id": 1}' });
      plantError(answer, 401, 'missing credentials');
      header(answer, 'www-authenticate', 'Bearer');
      equal(await plantsStored(t), [], 'the stored plants');
    },
  },
  {
    name: 'refuses another scheme, Bearer without a token and a token with spaces with 401',
    suite: 'plant-store',
    async run(t) {
      for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', 'Bearer two words']) {
        const answer = await createPlant(t, '{"id":1,"name":"Fern"}', { authorization });
        plantError(answer, 401, '');
        header(answer, 'www-authenticate', /^Bearer/);
      }
      const lower = await createPlant(t, '{"id":1,"name":"Fern"}', { authorization: `bearer ${TOKEN}` });
      status(lower, 200);
    },
  },
  {
    name: 'refuses an invalid body with 400 naming every violated field by JSON pointer',
    suite: 'plant-store',
    async run(t) {
      plantError(await createPlant(t, '{"id": 1}'), 400, 'invalid request body: /name: is required');
      const both = await createPlant(t, '{"id": "1", "name": 5}');
      plantError(both, 400, '/id: must be integer');
      plantError(both, 400, '/name: must be string');
      plantError(await createPlant(t, '{"id": 1.5, "name": "Fern"}'), 400, '/id');
      equal(await plantsStored(t), [], 'the stored plants');
    },
  },
  {
    name: 'refuses malformed JSON, an empty body, duplicate keys and too deep a nesting with 400',
    suite: 'plant-store',
    async run(t) {
      plantError(await createPlant(t, '{"id": 1, "name": '), 400, '');
      plantError(await createPlant(t, ''), 400, '');
      plantError(await createPlant(t, '{"id":1,"id":2,"name":"Fern"}'), 400, '');
      plantError(await createPlant(t, `{"id":1,"name":"Fern","tag":${'['.repeat(100)}${']'.repeat(100)}}`), 400, '');
      equal(await plantsStored(t), [], 'the stored plants');
    },
  },
  {
    name: 'refuses an undeclared media type, a missing Content-Type and another charset with 415; charset=utf-8 is fine',
    suite: 'plant-store',
    async run(t) {
      const body = '{"id":1,"name":"Fern"}';
      plantError(await createPlant(t, body, { 'content-type': 'text/plain' }), 415, '');
      plantError(await t.send({ method: 'POST', path: '/plants', headers: bearer(), body }), 415, '');
      plantError(await createPlant(t, body, { 'content-type': 'application/json; charset=iso-8859-1' }), 415, '');
      status(await createPlant(t, body, { 'content-type': 'application/json; charset=utf-8' }), 200);
    },
  },
  {
    name: 'refuses a body over the size limit with 413 in the Error shape',
    suite: 'plant-store',
    async run(t) {
      const big = `{"id":1,"name":"${'x'.repeat(1024 * 1024 + 16)}"}`;
      plantError(await createPlant(t, big), 413, '1048576 bytes');
      equal(await plantsStored(t), [], 'the stored plants');
    },
  },
  {
    name: 'answers an undeclared method with 405 and Allow, and HEAD where no GET is declared the same way without a body',
    suite: 'plant-store',
    async run(t) {
      const answer = await get(t, '/plants');
      plantError(answer, 405, 'GET is not declared for /plants');
      header(answer, 'allow', 'POST');
      const head = await t.send({ method: 'HEAD', path: '/plants', headers: bearer() });
      status(head, 405);
      header(head, 'allow', 'POST');
      noBody(head);
    },
  },
  {
    name: 'answers a path the document does not declare with 404 in the Error shape, matching paths exactly',
    suite: 'plant-store',
    only: ['http'],
    async run(t) {
      for (const path of ['/nothing-here', '/plants/', '/PLANTS'])
        plantError(await get(t, path), 404, `no operation at ${path}`);
    },
  },
  {
    name: 'leaves a path the document does not declare to other handlers (onUnhandledRequest sees it), matching paths exactly',
    suite: 'plant-store',
    only: ['msw'],
    async run(t) {
      for (const path of ['/nothing-here', '/plants/', '/PLANTS']) {
        const answer = await get(t, path);
        if (!answer.unhandled) fail(`${path}: expected no handler to answer, got ${answer.status}`);
      }
    },
  },
  {
    name: 'answers Accept that allows no declared type with 406 in the Error shape, and stores nothing',
    suite: 'plant-store',
    async run(t) {
      plantError(await createPlant(t, '{"id":1,"name":"Fern"}', { accept: 'text/html' }), 406, '');
      equal(await plantsStored(t), [], 'the stored plants');
      status(await createPlant(t, '{"id":1,"name":"Fern"}', { accept: 'text/html, application/json;q=0.5' }), 200);
    },
  },
  {
    name: 'forces a declared error with Prefer: code=400 and with __code=400, saying why, and stores nothing',
    suite: 'plant-store',
    async run(t) {
      const forced = await createPlant(t, '{"id":7,"name":"Ivy"}', { prefer: 'code=400' });
      plantError(forced, 400, 'forced by Prefer: code=400');
      equal(JSON.parse(forced.text), { error: 400, message: 'forced by Prefer: code=400' }, 'the forced body');
      const query = await t.send({
        method: 'POST',
        path: '/plants',
        query: '__code=400',
        headers: { ...bearer(), ...JSON_TYPE },
        body: '{"id":7,"name":"Ivy"}',
      });
      plantError(query, 400, 'forced by __code=400');
      equal(await plantsStored(t), [], 'the stored plants');
    },
  },
  {
    name: 'refuses to force a code the operation does not declare, or one that is no status, with 400 naming the declared ones',
    suite: 'plant-store',
    async run(t) {
      plantError(
        await createPlant(t, '{"id":7,"name":"Ivy"}', { prefer: 'code=418' }),
        400,
        'cannot force that response: POST /plants declares no 418 response (declared responses: 200, 400; ask for one of them)',
      );
      plantError(
        await createPlant(t, '{"id":7,"name":"Ivy"}', { prefer: 'code=5xx' }),
        400,
        'cannot force that response',
      );
      plantError(await createPlant(t, '{"id":7,"name":"Ivy"}', { prefer: 'example=nothing' }), 400, '');
      equal(await plantsStored(t), [], 'the stored plants');
    },
  },
  {
    name: 'forces a generated 200 with Prefer: dynamic=true (valid Plant, nothing stored); a forced answer is still validated first',
    suite: 'plant-store',
    async run(t) {
      const dynamic = await createPlant(t, '{"id":7,"name":"Ivy"}', { prefer: 'dynamic=true' });
      status(dynamic, 200);
      const plant = json(dynamic) as Record<string, unknown>;
      if (typeof plant.name !== 'string') fail(`a generated Plant needs a string name, got ${dynamic.text}`);
      for (const key of Object.keys(plant))
        if (key !== 'name' && key !== 'tag') fail(`a generated Plant has an undeclared field ${key}`);
      const code200 = await createPlant(t, '{"id":7,"name":"Ivy"}', { prefer: 'code=200' });
      status(code200, 200);
      equal(await plantsStored(t), [], 'the stored plants');
      plantError(
        await createPlant(t, '{"id":7}', { prefer: 'code=200' }),
        400,
        'invalid request body: /name: is required',
      );
      plantError(
        await t.send({
          method: 'POST',
          path: '/plants',
          headers: { ...JSON_TYPE, prefer: 'code=400' },
          body: '{"id":7,"name":"Ivy"}',
        }),
        401,
        '',
      );
    },
  },
  {
    name: 'seeds all the items, keeping int64 ids exact, and refuses a create of a seeded id',
    suite: 'plant-store',
    async run(t) {
      const seeded = await t.transport.seed(
        '{"/plants":[{"id":1,"name":"Fern"},{"id":9007199254740993,"name":"Big","tag":"x"}]}',
      );
      if (!seeded.ok) fail(`the seed was refused: ${seeded.message}`);
      const state = await stateText(t);
      exactNumber(state, 'id', '1', 'a seeded id');
      exactNumber(state, 'id', '9007199254740993', 'a seeded id');
      plantError(
        await createPlant(t, '{"id":9007199254740993,"name":"again"}'),
        400,
        'a plant with id 9007199254740993 already exists',
      );
      status(await createPlant(t, '{"id":9007199254740992,"name":"neighbour"}'), 200);
    },
  },
  {
    name: 'seeds nothing when one item is invalid, a key repeats or the collection is unknown',
    suite: 'plant-store',
    async run(t) {
      for (const [seed, says] of [
        ['{"/plants":[{"id":2,"name":"ok"},{"id":3}]}', '/plants[1]'],
        ['{"/plants":[{"id":4,"name":"a"},{"id":4,"name":"b"}]}', 'already exists'],
        ['{"/plants":[{"id":5,"name":"a"}],"/nothing":[{"id":6}]}', 'no collection /nothing'],
      ]) {
        const refused = await t.transport.seed(seed);
        if (refused.ok) fail(`the seed ${seed} was accepted`);
        includes(refused.message, says, 'the refusal');
        equal(await plantsStored(t), [], 'the stored plants');
      }
      status(await createPlant(t, '{"id":2,"name":"ok"}'), 200);
    },
  },
  {
    name: 'journals each request with its status and the credentials redacted',
    suite: 'plant-store',
    async run(t) {
      const before = (await t.transport.journal()).length;
      status(await createPlant(t, '{"id":1,"name":"Fern"}'), 200);
      status(await createPlant(t, '{"id":2}'), 400);
      const entries = (await t.transport.journal()).slice(before);
      equal(
        entries.map((e) => [e.method, e.path, e.status]),
        [
          ['POST', '/plants', 200],
          ['POST', '/plants', 400],
        ],
        'the journal',
      );
      for (const entry of entries) {
        if (JSON.stringify(entry).includes(TOKEN)) fail('the journal shows the token');
        if (entry.headers.authorization === undefined)
          fail('the journal dropped the authorization header instead of redacting it');
      }
    },
  },
  {
    name: 'answers a CORS preflight with 204 and reflects Origin (the HTTP mock; a page calls it across origins)',
    suite: 'plant-store',
    only: ['http'],
    async run(t) {
      const preflight = await t.send({
        method: 'OPTIONS',
        path: '/plants',
        headers: {
          origin: 'http://localhost:5173',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      status(preflight, 204);
      header(preflight, 'access-control-allow-origin', 'http://localhost:5173');
      const created = await createPlant(t, '{"id":1,"name":"Fern"}', { origin: 'http://localhost:5173' });
      status(created, 200);
      header(created, 'access-control-allow-origin', 'http://localhost:5173');
    },
  },
  {
    name: 'has no CORS of its own: the handlers answer inside the page, so no preflight reaches them and no Access-Control header is added',
    suite: 'plant-store',
    only: ['msw'],
    async run(t) {
      const created = await createPlant(t, '{"id":1,"name":"Fern"}', { origin: 'http://localhost:5173' });
      status(created, 200);
      noHeader(created, 'access-control-allow-origin');
      const options = await t.send({
        method: 'OPTIONS',
        path: '/plants',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
      });
      plantError(options, 405, 'OPTIONS is not declared');
    },
  },
];

const tokens: BatteryCase[] = [
  {
    name: 'accepts only the listed tokens: another gets 401 with error="invalid_token"',
    suite: 'plant-store-tokens',
    async run(t) {
      const other = await createPlant(t, '{"id":1,"name":"Fern"}');
      plantError(other, 401, '');
      header(other, 'www-authenticate', 'Bearer error="invalid_token"');
      if (other.text.includes(TOKEN)) fail('the answer shows the token');
      status(await createPlant(t, '{"id":1,"name":"Fern"}', bearer(ACCEPTED_TOKEN)), 200);
    },
  },
];

const grown: BatteryCase[] = [
  {
    name: 'create, read back, list, delete, then read again: 404 in the Error shape, with an id above 2^53',
    suite: 'plant-store-grown',
    async run(t) {
      status(await createPlant(t, '{"id":9007199254740993,"name":"Fern","tag":"green"}'), 200);
      status(await createPlant(t, '{"id":9007199254740992,"name":"Moss"}'), 200);
      const read = await get(t, '/plants/9007199254740993');
      status(read, 200);
      equal(read.text, '{"name":"Fern","tag":"green"}', 'the plant read back');
      equal(JSON.parse((await get(t, '/plants/9007199254740992')).text), { name: 'Moss' }, 'its neighbour read back');
      const list = await get(t, '/plants');
      status(list, 200);
      equal(JSON.parse(list.text), [{ name: 'Fern', tag: 'green' }, { name: 'Moss' }], 'the list');
      const deleted = await t.send({ method: 'DELETE', path: '/plants/9007199254740993', headers: bearer() });
      status(deleted, 204);
      noBody(deleted);
      plantError(await get(t, '/plants/9007199254740993'), 404, '9007199254740993');
      equal(JSON.parse((await get(t, '/plants')).text), [{ name: 'Moss' }], 'the list after the delete');
      const state = await stateText(t);
      exactNumber(state, 'id', '9007199254740992', 'the stored id');
      if (state.includes('9007199254740993')) fail(`the deleted plant is still stored: ${state}`);
    },
  },
  {
    name: 'lists with limit, and refuses a limit below its minimum, beyond int32 or not a number with 400',
    suite: 'plant-store-grown',
    async run(t) {
      for (const id of [1, 2, 3]) status(await createPlant(t, `{"id":${id},"name":"p${id}"}`), 200);
      equal(
        JSON.parse((await get(t, '/plants', 'limit=2')).text),
        [{ name: 'p1' }, { name: 'p2' }],
        'the list with limit=2',
      );
      equal(JSON.parse((await get(t, '/plants', 'limit=0')).text), [], 'the list with limit=0');
      for (const limit of ['-1', '2147483648', 'abc', '1.5'])
        plantError(await get(t, '/plants', `limit=${limit}`), 400, 'limit');
    },
  },
  {
    name: 'refuses a path parameter that is not an int64 with 400',
    suite: 'plant-store-grown',
    async run(t) {
      plantError(await get(t, '/plants/abc'), 400, 'id');
      plantError(await get(t, '/plants/9223372036854775808'), 400, 'id');
    },
  },
  {
    name: 'answers HEAD as GET without a body, for a stored plant, an absent one and the list',
    suite: 'plant-store-grown',
    async run(t) {
      status(await createPlant(t, '{"id":5,"name":"Fern"}'), 200);
      const head = await t.send({ method: 'HEAD', path: '/plants/5', headers: bearer() });
      status(head, 200);
      equal(mediaType(head), 'application/json', 'content-type');
      noBody(head);
      const absent = await t.send({ method: 'HEAD', path: '/plants/6', headers: bearer() });
      status(absent, 404);
      noBody(absent);
      const list = await t.send({ method: 'HEAD', path: '/plants', headers: bearer() });
      status(list, 200);
      noBody(list);
      const unauthorized = await t.send({ method: 'HEAD', path: '/plants/5' });
      status(unauthorized, 401);
      header(unauthorized, 'www-authenticate', 'Bearer');
      noBody(unauthorized);
    },
  },
  {
    name: 'answers a method the item path does not declare with 405 and Allow',
    suite: 'plant-store-grown',
    async run(t) {
      const answer = await t.send({
        method: 'PUT',
        path: '/plants/1',
        headers: { ...bearer(), ...JSON_TYPE },
        body: '{"id":1,"name":"Fern"}',
      });
      plantError(answer, 405, 'PUT is not declared for /plants/1');
      equal((answer.headers.allow ?? '').split(/,\s*/).sort(), ['DELETE', 'GET'], 'Allow');
    },
  },
  {
    name: 'forces a declared 404 on a stored plant and a 204 on a delete, changing nothing',
    suite: 'plant-store-grown',
    async run(t) {
      status(await createPlant(t, '{"id":5,"name":"Fern"}'), 200);
      plantError(await get(t, '/plants/5', '', { ...bearer(), prefer: 'code=404' }), 404, 'forced by Prefer: code=404');
      const forced = await t.send({
        method: 'DELETE',
        path: '/plants/5',
        headers: { ...bearer(), prefer: 'code=204' },
      });
      status(forced, 204);
      noBody(forced);
      equal(JSON.parse((await get(t, '/plants/5')).text), { name: 'Fern' }, 'the plant after the forced delete');
      plantError(
        await get(t, '/plants/5', '', { ...bearer(), prefer: 'code=500' }),
        400,
        'declares no 500 response (declared responses: 200, 404',
      );
    },
  },
];

const crud: BatteryCase[] = [
  {
    name: 'replaces with PUT and merges with PATCH (RFC 7396), reading each change back',
    suite: 'plant-store-crud',
    async run(t) {
      status(await createPlant(t, '{"id":9007199254740993,"name":"Fern","tag":"green"}'), 200);
      const replaced = await t.send({
        method: 'PUT',
        path: '/plants/9007199254740993',
        headers: { ...bearer(), ...JSON_TYPE },
        body: '{"id":9007199254740993,"name":"Moss","tag":"grey"}',
      });
      status(replaced, 200);
      equal(JSON.parse(replaced.text), { name: 'Moss', tag: 'grey' }, 'the replaced plant');
      const merged = await t.send({
        method: 'PATCH',
        path: '/plants/9007199254740993',
        headers: { ...bearer(), 'content-type': 'application/merge-patch+json' },
        body: '{"tag":null}',
      });
      status(merged, 200);
      equal(JSON.parse(merged.text), { name: 'Moss' }, 'the merged plant');
      equal(JSON.parse((await get(t, '/plants/9007199254740993')).text), { name: 'Moss' }, 'the plant read back');
      exactNumber(await stateText(t), 'id', '9007199254740993', 'the stored id');
    },
  },
  {
    name: 'refuses a replace whose body id differs from the path with 400, and answers an absent plant with 404',
    suite: 'plant-store-crud',
    async run(t) {
      status(await createPlant(t, '{"id":1,"name":"Fern"}'), 200);
      const put = (path: string, body: string) =>
        t.send({ method: 'PUT', path, headers: { ...bearer(), ...JSON_TYPE }, body });
      plantError(await put('/plants/1', '{"id":2,"name":"Moss"}'), 400, '');
      plantError(await put('/plants/5', '{"id":5,"name":"Moss"}'), 404, '');
      plantError(
        await t.send({
          method: 'PATCH',
          path: '/plants/1',
          headers: { ...bearer(), ...JSON_TYPE },
          body: '{"tag":"x"}',
        }),
        415,
        '',
      );
      equal(JSON.parse((await get(t, '/plants/1')).text), { name: 'Fern' }, 'the plant read back');
    },
  },
  {
    name: 'lists with limit and offset',
    suite: 'plant-store-crud',
    async run(t) {
      for (const id of [1, 2, 3, 4]) status(await createPlant(t, `{"id":${id},"name":"p${id}"}`), 200);
      equal(
        JSON.parse((await get(t, '/plants', 'limit=2&offset=1')).text),
        [{ name: 'p2' }, { name: 'p3' }],
        'limit=2&offset=1',
      );
      plantError(await get(t, '/plants', 'offset=-1'), 400, 'offset');
    },
  },
];

const isolated: BatteryCase[] = [
  {
    name: 'gives each token its own plants: the same id twice, lists and reads never cross',
    suite: 'plant-store-isolated',
    async run(t) {
      status(await createPlant(t, '{"id":9007199254740993,"name":"Alice plant"}', bearer('alice-token')), 200);
      status(await createPlant(t, '{"id":9007199254740993,"name":"Bob plant"}', bearer('bob-token')), 200);
      equal(
        JSON.parse((await get(t, '/plants', '', bearer('alice-token'))).text),
        [{ name: 'Alice plant' }],
        "alice's list",
      );
      equal(
        JSON.parse((await get(t, '/plants/9007199254740993', '', bearer('bob-token'))).text),
        { name: 'Bob plant' },
        "bob's plant",
      );
      plantError(await get(t, '/plants/9007199254740993', '', bearer('carol-token')), 404, '');
      equal(JSON.parse((await get(t, '/plants', '', bearer('carol-token'))).text), [], "carol's list");
      plantError(
        await createPlant(t, '{"id":9007199254740993,"name":"again"}', bearer('alice-token')),
        400,
        'already exists',
      );
      const state = await stateText(t);
      if (state.includes('alice-token') || state.includes('bob-token')) fail('the state shows a token');
    },
  },
];

const corner = (t: Tester, contentType: string, body: string) =>
  t.send({ method: 'POST', path: '/things', headers: { ...bearer(), 'content-type': contentType }, body });

/** `{code, message}`: the transport-corners document's Error. */
function codeError(response: BatteryResponse, expected: number, says: string): void {
  status(response, expected);
  const body = json(response) as Record<string, unknown>;
  equal(Object.keys(body).sort(), ['code', 'message'], 'the Error body keys');
  equal(body.code, expected, 'Error.code');
  includes(String(body.message), says, 'Error.message');
}

const corners: BatteryCase[] = [
  {
    name: 'creates from JSON, form and multipart bodies alike, and reads each back',
    suite: 'transport-corners',
    async run(t) {
      status(await corner(t, 'application/json', '{"id":9007199254740993,"name":"json","size":1}'), 201);
      const form = await corner(t, 'application/x-www-form-urlencoded', 'id=2&name=form+body&size=2');
      status(form, 201);
      equal(JSON.parse(form.text), { id: 2, name: 'form body', size: 2 }, 'the form create');
      const parts = [
        '--b0und4ry',
        'Content-Disposition: form-data; name="id"',
        '',
        '3',
        '--b0und4ry',
        'Content-Disposition: form-data; name="name"',
        '',
        'multi part',
      ];
      const multipart = await corner(
        t,
        'multipart/form-data; boundary=b0und4ry',
        [...parts, '--b0und4ry--', ''].join('\r\n'),
      );
      status(multipart, 201);
      equal(JSON.parse(multipart.text), { id: 3, name: 'multi part' }, 'the multipart create');
      const read = await get(t, '/things/9007199254740993');
      status(read, 200);
      equal(read.text, '{"id":9007199254740993,"name":"json","size":1}', 'the JSON create read back');
      equal(
        JSON.parse((await get(t, '/things/3')).text),
        { id: 3, name: 'multi part' },
        'the multipart create read back',
      );
      codeError(
        await corner(
          t,
          'multipart/form-data; boundary=b0und4ry',
          [...parts.slice(0, 4), '--b0und4ry--', ''].join('\r\n'),
        ),
        400,
        '/name: is required',
      );
      codeError(
        await corner(t, 'multipart/form-data; boundary=other', [...parts, '--b0und4ry--', ''].join('\r\n')),
        400,
        '',
      );
    },
  },
  {
    name: 'answers a forced 205 without content, although the document declares a schema for it',
    suite: 'transport-corners',
    async run(t) {
      const reset = await t.send({
        method: 'POST',
        path: '/things',
        headers: { ...bearer(), ...JSON_TYPE, prefer: 'code=205' },
        body: '{"id":1,"name":"a"}',
      });
      status(reset, 205);
      noBody(reset);
      codeError(await get(t, '/things/1'), 404, '');
    },
  },
  {
    // msw/node's fetch interceptor follows every mocked 3xx as a redirect, even without a Location,
    // and fails a POST with a body ("Failed to fetch"); a browser returns it as it is.
    name: 'answers a forced 302 without content and as it is',
    suite: 'transport-corners',
    only: ['http'],
    async run(t) {
      const moved = await t.send({
        method: 'POST',
        path: '/things',
        headers: { ...bearer(), ...JSON_TYPE, prefer: 'code=302' },
        body: '{"id":1,"name":"a"}',
      });
      status(moved, 302);
      noBody(moved);
      codeError(await get(t, '/things/1'), 404, '');
    },
  },
  {
    name: 'routes literal path text a URL carries percent-encoded, and a colon after a parameter',
    suite: 'transport-corners',
    async run(t) {
      const count = await t.send({ method: 'POST', path: '/%23X-Amz-Target=Things.Count', headers: bearer() });
      status(count, 200);
      equal(count.text, '{"count":3}', 'the count');
      const archived = await t.send({ method: 'POST', path: '/things/9007199254740993:archive', headers: bearer() });
      status(archived, 200);
      equal(archived.text, '{"archived":true}', 'the archive answer');
    },
  },
  {
    name: 'answers an operation that only switches protocol (101) with 501 in the Error shape',
    suite: 'transport-corners',
    async run(t) {
      codeError(await get(t, '/live'), 501, 'switch to another protocol');
    },
  },
];

const withOptions: BatteryCase[] = [
  {
    name: 'declaredOnly: answers 401, 405 and 415 with the declared 400, keeping WWW-Authenticate and Allow',
    suite: 'plant-store-declared-only',
    async run(t) {
      const anonymous = await t.send({
        method: 'POST',
        path: '/plants',
        headers: JSON_TYPE,
        body: '{"id":1,"name":"Fern"}',
      });
      plantError(anonymous, 400, 'missing credentials');
      header(anonymous, 'www-authenticate', 'Bearer');
      const put = await t.send({
        method: 'PUT',
        path: '/plants/1',
        headers: { ...bearer(), ...JSON_TYPE },
        body: '{"id":1,"name":"Fern"}',
      });
      plantError(put, 400, 'PUT is not declared for /plants/1');
      equal((put.headers.allow ?? '').split(/,\s*/).sort(), ['DELETE', 'GET'], 'Allow');
      plantError(await createPlant(t, '{"id":1,"name":"Fern"}', { 'content-type': 'text/plain' }), 400, 'Content-Type');
      plantError(await get(t, '/plants/1'), 404, 'no plant with id 1');
      status(await createPlant(t, '{"id":1,"name":"Fern"}'), 200);
    },
  },
  {
    name: 'absentItems document: deleting an absent plant answers the declared 204 and removes nothing',
    suite: 'plant-store-grown',
    async run(t) {
      status(await createPlant(t, '{"id":1,"name":"Fern"}'), 200);
      const absent = await t.send({ method: 'DELETE', path: '/plants/9', headers: bearer() });
      status(absent, 204);
      noBody(absent);
      equal(JSON.parse((await get(t, '/plants')).text), [{ name: 'Fern' }], 'the list');
    },
  },
  {
    name: "absentItems '404': deleting an absent plant answers an undeclared 404 in the Error shape",
    suite: 'plant-store-absent-404',
    async run(t) {
      plantError(await t.send({ method: 'DELETE', path: '/plants/9', headers: bearer() }), 404, 'no plant with id 9');
    },
  },
  {
    name: 'maxStateBytes: a create past the limit is refused with the declared 400, nothing stored, and reads go on',
    suite: 'plant-store-small-state',
    async run(t) {
      status(await createPlant(t, '{"id":1,"name":"Fern"}'), 200);
      status(await createPlant(t, '{"id":2,"name":"Fern two with a longer name to fill"}'), 200);
      plantError(
        await createPlant(t, '{"id":3,"name":"Fern three"}'),
        400,
        "the mock's state is full: its records would take more than 200 bytes",
      );
      plantError(await get(t, '/plants/3'), 404, '');
      equal(JSON.parse((await get(t, '/plants')).text).length, 2, 'the number of plants');
      status(await t.send({ method: 'DELETE', path: '/plants/1', headers: bearer() }), 204);
      status(await createPlant(t, '{"id":3,"name":"Fern three"}'), 200);
    },
  },
];

// ---------------------------------------------------------------- documents nobody here wrote

const petstore3: BatteryCase[] = [
  {
    name: 'swagger-petstore3: creates a pet and reads it back by its int64 id, exact',
    suite: 'swagger-petstore3',
    async run(t) {
      const pet =
        '{"id":9007199254740993,"name":"Rex","photoUrls":["https://example.com/rex.png"],"status":"available"}';
      const created = await t.send({ method: 'POST', path: '/pet', headers: { ...bearer(), ...JSON_TYPE }, body: pet });
      status(created, 200);
      equal(mediaType(created), 'application/json', 'content-type');
      exactNumber(created.text, 'id', '9007199254740993', 'the created pet');
      const read = await get(t, '/pet/9007199254740993', '', { api_key: 'battery-key' });
      status(read, 200);
      equal(read.text, created.text, 'the pet read back');
      const absent = await get(t, '/pet/9007199254740992', '', { api_key: 'battery-key' });
      status(absent, 404);
      noBody(absent);
    },
  },
  {
    name: 'swagger-petstore3: refuses an invalid pet with its declared 400, which has no content, and a missing credential with 401',
    suite: 'swagger-petstore3',
    async run(t) {
      const invalid = await t.send({
        method: 'POST',
        path: '/pet',
        headers: { ...bearer(), ...JSON_TYPE },
        body: '{"id":5}',
      });
      status(invalid, 400);
      noBody(invalid);
      noHeader(invalid, 'content-type');
      const anonymous = await t.send({
        method: 'POST',
        path: '/pet',
        headers: JSON_TYPE,
        body: '{"id":5,"name":"Rex","photoUrls":[]}',
      });
      status(anonymous, 401);
      header(anonymous, 'www-authenticate', 'Bearer');
      equal(JSON.parse(await stateText(t))['/pet'] ?? [], [], 'the stored pets');
    },
  },
];

const trainTravel: BatteryCase[] = [
  {
    name: 'train-travel: creates a booking with a server-made uuid, reads it back, deletes it, then 404 as problem details',
    suite: 'train-travel',
    async run(t) {
      const created = await t.send({
        method: 'POST',
        path: '/bookings',
        headers: { ...bearer(), ...JSON_TYPE },
        body: '{"trip_id":"b2e783e1-c824-4d63-b37a-d8d698862f1d","passenger_name":"Ada Lovelace","has_bicycle":true}',
      });
      status(created, 201);
      const booking = json(created) as Record<string, unknown>;
      if (
        typeof booking.id !== 'string' ||
        !/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(booking.id)
      )
        fail(`expected a made uuid id, got ${created.text}`);
      equal(booking.passenger_name, 'Ada Lovelace', 'passenger_name');
      const read = await get(t, `/bookings/${booking.id}`);
      status(read, 200);
      const again = json(read) as Record<string, unknown>;
      equal(
        [again.id, again.trip_id, again.passenger_name, again.has_bicycle],
        [booking.id, booking.trip_id, 'Ada Lovelace', true],
        'the booking read back',
      );
      status(await t.send({ method: 'DELETE', path: `/bookings/${booking.id}`, headers: bearer() }), 204);
      problemDetails(await get(t, `/bookings/${booking.id}`), 404, 'Not Found', String(booking.id));
    },
  },
  {
    name: 'train-travel: refuses an invalid booking with 400 and a missing token with 401, as problem details',
    suite: 'train-travel',
    async run(t) {
      problemDetails(
        await t.send({
          method: 'POST',
          path: '/bookings',
          headers: { ...bearer(), ...JSON_TYPE },
          body: '{"trip_id":5}',
        }),
        400,
        'Bad Request',
        'invalid request body: /trip_id: must be string',
      );
      const anonymous = await t.send({ method: 'POST', path: '/bookings', headers: JSON_TYPE, body: '{}' });
      problemDetails(anonymous, 401, 'Unauthorized', 'missing credentials');
      header(anonymous, 'www-authenticate', 'Bearer');
      equal(JSON.parse(await stateText(t))['/bookings'] ?? [], [], 'the stored bookings');
    },
  },
];

trainTravel.push({
  name: 'train-travel: refuses a body over the size limit with 413 as problem details, in their media type',
  suite: 'train-travel',
  async run(t) {
    const big = `{"trip_id":"b2e783e1-c824-4d63-b37a-d8d698862f1d","passenger_name":"${'x'.repeat(1024 * 1024)}"}`;
    problemDetails(
      await t.send({ method: 'POST', path: '/bookings', headers: { ...bearer(), ...JSON_TYPE }, body: big }),
      413,
      'Payload Too Large',
      '1048576 bytes',
    );
  },
});

const BASIC = { authorization: 'Basic YmF0dGVyeTpwYXNzd29yZA==' };
const museum: BatteryCase[] = [
  {
    name: 'redocly-museum: creates a special event (Basic auth) and lists it',
    suite: 'redocly-museum',
    async run(t) {
      const event =
        '{"name":"Pirate Coding Workshop","location":"Computer Room","eventDescription":"Join us","dates":["2023-10-29"],"price":25}';
      const created = await t.send({
        method: 'POST',
        path: '/special-events',
        headers: { ...BASIC, ...JSON_TYPE },
        body: event,
      });
      status(created, 201);
      // The document leaves eventId optional; the mock makes it, so that GET /special-events/{eventId} can find the
      // event.
      const { eventId, ...sent } = JSON.parse(created.text) as Record<string, unknown>;
      equal(sent, JSON.parse(event), 'the created event');
      includes(String(eventId), '-', 'the made eventId (a uuid)');
      const list = await get(t, '/special-events', '', BASIC);
      status(list, 200);
      equal(JSON.parse(list.text), [JSON.parse(created.text)], 'the list');
    },
  },
  {
    name: 'redocly-museum: refuses an invalid event with 400 and Bearer where Basic is asked with 401, in its Error shape',
    suite: 'redocly-museum',
    async run(t) {
      const invalid = await t.send({
        method: 'POST',
        path: '/special-events',
        headers: { ...BASIC, ...JSON_TYPE },
        body: '{"name":5}',
      });
      status(invalid, 400);
      const body = json(invalid, 'application/problem+json') as Record<string, unknown>;
      includes(String(body.title), 'invalid request body: /location: is required', 'Error.title');
      includes(String(body.title), '/name: must be string', 'Error.title');
      const bearerAnswer = await get(t, '/special-events');
      status(bearerAnswer, 401);
      header(bearerAnswer, 'www-authenticate', /^Basic/);
      json(bearerAnswer, 'application/problem+json');
    },
  },
  {
    name: 'redocly-museum: forces a named example given by $ref with Prefer: example=NAME, and refuses an unknown name',
    suite: 'redocly-museum',
    async run(t) {
      const hours = await get(t, '/museum-hours', '', { ...BASIC, prefer: 'example=default_example' });
      status(hours, 200);
      const days = json(hours) as Array<Record<string, unknown>>;
      equal(days[0], { date: '2023-09-11', timeOpen: '09:00', timeClose: '18:00' }, 'the first day of the example');
      const unknown = await get(t, '/museum-hours', '', { ...BASIC, prefer: 'example=nope' });
      status(unknown, 400);
      includes(
        String((json(unknown, 'application/problem+json') as Record<string, unknown>).title),
        'no example "nope" (its examples: default_example)',
        'Error.title',
      );
    },
  },
  {
    name: 'redocly-museum: answers a ticket QR code as a PNG image',
    suite: 'redocly-museum',
    async run(t) {
      const qr = await get(t, '/tickets/dad4bce8-f5cb-4078-a211-995864315e39/qr', '', BASIC);
      status(qr, 200);
      equal(mediaType(qr), 'image/png', 'content-type');
      equal([...qr.bytes.slice(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'the PNG signature');
    },
  },
];

/** Every case of the battery. */
export const BATTERY_CASES: readonly BatteryCase[] = [
  ...plantStore,
  ...tokens,
  ...grown,
  ...crud,
  ...isolated,
  ...withOptions,
  ...corners,
  ...petstore3,
  ...trainTravel,
  ...museum,
];
