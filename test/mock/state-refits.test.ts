// Stored items whose answer schema they do not fit whole (test/documents/state-refits.yaml): the
// answer keeps every stored field that fits, in a read and in a wrapped list alike.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createMockEngine, type MockEngine } from '../../src/mock/engine.ts';
import { send } from '../helpers/engine.ts';

const specOnce = loadSpec(resolve('test/documents/state-refits.yaml'));
const engineFor = async () => createMockEngine({ spec: await specOnce });
const form = (engine: MockEngine, path: string, body: string) =>
  send(engine, { method: 'POST', path, body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
const get = (engine: MockEngine, path: string) => send(engine, { method: 'GET', path, body: '' });

describe('a create with fields its answer cannot carry', () => {
  it('lists the stored charge in the wrapped list, without the fields the answer cannot carry', async () => {
    const engine = await engineFor();
    const created = await form(
      engine,
      '/v1/charges',
      'description=Fern&amount=100&application_fee=5&expand[]=customer',
    );
    expect(created).toMatchObject({ status: 200, json: { description: 'Fern', amount: 100, object: 'charge' } });
    const id = (created.json as { id: string }).id;
    const listed = await get(engine, '/v1/charges');
    expect(listed.status).toBe(200);
    expect(listed.json).toMatchObject({ data: [{ id, description: 'Fern', amount: 100 }], has_more: false });
    expect((listed.json as { data: object[] }).data[0]).not.toHaveProperty('expand');
    expect((listed.json as { data: { application_fee?: unknown }[] }).data[0].application_fee).not.toBe(5);
  });

  it('reads the stored charge by its id with what was sent', async () => {
    const engine = await engineFor();
    const created = await form(engine, '/v1/charges', 'description=Moss&amount=7&application_fee=5&expand[]=customer');
    const id = (created.json as { id: string }).id;
    expect(await get(engine, `/v1/charges/${id}`)).toMatchObject({
      status: 200,
      json: { id, description: 'Moss', amount: 7 },
    });
  });
});

describe('a key the answers carry', () => {
  it("reads an uploaded file by the id its create's answer shows, not by the upload's field named like {file}", async () => {
    const engine = await engineFor();
    const body =
      '--b\r\nContent-Disposition: form-data; name="purpose"\r\n\r\ndispute_evidence\r\n' +
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--b--\r\n';
    const created = await send(engine, {
      method: 'POST',
      path: '/v1/files',
      body,
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    });
    expect(created).toMatchObject({
      status: 200,
      json: { id: expect.stringMatching(/./), purpose: 'dispute_evidence' },
    });
    const id = (created.json as { id: string }).id;
    expect(await get(engine, `/v1/files/${encodeURIComponent(id)}`)).toMatchObject({
      status: 200,
      json: { id, purpose: 'dispute_evidence' },
    });
  });
});

describe('a key the answers carry (continued)', () => {
  it('reads a payment method by the id its answer shows, not by an optional request field named like {payment_method}', async () => {
    const engine = await engineFor();
    const created = await form(engine, '/v1/payment_methods', 'type=card');
    const id = (created.json as { id: string }).id;
    expect(id).toEqual(expect.any(String));
    expect(await get(engine, `/v1/payment_methods/${encodeURIComponent(id)}`)).toMatchObject({
      status: 200,
      json: { id, type: 'card' },
    });
  });
});

describe('an answer of several shapes', () => {
  it('reads a stored bank account back as the shape that keeps what was sent, whichever the generator would draw', async () => {
    const engine = await engineFor();
    const created = await form(
      engine,
      '/v1/customers/cus_1/sources',
      'bank_name=Fern%20Bank&account_holder_name=Ada&default_for_currency=yes',
    );
    expect(created).toMatchObject({ status: 200, json: { bank_name: 'Fern Bank', account_holder_name: 'Ada' } });
    const id = (created.json as { id: string }).id;
    expect(await get(engine, `/v1/customers/cus_1/sources/${id}`)).toMatchObject({
      status: 200,
      json: { id, object: 'bank_account', bank_name: 'Fern Bank', account_holder_name: 'Ada' },
    });
  });
});
