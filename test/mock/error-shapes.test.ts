import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createValidators } from '../../src/validation/validator.ts';
import type { JsonValue } from '../../src/json/exact-json.ts';
import { plantEngine, send } from '../helpers/engine.ts';

const spec = loadSpec('test/documents/error-shapes.yaml');
const ENVELOPE = '#/components/schemas/Envelope';
const NOT_FOUND = '#/paths/~1orders~1search/post/responses/404/content/application~1json/schema';

describe("error answers in the document's own shape", () => {
  it.each([
    [
      'a 401 from an envelope schema with no status or message field, generated',
      { method: 'GET', path: '/orders', headers: { authorization: undefined } },
      401,
      ENVELOPE,
      /bearer/i,
    ],
    [
      "a 400 from the envelope's declared example",
      { method: 'POST', path: '/orders/search', json: { q: 1 } },
      400,
      ENVELOPE,
      /\/q: must be string/,
    ],
    [
      "a routing miss from the document's declared 404 shape",
      { method: 'GET', path: '/nowhere' },
      404,
      NOT_FOUND,
      /no operation at \/nowhere/,
    ],
  ])('answers %s with a valid body carrying the message', async (_, request, status, pointer, message) => {
    const loaded = await spec;
    const answer = await send(await plantEngine({}, loaded), request);
    expect(answer.status).toBe(status);
    expect(createValidators(loaded).at(pointer)(answer.json as JsonValue)).toEqual({ ok: true });
    expect(JSON.stringify(answer.json)).toMatch(message);
  });

  it('writes the message into the most fitting string field and keeps enum fields valid', async () => {
    const answer = await send(await plantEngine({}, await spec), { method: 'POST', path: '/orders/search', json: {} });
    expect(answer.json).toEqual({ errors: [{ code: 'invalid', detail: expect.stringContaining('/q') }] });
  });

  it('writes a generated error body holding an int64 past 2^53 exactly', async () => {
    const loaded = await spec;
    const answer = await send(await plantEngine({}, loaded), {
      method: 'GET',
      path: '/ledger',
      headers: { authorization: undefined },
    });
    expect(answer.status).toBe(401);
    expect(typeof (answer.json as { trace: unknown }).trace).toBe('bigint');
    expect(answer.json).toMatchObject({ detail: expect.stringMatching(/bearer/i) });
    expect(
      createValidators(loaded).at('#/paths/~1ledger/get/responses/401/content/application~1json/schema')(
        answer.json as JsonValue,
      ),
    ).toEqual({ ok: true });
  });

  it('answers a status declared without content with no body', async () => {
    const answer = await send(await plantEngine({}, await spec), {
      method: 'GET',
      path: '/orders',
      headers: { prefer: 'code=404' },
    });
    expect([answer.status, answer.text, answer.headers['content-type']]).toEqual([404, undefined, undefined]);
  });

  it('writes an error declared only as XML in XML, status as an attribute', async () => {
    const answer = await send(await plantEngine({}, await spec), { method: 'POST', path: '/orders/export', json: {} });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/xml');
    expect(answer.text).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?><error status="400"><message>invalid request body: .*<\/message><\/error>$/,
    );
  });
});
