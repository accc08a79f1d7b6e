// The corpus harness's state stage (scripts/corpus/collections.ts, marked-body.ts, state-stage.ts)
// on tiny documents: which collections a reader would see, the marked bodies, where a created
// item's id is found, and the prober against two servers written here, one that keeps what was
// created and one that forgets it (answers from the document, as Prism does).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findCollections } from '../../scripts/corpus/collections.ts';
import { loadDocument } from '../../scripts/corpus/document.ts';
import { markBody, markMaker } from '../../scripts/corpus/marked-body.ts';
import { createSchemaJudge } from '../../scripts/corpus/schema-judge.ts';
import { showableMarks } from '../../scripts/corpus/showable-marks.ts';
import { findId, findInList } from '../../scripts/corpus/state-answers.ts';
import { runStateStage } from '../../scripts/corpus/state-stage.ts';
import { stateCell, stateMisses, stateTotalsOf, topStateReasons } from '../../scripts/corpus/state-report.ts';
import { writeDocument } from './write-document.ts';

const json = (schema: object) => ({ 'application/json': { schema } });
const ok = (schema?: object) => ({ '200': { description: 'ok', ...(schema ? { content: json(schema) } : {}) } });
const pathParam = (name: string, schema: object = { type: 'string' }) => ({ name, in: 'path', required: true, schema });

const SHAPES = {
  openapi: '3.0.3',
  info: { title: 'Shapes', version: '1' },
  paths: {
    '/pets': {
      get: { responses: ok({ type: 'array', items: { $ref: '#/components/schemas/Pet' } }) },
      post: {
        requestBody: { content: json({ $ref: '#/components/schemas/Pet' }) },
        responses: {
          '201': {
            description: 'made',
            content: json({ allOf: [{ $ref: '#/components/schemas/Pet' }], required: ['id'] }),
          },
        },
      },
    },
    '/pets/{id}': {
      parameters: [pathParam('id')],
      get: { responses: { ...ok({ $ref: '#/components/schemas/Pet' }), '404': { description: 'no such pet' } } },
      put: { requestBody: { content: json({ $ref: '#/components/schemas/Pet' }) }, responses: ok() },
      patch: { requestBody: { content: json({ $ref: '#/components/schemas/Pet' }) }, responses: ok() },
      delete: { responses: { '204': { description: 'gone' } } },
    },
    '/users/{user_id}/playlists': {
      parameters: [pathParam('user_id')],
      get: {
        responses: ok({
          type: 'object',
          properties: { items: { type: 'array', items: {} }, total: { type: 'integer' } },
        }),
      },
      post: {
        requestBody: { content: json({ type: 'object', properties: { name: { type: 'string' } } }) },
        responses: ok(),
      },
    },
    '/Accounts/{AccountSid}/Calls.json': {
      parameters: [pathParam('AccountSid')],
      post: {
        requestBody: {
          content: {
            'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { To: { type: 'string' } } } },
          },
        },
        responses: ok(),
      },
    },
    '/Accounts/{AccountSid}/Calls/{Sid}.json': {
      parameters: [pathParam('AccountSid'), pathParam('Sid')],
      get: { responses: ok() },
      post: { responses: ok() },
    },
    // Stripe's update of one customer: an item's own POST, not a collection.
    '/customers': { post: { responses: ok() }, get: { responses: ok() } },
    '/customers/{customer}': {
      parameters: [pathParam('customer')],
      post: { responses: ok() },
      get: { responses: ok() },
    },
    // An action: nothing to read back.
    '/search': { post: { responses: ok() } },
  },
  components: {
    schemas: {
      Pet: {
        type: 'object',
        required: ['name'],
        properties: {
          id: { type: 'string', readOnly: true },
          name: { type: 'string' },
          email: { type: 'string', format: 'email' },
          born: { type: 'string', format: 'date' },
          kind: { type: 'string', enum: ['cat', 'dog'] },
          code: { type: 'string', pattern: '^[A-Z]+$' },
          short: { type: 'string', maxLength: 3 },
          owner: { type: 'object', properties: { nick: { type: 'string' } } },
          labels: { type: 'array', items: { type: 'string' } },
          ref: { type: 'string', pattern: '^CL[0-9a-f]{8}$' },
        },
      },
    },
  },
};

describe('the state stage judge: collections a reader would see', async () => {
  const loaded = await loadDocument(writeDocument(SHAPES));
  const collections = findCollections(loaded);
  const byPath = (path: string) => collections.find((c) => c.path === path);

  it('finds a POST with a list and an item path, its update (PATCH before PUT) and its delete', () => {
    expect(byPath('/pets')).toMatchObject({
      item: {
        path: '/pets/{id}',
        param: 'id',
        get: { method: 'get' },
        update: { method: 'patch' },
        delete: { method: 'delete' },
      },
      list: { method: 'get' },
      kind: { nested: false, body: 'json', list: 'bare', jsonSuffix: false },
    });
  });

  it('finds a nested collection with a wrapped list and no item path', () => {
    const playlists = byPath('/users/{user_id}/playlists');
    expect(playlists?.item).toBeUndefined();
    expect(playlists?.kind).toMatchObject({ nested: true, list: 'wrapped' });
  });

  it('sees Twilio-style .json paths: the item path, its POST update, a form body', () => {
    expect(byPath('/Accounts/{AccountSid}/Calls.json')).toMatchObject({
      item: { path: '/Accounts/{AccountSid}/Calls/{Sid}.json', param: 'Sid', update: { method: 'post' } },
      kind: { nested: true, body: 'form', jsonSuffix: true, list: 'none' },
    });
  });

  it("leaves out an item's own POST and a POST with nothing to read back", () => {
    expect(collections.map((c) => c.path).sort()).toEqual([
      '/Accounts/{AccountSid}/Calls.json',
      '/customers',
      '/pets',
      '/users/{user_id}/playlists',
    ]);
  });
});

describe('the state stage marked bodies', async () => {
  const loaded = await loadDocument(writeDocument(SHAPES));
  const requests = createSchemaJudge(loaded.doc, loaded.version, 'request');
  const create = loaded.operations.find((o) => o.method === 'post' && o.path === '/pets')!;

  it('marks every string field (and list of strings) whose rules take a mark, dressed as its format and pattern ask, and no other', () => {
    const result = markBody(loaded, requests, create, markMaker());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const sent = JSON.parse(String(result.body.body));
    expect(sent.name).toMatch(/^zq[0-9a-z]{4}k$/);
    expect(sent.email).toMatch(/^zq[0-9a-z]{4}k@example\.com$/);
    expect(sent.code).toMatch(/^ZQ[A-Z]{4}K$/);
    expect(sent.owner.nick).toMatch(/^zq/);
    expect(sent.labels).toEqual([expect.stringMatching(/^zq/)]);
    // The mark alone breaks the pattern: a hexadecimal one replaces the tail of the sample.
    expect(sent.ref).toMatch(/^CLfa[0-9a-f]{5}d$/);
    for (const untouched of ['born', 'kind', 'short']) expect(String(sent[untouched] ?? '')).not.toMatch(/zq/i);
    expect(result.body.marks).toHaveLength(6);
    expect(new Set(result.body.marks).size).toBe(6);
    expect(requests.validate(`${create.pointer}/requestBody/content/application~1json/schema`, sent)).toEqual({
      ok: true,
    });
  });

  it('writes a form body as form fields', () => {
    const calls = loaded.operations.find((o) => o.method === 'post' && o.path === '/Accounts/{AccountSid}/Calls.json')!;
    const result = markBody(loaded, requests, calls, markMaker());
    expect(result.ok && result.body.contentType).toBe('application/x-www-form-urlencoded');
    expect(result.ok && String(result.body.body)).toMatch(/^To=zq[0-9a-z]{4}k$/);
  });

  it('says why where there is nothing to mark', () => {
    const search = loaded.operations.find((o) => o.path === '/search')!;
    expect(markBody(loaded, requests, search, markMaker())).toEqual({ ok: false, reason: 'no request body declared' });
  });
});

const answer = (status: number, body: unknown, location?: string) => ({
  status,
  contentType: 'application/json',
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  location,
});

describe('the state stage reading answers', () => {
  it.each([
    ['the Location header', answer(201, '', 'http://x/calls/CA1.json'), 'Sid', {}, { id: 'CA1', from: 'location' }],
    [
      'a field named like the parameter, whatever its case',
      answer(201, { id: 'no', sid: 'CA2' }),
      'Sid',
      {},
      { id: 'CA2', from: 'answer' },
    ],
    [
      'id where the parameter names another field',
      answer(201, { id: 7, name: 'x' }),
      'playlist_id',
      {},
      { id: '7', from: 'answer' },
    ],
    [
      'the field the parameter ends with',
      answer(201, { data: { gid: '12', id: 'no' } }),
      'webhook_gid',
      {},
      { id: '12', from: 'answer' },
    ],
    ['an id one object down', answer(201, { data: { id: 'p3' } }), 'id', {}, { id: 'p3', from: 'answer' }],
    [
      "the answer's own id before a field of that name inside it",
      answer(201, { id: 'ch_1', refund: { charge: 'ch_0' } }),
      'charge',
      {},
      { id: 'ch_1', from: 'answer' },
    ],
    [
      'the key the request sent',
      answer(201, ''),
      'username',
      { username: 'zq0001k' },
      { id: 'zq0001k', from: 'request' },
    ],
    ['nothing when the answer carries no id', answer(201, { name: 'x' }), 'id', {}, undefined],
    [
      "the name of an item wrapped under the parameter's own name",
      answer(200, { experiment: { arn: 'arn:x', name: 'zq0001k' } }),
      'experiment',
      {},
      { id: 'zq0001k', from: 'answer' },
    ],
    [
      "the request's own id after a body-less 201",
      answer(201, ''),
      'petId',
      { id: 7, name: 'x' },
      { id: '7', from: 'request' },
    ],
    [
      'id, not a label the parameter happens to end with',
      answer(200, { id: 'promo_1', code: 'zq0001k' }),
      'promotion_code',
      {},
      { id: 'promo_1', from: 'answer' },
    ],
  ])("finds the created item's id in %s", (_name, given, param, sent, expected) => {
    expect(findId(given, param, sent)).toEqual(expected);
  });

  it('passes over a field whose value the item path parameter refuses (a string where the key is an integer)', () => {
    const given = answer(201, { id: 3, key_id: 'Hrcm' });
    expect(findId(given, 'gpg_key_id', {}, (id) => /^-?\d+$/.test(id))).toEqual({ id: '3', from: 'answer' });
  });

  it.each([
    ['a bare array', [{ name: 'zq0001k' }], { found: true, shape: 'bare array' }],
    [
      'an array inside a wrapping object',
      { data: [{ name: 'zq0001k' }], has_more: false },
      { found: true, shape: 'wrapped list' },
    ],
    ['an array two levels down', { page: { items: [{ name: 'zq0001k' }] } }, { found: true, shape: 'wrapped list' }],
    ['a wrapped list without it', { data: [{ name: 'Rex' }] }, { found: false, shape: 'wrapped list' }],
    ['an object that is no list, even holding the mark', { name: 'zq0001k' }, { found: false, shape: 'no list' }],
  ])('finds a mark in a list answer: %s', (_name, body, expected) => {
    expect(findInList(answer(200, body), ['zq0001k'])).toEqual(expected);
  });
});

// A server for SHAPES's /pets that keeps what it is given, or (forgetful) answers every read with
// the same made-up pet and every list with it, as a mock answering from the document does.
function petServer(forgetful: boolean): Server {
  const pets = new Map<string, Record<string, unknown>>();
  const made = { id: 'p0', name: 'Rex' };
  let next = 1;
  const read = (req: IncomingMessage) =>
    new Promise<Record<string, unknown>>((done) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => done(text ? JSON.parse(text) : {}));
    });
  return createServer(async (req, res) => {
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, body === undefined ? headers : { 'content-type': 'application/json', ...headers });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    const [, collection, id] = (req.url ?? '').split('?')[0].split('/');
    if (collection !== 'pets') return send(404, { error: 'no such path' });
    if (id === undefined && req.method === 'POST') {
      const pet = { ...(await read(req)), id: `p${next++}` };
      if (!forgetful) pets.set(String(pet.id), pet);
      return send(201, undefined, { location: `/pets/${pet.id}` });
    }
    if (id === undefined && req.method === 'GET') return send(200, forgetful ? [made] : [...pets.values()]);
    const pet = forgetful ? made : pets.get(id);
    if (req.method === 'GET') return pet ? send(200, pet) : send(404, { error: 'no such pet' });
    if (req.method === 'PATCH') {
      const patch = await read(req);
      if (!forgetful && pet) pets.set(id, { ...pet, ...patch });
      return pet ? send(200) : send(404, { error: 'no such pet' });
    }
    if (req.method === 'DELETE') {
      if (!forgetful) pets.delete(id);
      return send(204);
    }
    return send(405);
  });
}

describe('the state stage prober', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

  const PETS = { ...SHAPES, paths: { '/pets': SHAPES.paths['/pets'], '/pets/{id}': SHAPES.paths['/pets/{id}'] } };

  async function probe(forgetful: boolean) {
    server = petServer(forgetful);
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    const loaded = await loadDocument(writeDocument(PETS));
    return runStateStage(`http://127.0.0.1:${port}`, loaded, createSchemaJudge(loaded.doc, loaded.version, 'request'), {
      timeoutMs: 30_000,
    });
  }

  it('finds every step held on a server that keeps what was created', async () => {
    const state = await probe(false);
    expect(state.collections).toEqual([
      expect.objectContaining({
        path: '/pets',
        kept: true,
        id: 'p1',
        idFrom: 'location',
        steps: {
          create: { ok: true },
          read: { ok: true },
          list: { ok: true },
          update: { ok: true },
          delete: { ok: true },
        },
      }),
    ]);
    expect(stateCell(state)).toBe('1/1');
  });

  it('detects a server that forgets: the read and the list lack the mark, the update is not read back, the deleted item is still read', async () => {
    const state = await probe(true);
    const [pets] = state.collections;
    expect(pets.kept).toBe(false);
    expect(pets.steps.create).toEqual({ ok: true });
    expect(pets.steps.read).toMatchObject({ ok: false, reason: 'read: 200 without the mark' });
    expect(pets.steps.list).toMatchObject({ ok: false, reason: 'list: not in the bare array' });
    expect(pets.steps.update).toMatchObject({ ok: false, reason: 'update, read back: 200 without the mark' });
    expect(pets.steps.delete).toMatchObject({ ok: false, reason: 'delete, read again: 200' });
    expect(stateCell(state)).toBe('0/1');
    const totals = stateTotalsOf([state]);
    expect(totals).toMatchObject({
      collections: 1,
      measured: 1,
      kept: 0,
      steps: { create: { ok: 1, measured: 1 }, read: { ok: 0, measured: 1 } },
    });
    expect(topStateReasons(stateMisses([{ name: 'pets', state }]).misses, 2)[0]).toMatch(
      /^ {4}1 × read: 200 without the mark \(1 documents\), e\.g\. pets \/pets: 200 /,
    );
  });
});

// A collection whose create takes no string field: no mark can show, so the created id is the evidence.
const COUNTERS = {
  ...SHAPES,
  paths: {
    '/counters': {
      get: { responses: ok({ type: 'array', items: { $ref: '#/components/schemas/Counter' } }) },
      post: {
        requestBody: { content: json({ type: 'object', properties: { step: { type: 'integer' } } }) },
        responses: { '201': { description: 'made', content: json({ $ref: '#/components/schemas/Counter' }) } },
      },
    },
    '/counters/{id}': {
      parameters: [pathParam('id')],
      get: { responses: { ...ok({ $ref: '#/components/schemas/Counter' }), '404': { description: 'none' } } },
    },
  },
  components: {
    schemas: { Counter: { type: 'object', properties: { id: { type: 'string' }, step: { type: 'integer' } } } },
  },
};

/** Keeps counters, or (`echo`) keeps nothing and answers any read with the id in its path. */
function counterServer(echo: boolean): Server {
  const counters = new Map<string, object>();
  let next = 1;
  return createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const [, , id] = (req.url ?? '').split('?')[0].split('/');
    req.resume();
    req.on('end', () => {
      if (id === undefined && req.method === 'POST') {
        const counter = { id: `c${next++}`, step: 1 };
        if (!echo) counters.set(counter.id, counter);
        return send(201, counter);
      }
      if (id === undefined) return send(200, [...counters.values()]);
      const counter = echo ? { id, step: 1 } : counters.get(id);
      return counter ? send(200, counter) : send(404, { error: 'none' });
    });
  });
}

describe('the state stage where no sent field can show', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

  async function probe(echo: boolean) {
    server = counterServer(echo);
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    const loaded = await loadDocument(writeDocument(COUNTERS));
    return runStateStage(`http://127.0.0.1:${port}`, loaded, createSchemaJudge(loaded.doc, loaded.version, 'request'), {
      timeoutMs: 30_000,
    });
  }

  it('holds the read and the list to the created id, and counts the collection kept by it', async () => {
    const state = await probe(false);
    expect(state.collections).toEqual([
      expect.objectContaining({ path: '/counters', kept: true, evidence: 'id', id: 'c1' }),
    ]);
    expect(state.collections[0].steps).toMatchObject({ read: { ok: true }, list: { ok: true } });
    expect(stateCell(state)).toBe('1/1');
  });

  it('finds nothing kept on a server that echoes any id in the path: a never-created id is read back too', async () => {
    const state = await probe(true);
    const [counters] = state.collections;
    expect(counters.kept).toBe(false);
    expect(counters.steps.read).toMatchObject({ ok: false, reason: 'read: an id never created is read back too' });
    expect(counters.steps.list).toMatchObject({ ok: false, reason: 'list: no item with the id in the bare array' });
    expect(stateCell(state)).toBe('0/1');
  });
});

describe('the state stage against plantstore', () => {
  it("finds plantstore's mock keeping a flat JSON collection: created, read, listed, updated, deleted", async () => {
    const { startMockServer } = await import('../../src/index.ts');
    const file = writeDocument({
      ...SHAPES,
      paths: { '/pets': SHAPES.paths['/pets'], '/pets/{id}': SHAPES.paths['/pets/{id}'] },
    });
    const mock = await startMockServer({ port: 0, spec: file });
    try {
      const loaded = await loadDocument(file);
      const state = await runStateStage(mock.url, loaded, createSchemaJudge(loaded.doc, loaded.version, 'request'), {
        timeoutMs: 30_000,
      });
      expect(state.collections).toEqual([
        expect.objectContaining({
          kept: true,
          steps: {
            create: { ok: true },
            read: { ok: true },
            list: { ok: true },
            update: { ok: true },
            delete: { ok: true },
          },
        }),
      ]);
    } finally {
      await mock.close();
    }
  });

  it('gives a parent the value its read accepts, where only the read declares a pattern', async () => {
    const { startMockServer } = await import('../../src/index.ts');
    const item = { type: 'object', properties: { sid: { type: 'string' }, name: { type: 'string' } } };
    const strict = pathParam('ConferenceSid', { type: 'string', pattern: '^CF[0-9a-f]{4}$', example: 'CF00ab' });
    const file = writeDocument({
      openapi: '3.0.3',
      info: { title: 'Parents', version: '1' },
      paths: {
        '/Conferences/{ConferenceSid}/Participants': {
          post: {
            parameters: [pathParam('ConferenceSid')],
            requestBody: { content: json({ type: 'object', properties: { name: { type: 'string' } } }) },
            responses: { '201': { description: 'made', content: json(item) } },
          },
        },
        '/Conferences/{ConferenceSid}/Participants/{sid}': {
          get: { parameters: [strict, pathParam('sid')], responses: ok(item) },
        },
      },
    });
    const mock = await startMockServer({ port: 0, spec: file });
    try {
      const loaded = await loadDocument(file);
      const state = await runStateStage(mock.url, loaded, createSchemaJudge(loaded.doc, loaded.version, 'request'), {
        timeoutMs: 30_000,
      });
      expect(state.collections[0]).toMatchObject({ kept: true, steps: { read: { ok: true } } });
    } finally {
      await mock.close();
    }
  });

  it("reads a singleton's one item in the GET on its own path, where no list is declared", async () => {
    const { startMockServer } = await import('../../src/index.ts');
    const file = resolve('test/documents/singletons.yaml');
    const mock = await startMockServer({ port: 0, spec: file });
    try {
      const loaded = await loadDocument(file);
      const state = await runStateStage(mock.url, loaded, createSchemaJudge(loaded.doc, loaded.version, 'request'), {
        timeoutMs: 30_000,
      });
      expect(state.collections.find((c) => c.path === '/repos/{owner}/{repo}/pages')).toMatchObject({
        kept: true,
        steps: { create: { ok: true }, list: { ok: true } },
      });
    } finally {
      await mock.close();
    }
  });
});

describe('the state stage update body', () => {
  it("keeps the item's key as the path has it and marks the other fields", async () => {
    const doc = {
      openapi: '3.0.3',
      info: { title: 'Variables', version: '1' },
      paths: {
        '/variables/{name}': {
          parameters: [pathParam('name')],
          patch: {
            requestBody: {
              content: json({ type: 'object', properties: { name: { type: 'string' }, value: { type: 'string' } } }),
            },
            responses: ok(),
          },
        },
      },
    };
    const loaded = await loadDocument(writeDocument(doc));
    const requests = createSchemaJudge(loaded.doc, loaded.version, 'request');
    const result = markBody(loaded, requests, loaded.operations[0], markMaker(), true, [], {
      param: 'name',
      id: 'zq0001k',
    });
    expect(result.ok && JSON.parse(String(result.body.body))).toEqual({
      name: 'zq0001k',
      value: expect.stringMatching(/^zq/),
    });
    expect(result.ok && result.body.marks).toHaveLength(1);
  });
});

describe('the state stage judges only marks an answer can show', async () => {
  const doc = {
    openapi: '3.0.3',
    info: { title: 'Shown', version: '1' },
    paths: {
      '/tasks': {
        post: {
          requestBody: {
            content: json({
              type: 'object',
              properties: {
                prompt: { type: 'string' },
                title: { type: 'string' },
                repositories: { type: 'array', items: { type: 'string' } },
              },
            }),
          },
          responses: ok({ $ref: '#/components/schemas/Task' }),
        },
        get: {
          responses: ok({
            type: 'object',
            properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Task' } } },
          }),
        },
      },
    },
    components: {
      schemas: {
        Task: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            title: { type: 'string' },
            repositories: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } },
            session: { type: 'object', properties: { prompt: { type: 'string' } } },
          },
        },
      },
    },
  };
  const loaded = await loadDocument(writeDocument(doc));
  const create = loaded.operations.find((op) => op.method === 'post')!;

  it('keeps a mark sent at a string field the answer declares, and drops those it lacks, types otherwise or holds elsewhere', () => {
    const fields = [['prompt'], ['title'], ['repositories']];
    expect(showableMarks(loaded, create, ['m1', 'm2', 'm3'], fields)).toEqual(['m2']);
  });

  it('takes every mark as showable in a list of strings', async () => {
    const strings = await loadDocument(
      writeDocument({
        ...doc,
        paths: { '/contexts': { get: { responses: ok({ type: 'array', items: { type: 'string' } }) } } },
      }),
    );
    expect(showableMarks(strings, strings.operations[0], ['m1'], [['contexts']], true)).toEqual(['m1']);
  });

  it("reads a list's fields from its items, inside the wrapping object", () => {
    const list = loaded.operations.find((op) => op.method === 'get')!;
    expect(showableMarks(loaded, list, ['m1', 'm2'], [['prompt'], ['title']], true)).toEqual(['m2']);
  });
});

describe('the state stage marks fields inside an untyped envelope', async () => {
  const doc = {
    openapi: '3.0.3',
    info: { title: 'Wrapped', version: '1' },
    paths: {
      '/tasks': {
        post: {
          requestBody: {
            content: json({
              type: 'object',
              properties: { data: { allOf: [{ type: 'object', properties: { name: { type: 'string' } } }] } },
            }),
          },
          responses: ok({ type: 'object' }),
        },
      },
    },
  };
  const loaded = await loadDocument(writeDocument(doc));
  const requests = createSchemaJudge(loaded.doc, loaded.version, 'request');

  it("marks `data.name` where `data` is an allOf with no type of its own (Asana's creates)", () => {
    const result = markBody(loaded, requests, loaded.operations[0], markMaker());
    expect(result).toMatchObject({ ok: true, body: { fields: [['data', 'name']] } });
  });
});
