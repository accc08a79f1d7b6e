import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createValidators } from '../../src/validation/validator.ts';
import type { JsonValue } from '../../src/json/exact-json.ts';
import { plantEngine, send } from '../helpers/engine.ts';

const spec = loadSpec('test/documents/forced-errors.yaml');
const engine = async () => plantEngine({}, await spec);
const PROBLEM = '#/components/schemas/Problem';
const FAULT = '#/components/schemas/Fault';
const ENVELOPE = '#/components/schemas/Envelope';

const createJob = (headers: Record<string, string>, query = '') => ({
  method: 'POST',
  path: '/jobs',
  query,
  json: { name: 'nightly' },
  headers,
});
const listJobs = (headers: Record<string, string>, query = '') => ({ method: 'GET', path: '/jobs', query, headers });

describe("a forced error status answers in the document's error shape, saying it was forced", () => {
  it.each([
    [
      'a declared 400 in problem details',
      createJob({ prefer: 'code=400' }),
      400,
      PROBLEM,
      { status: 400, title: 'Bad Request', type: 'about:blank', detail: 'forced by Prefer: code=400' },
    ],
    [
      'a declared 500',
      createJob({ prefer: 'code=500' }),
      500,
      PROBLEM,
      { status: 500, title: 'Internal Server Error', type: 'about:blank', detail: 'forced by Prefer: code=500' },
    ],
    [
      'a 502 that the 5XX range covers',
      createJob({ prefer: 'code=502' }),
      502,
      FAULT,
      { code: '502', message: 'forced by Prefer: code=502' },
    ],
    [
      'a 500 that only default covers',
      listJobs({ prefer: 'code=500' }),
      500,
      FAULT,
      { code: '500', message: 'forced by Prefer: code=500' },
    ],
    [
      'a 500 asked for by the __code query form',
      createJob({}, '__code=500'),
      500,
      PROBLEM,
      { status: 500, title: 'Internal Server Error', type: 'about:blank', detail: 'forced by __code=500' },
    ],
  ])('answers %s', async (_, request, status, pointer, body) => {
    const loaded = await spec;
    const answer = await send(await plantEngine({}, loaded), request);
    expect(answer.status).toBe(status);
    expect(answer.json).toEqual(body);
    expect(createValidators(loaded).at(pointer)(answer.json as JsonValue)).toEqual({ ok: true });
  });

  it('writes the reason into an error schema a status and a message cannot fill, keeping it valid', async () => {
    const loaded = await spec;
    const answer = await send(await plantEngine({}, loaded), listJobs({ prefer: 'code=422' }));
    expect(answer.status).toBe(422);
    expect(answer.json).toEqual({ errors: [{ reason: expect.any(String), detail: 'forced by Prefer: code=422' }] });
    expect(createValidators(loaded).at(ENVELOPE)(answer.json as JsonValue)).toEqual({ ok: true });
  });

  it("serves the error's own declared example as written", async () => {
    const answer = await send(await engine(), createJob({ prefer: 'code=409' }));
    expect(answer).toMatchObject({
      status: 409,
      json: { title: 'Conflict', detail: 'A job of that name is running.' },
    });
  });

  it('still generates the body when asked to with dynamic=true', async () => {
    const loaded = await spec;
    const answer = await send(await plantEngine({}, loaded), createJob({ prefer: 'code=500, dynamic=true' }));
    expect(answer.status).toBe(500);
    expect((answer.json as { detail: string }).detail).not.toMatch(/forced/);
    expect(createValidators(loaded).at(PROBLEM)(answer.json as JsonValue)).toEqual({ ok: true });
  });

  it('answers a forced error declared only as XML in XML, whatever Accept asks', async () => {
    const answer = await send(await engine(), {
      method: 'GET',
      path: '/reports',
      headers: { prefer: 'code=500', accept: 'application/json' },
    });
    expect(answer.status).toBe(500);
    expect(answer.headers['content-type']).toBe('application/xml');
    expect(answer.text).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><fault code="500"><message>forced by Prefer: code=500</message></fault>',
    );
  });

  it('answers a forced status declared without content with no body', async () => {
    const answer = await send(await engine(), listJobs({ prefer: 'code=503' }));
    expect([answer.status, answer.text]).toEqual([503, undefined]);
  });

  it('changes no state when a create is forced to fail', async () => {
    const mock = await engine();
    expect((await send(mock, createJob({ prefer: 'code=500' }))).status).toBe(500);
    expect(mock.store.list('/jobs')).toEqual([]);
  });
});

describe("a status that cannot be forced is refused with the operation's 400, saying why", () => {
  it('names the declared responses for a status the operation does not declare', async () => {
    const answer = await send(await engine(), createJob({ prefer: 'code=404' }));
    expect(answer.status).toBe(400);
    expect((answer.json as { detail: string }).detail).toBe(
      'cannot force that response: POST /jobs declares no 404 response (declared responses: 201, 400, 409, 500, 5XX; ask for one of them)',
    );
  });

  it.each([['5xx'], ['abc'], ['42'], ['600']])(
    'refuses code=%s, which is no HTTP status, instead of answering as if nothing was asked',
    async (code) => {
      const mock = await engine();
      const answer = await send(mock, createJob({ prefer: `code=${code}` }));
      expect(answer.status).toBe(400);
      expect((answer.json as { detail: string }).detail).toBe(
        `cannot force that response: Prefer: code=${code} is not an HTTP status (three digits from 100 to 599, e.g. code=404)`,
      );
      expect(mock.store.list('/jobs')).toEqual([]);
    },
  );
});
