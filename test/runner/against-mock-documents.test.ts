// `verify --generate` against the project's own mock passes for every document the tests load:
// the mock and the runner agree on every generated case, and every operation gets cases unless
// the report says why not.
import { afterAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { verify, type VerifyReport } from '../../src/runner/index.ts';

const AUTH = {
  headerKey: 'header-key-1',
  queryKey: 'query-key-2',
  cookieKey: 'cookie-key-3',
  basicAuth: 'alice:s3cret',
};

interface Row {
  spec: string;
  auth?: Record<string, string>;
  /** Operations that must be reported as uncovered. */
  uncovered?: string[];
}

const DOCUMENTS: Record<string, Row> = {
  'the built-in Plant Store': { spec: 'openapi/plant-store.yaml' },
  'the Plant Store in OpenAPI 3.0': { spec: 'test/documents/plant-store-3.0.json' },
  'the CRUD Plant Store': { spec: 'test/documents/plant-store-crud.yaml' },
  'the grown Plant Store': { spec: 'test/documents/plant-store-grown.yaml' },
  'a document with examples': { spec: 'test/documents/examples.yaml' },
  'a document split over files': { spec: 'test/documents/split/main.yaml' },
  'parameters and security schemes': { spec: 'test/documents/runner-params.yaml', auth: AUTH },
  'string, uuid and integer keys': { spec: 'test/documents/runner-keys.yaml' },
  'non-JSON media types': { spec: 'test/documents/runner-media.yaml', uncovered: ['importProtobuf'] },
  'items the server numbers': { spec: 'test/documents/runner-server-ids.yaml' },
  'keys of any name and type, and patches': { spec: 'test/documents/keys-and-patches.yaml' },
  'nested collections, form bodies and wrapped lists': { spec: 'test/documents/nested-state.yaml' },
  'shapes from public documents': { spec: 'test/documents/runner-corpus-shapes.yaml', uncovered: ['streamChannel'] },
  'items the server names, found by id or Location': { spec: 'test/documents/server-named-items.yaml' },
  'OpenAPI links': { spec: 'test/documents/links.yaml' },
  'creates whose answer holds a list, and searches': { spec: 'test/documents/creates-and-searches.yaml' },
  'API keys in a header, the query and a cookie': {
    spec: 'test/documents/api-keys.yaml',
    auth: { headerKey: AUTH.headerKey, queryKey: AUTH.queryKey, cookieKey: AUTH.cookieKey },
  },
};

const mocks: MockServer[] = [];
afterAll(() => Promise.all(mocks.map((mock) => mock.close())));

async function run(row: Row, filter?: string[]): Promise<VerifyReport> {
  const mock = await startMockServer({ port: 0, spec: row.spec });
  mocks.push(mock);
  return verify({
    target: mock.url,
    token: 'mock-token',
    spec: row.spec,
    fixtures: [],
    generate: 3,
    seed: 7,
    auth: row.auth ?? {},
    filter,
  });
}

const failures = (report: VerifyReport, skip: string[] = []) =>
  report.cases
    .filter((c) => c.status !== 'passed' && !skip.some((prefix) => c.id.startsWith(prefix)))
    .map((c) => `${c.name}: ${c.steps.flatMap((s) => s.findings.map((f) => f.message)).join('; ')}`);

describe('verify --generate against the plantstore mock', () => {
  it.each(Object.entries(DOCUMENTS))('passes every generated case of %s', async (_name, row) => {
    const report = await run(row);
    expect(failures(report)).toEqual([]);
    expect(report.uncovered.map((u) => u.operationId)).toEqual(row.uncovered ?? []);
    expect(report.cases.filter((c) => c.source === 'generated').length).toBeGreaterThan(0);
  });

  // The mock never answers an item it deleted: where the read declares no 404, it answers an
  // undeclared one, which the runner's read-after-delete expects (a warning, off the contract).
  it('follows a deleted item to a 404 where the read declares none, and passes', async () => {
    const report = await run(DOCUMENTS['keys of any name and type, and patches']);
    const sequences = report.cases.filter((c) => c.id.startsWith('generated/sequence/gadgets'));
    const gone = sequences.flatMap((c) => c.steps).filter((step) => step.name === 'read-after-delete');
    expect(gone.length).toBeGreaterThan(0);
    expect(gone.map((step) => step.response?.status)).toEqual(gone.map(() => 404));
    expect(sequences.map((c) => c.status)).toEqual(sequences.map(() => 'passed'));
  });

  // The mock reads each query parameter by its style and explode, as the runner writes it.
  it('accepts arrays and objects in the query in every style (form, spaceDelimited, pipeDelimited, deepObject)', async () => {
    expect(failures(await run(DOCUMENTS['parameters and security schemes'], ['styledQuery']))).toEqual([]);
    // tags=a&tags=b (form, exploded) is one array.
    expect(failures(await run(DOCUMENTS['items the server numbers'], ['findPets']))).toEqual([]);
  });

  // A create whose body has no id but whose answer requires one: the mock makes the id (server-made
  // fields), and the sequence reads, lists and removes the item by it.
  it('creates items the server numbers, and follows them through the sequence', async () => {
    const row = DOCUMENTS['items the server numbers'];
    expect(failures(await run(row, ['addPet', 'sequence']))).toEqual([]);
  });

  // The mock parses form and multipart bodies and validates them like JSON ones.
  it('refuses form and multipart bodies that break their schema', async () => {
    const row = DOCUMENTS['non-JSON media types'];
    expect(failures(await run(row, ['signUp: rejects', 'upload: rejects']))).toEqual([]);
  });

  // An operation whose only answer is text/csv gets its CSV example.
  it('answers an operation whose only media type is text/csv', async () => {
    const row = DOCUMENTS['non-JSON media types'];
    expect(failures(await run(row, ['exportCsv']))).toEqual([]);
  });

  // An XML-only body is generated from its schema and written as the schema's `xml` objects name it.
  it('sends an XML body named by the schema and its xml objects', async () => {
    const report = await run(DOCUMENTS['shapes from public documents'], ['pullDocument']);
    const bodies = report.cases.map((c) => c.steps[0].request?.body);
    expect(bodies.length).toBeGreaterThan(0);
    for (const body of bodies)
      expect(body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><PullDocRequest txn="[^"]*">/);
    expect(failures(report)).toEqual([]);
  });

  // A document that only redirects (an OAuth authorize endpoint) is kept by its declared 302, and a
  // 204 passes without the body the document declares for it (HTTP never sends one).
  it('accepts a declared redirect as the answer, and a 204 without its declared body', async () => {
    const report = await run(DOCUMENTS['shapes from public documents'], ['authorize', 'removeUser']);
    expect(report.cases.filter((c) => c.id.includes('/valid-')).map((c) => c.steps[0].response?.status)).toEqual([
      302, 302, 302, 204, 204, 204,
    ]);
    expect(failures(report)).toEqual([]);
  });

  // Stripe's forms: deepObject properties holding objects and arrays are written a bracket per
  // level, as the mock (qs) reads them; removing the only field of an optional object would make
  // the object vanish from the form, so that is no negative case.
  it('writes nested deepObject form fields a bracket per level, and drops negatives the form cannot carry', async () => {
    const report = await run(DOCUMENTS['shapes from public documents'], ['createCustomer']);
    expect(report.cases.find((c) => c.id === 'generated/createCustomer/valid-1')?.steps[0].request?.body).toMatch(
      /(^|&)line_items%5B0%5D%5Bprice%5D=[^&]+/,
    );
    expect(report.cases.map((c) => c.name)).not.toContain(
      'createCustomer: rejects /login_page/enabled: removed required field',
    );
    expect(failures(report)).toEqual([]);
  });
});
