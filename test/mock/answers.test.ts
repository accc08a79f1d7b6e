// The one module that decides every answer (answers.ts), called as plain data with no engine
// and no socket: an admitted request, a store and the preferences in; one answer out.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations, type Operation } from '../../src/document/operations.ts';
import { bindResources } from '../../src/document/resources.ts';
import type { HttpRequest } from '../../src/http/types.ts';
import { parseJson, type JsonValue } from '../../src/json/exact-json.ts';
import { silentLogger } from '../../src/log/logger.ts';
import { createAnswers, type Admitted } from '../../src/mock/answer/answers.ts';
import { readPreferences } from '../../src/mock/answer/forced-response.ts';
import { resolveMockOptions } from '../../src/mock/options.ts';
import { createMemoryStore } from '../../src/state/store.ts';
import { createValidators } from '../../src/validation/validator.ts';

async function plantStore(document = 'test/documents/plant-store-grown.yaml') {
  const spec = await loadSpec(resolve(document));
  const operations = listOperations(spec);
  const answers = createAnswers({
    spec,
    validators: createValidators(spec),
    logger: silentLogger,
    options: resolveMockOptions(),
    operations,
    bindings: bindResources(operations, spec.document),
  });
  const operation = (id: string) => operations.find((op) => op.id === id) as Operation;
  return { answers, operation, store: createMemoryStore() };
}

const request = (method: string, path: string, headers: Record<string, string> = {}, body = ''): HttpRequest => ({
  method,
  path,
  query: '',
  headers,
  body,
});

const admitted = (
  operation: Operation,
  request: HttpRequest,
  value?: JsonValue,
  params: Record<string, string> = {},
): Admitted => ({
  request,
  operation,
  params,
  query: {},
  body: { ok: true, value },
});

const bodyOf = (body: string | Uint8Array | undefined) => {
  const parsed = parseJson(String(body));
  return parsed.ok ? parsed.value : undefined;
};

describe('the answer decided for an admitted request', () => {
  it('stores a create and answers it with the declared 200, naming the record it changed', async () => {
    const { answers, operation, store } = await plantStore();
    const create = request('POST', '/plants', {}, '{"id":1,"name":"Fern"}');
    const answer = await answers.decide(
      admitted(operation('createPlant'), create, { id: 1, name: 'Fern' }),
      store,
      readPreferences(create),
    );
    expect(answer.response.status).toBe(200);
    expect(bodyOf(answer.response.body)).toEqual({ name: 'Fern' });
    expect(answer.changed).toEqual({ id: 1, name: 'Fern' });
    expect(store.list('/plants')).toEqual([{ id: 1, name: 'Fern' }]);
  });

  it('answers a create forced to 400 by Prefer with the Error saying so, storing nothing and changing nothing', async () => {
    const { answers, operation, store } = await plantStore();
    const create = request('POST', '/plants', { prefer: 'code=400' }, '{"id":1,"name":"Fern"}');
    const answer = await answers.decide(
      admitted(operation('createPlant'), create, { id: 1, name: 'Fern' }),
      store,
      readPreferences(create),
    );
    expect(answer.response.status).toBe(400);
    expect(bodyOf(answer.response.body)).toEqual({ error: 400, message: 'forced by Prefer: code=400' });
    expect(answer.changed).toBeUndefined();
    expect(store.list('/plants')).toEqual([]);
  });

  it('answers a read of a plant that is not stored with its declared 404', async () => {
    const { answers, operation, store } = await plantStore();
    const read = request('GET', '/plants/99');
    const answer = await answers.decide(
      admitted(operation('getPlant'), read, undefined, { id: '99' }),
      store,
      readPreferences(read),
    );
    expect(answer.response.status).toBe(404);
    expect(bodyOf(answer.response.body)).toEqual({ error: 404, message: 'no plant with id 99' });
    expect(answer.problems).toEqual(['no plant with id 99']);
  });

  it('says a refusal in the document error shape, with its headers', async () => {
    const { answers } = await plantStore();
    const refusal = answers.error(
      request('PUT', '/plants'),
      undefined,
      405,
      'PUT is not declared for /plants; allowed: GET, POST',
      { allow: 'GET, POST' },
    );
    expect(refusal.response.status).toBe(405);
    expect(refusal.response.headers).toMatchObject({ allow: 'GET, POST', 'content-type': 'application/json' });
    expect(bodyOf(refusal.response.body)).toEqual({
      error: 405,
      message: 'PUT is not declared for /plants; allowed: GET, POST',
    });
    expect(answers.errorBody(413, 'too large')).toBe('{"error":413,"message":"too large"}');
    expect(answers.errorType(413)).toBe('application/json');
  });

  it('writes a refusal built as a Decision value exactly as the error it stands for', async () => {
    const { answers } = await plantStore();
    const refused = request('POST', '/plants');
    const decision = {
      kind: 'refuse',
      request: refused,
      operation: undefined,
      status: 401,
      message: 'no token',
    } as const;
    const written = await answers.write(decision);
    expect(written.response.status).toBe(401);
    expect(bodyOf(written.response.body)).toEqual({ error: 401, message: 'no token' });
    expect(written.response).toEqual(answers.error(refused, undefined, 401, 'no token').response);
  });

  it('names the media type of the error body given outside the engine: problem details as application/problem+json', async () => {
    const { answers } = await plantStore('test/corpus/documents/train-travel/openapi.yaml');
    expect(JSON.parse(answers.errorBody(413, 'too large'))).toEqual({
      status: 413,
      title: 'Payload Too Large',
      detail: 'too large',
    });
    expect(answers.errorType(413)).toBe('application/problem+json');
  });
});

describe('the decision, as data before it is written', () => {
  it('says a create was created, then exists, then a read was read and an unknown key is absent (not deleted)', async () => {
    const { answers, operation, store } = await plantStore();
    const create = operation('createPlant');
    const plant = { id: 5, name: 'Fern' };
    expect(await answers.decision(admitted(create, request('POST', '/plants'), plant), store, undefined)).toMatchObject(
      {
        kind: 'state',
        result: { kind: 'created', key: '5', collection: '/plants', record: plant },
      },
    );
    expect(await answers.decision(admitted(create, request('POST', '/plants'), plant), store, undefined)).toMatchObject(
      {
        kind: 'state',
        result: { kind: 'exists', key: '5' },
      },
    );
    const read = operation('getPlant');
    expect(
      await answers.decision(admitted(read, request('GET', '/plants/5'), undefined, { id: '5' }), store, undefined),
    ).toMatchObject({
      kind: 'state',
      result: { kind: 'read', record: plant },
    });
    expect(
      await answers.decision(admitted(read, request('GET', '/plants/6'), undefined, { id: '6' }), store, undefined),
    ).toMatchObject({
      kind: 'state',
      result: { kind: 'absent', key: '6', deleted: false },
    });
  });

  it('says not-acceptable with the declared types, and forced, without touching the state', async () => {
    const { answers, operation, store } = await plantStore();
    const create = operation('createPlant');
    const xml = admitted(create, request('POST', '/plants', { accept: 'application/xml' }), { id: 1, name: 'Fern' });
    expect(await answers.decision(xml, store, undefined)).toMatchObject({
      kind: 'not-acceptable',
      declared: ['application/json'],
    });
    const forcedRequest = request('POST', '/plants', { prefer: 'code=400' });
    expect(
      await answers.decision(
        admitted(create, forcedRequest, { id: 1, name: 'Fern' }),
        store,
        readPreferences(forcedRequest),
      ),
    ).toMatchObject({
      kind: 'forced',
    });
    expect(store.size()).toBe(0);
  });
});
