// Items wrapped one to a body (test/documents/item-envelopes.yaml): the wrapper comes off a
// create's or an update's body before storing, and goes around the item in every answer that
// declares one, so reads, lists and updates show what was sent.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import { buildResourceMap } from '../../src/document/resources.ts';
import { createMockEngine, type MockEngine } from '../../src/mock/engine.ts';
import { send } from '../helpers/engine.ts';
import { silentLogger } from '../../src/log/logger.ts';

const specOnce = loadSpec(resolve('test/documents/item-envelopes.yaml'));
const engineFor = async () => createMockEngine({ spec: await specOnce });
const get = (engine: MockEngine, path: string) => send(engine, { method: 'GET', path, body: '' });

describe('items wrapped one to a body', () => {
  it('says in the resource map which field wraps the item, and keys the items by the wrapped gid', async () => {
    const spec = await specOnce;
    const { resources } = buildResourceMap(listOperations(spec), spec.document);
    expect(resources.find((r) => r.collection === '/tasks')).toMatchObject({ itemEnvelope: 'data', keyField: 'gid' });
    expect(resources.find((r) => r.collection === '/orgs/{org}/budgets')).toMatchObject({
      itemEnvelope: 'budget',
      keyField: 'id',
    });
  });

  it('stores {data: {...}} as the task, answers it wrapped, and reads, lists and updates it by its made gid', async () => {
    const engine = await engineFor();
    const created = await send(engine, { method: 'POST', path: '/tasks', json: { data: { name: 'Fern' } } });
    expect(created).toMatchObject({ status: 201, json: { data: { gid: expect.any(String), name: 'Fern' } } });
    const gid = (created.json as { data: { gid: string } }).data.gid;
    expect(created.json).not.toHaveProperty('data.data');
    expect(await get(engine, `/tasks/${gid}`)).toMatchObject({ status: 200, json: { data: { gid, name: 'Fern' } } });
    expect(await get(engine, '/tasks')).toMatchObject({ status: 200, json: { data: [{ gid, name: 'Fern' }] } });
    const updated = await send(engine, { method: 'PUT', path: `/tasks/${gid}`, json: { data: { name: 'Moss' } } });
    expect(updated).toMatchObject({ status: 200, json: { data: { gid, name: 'Moss' } } });
    expect(await get(engine, `/tasks/${gid}`)).toMatchObject({ json: { data: { gid, name: 'Moss' } } });
  });

  it("reads a budget by the id inside the create's {message, budget} answer", async () => {
    const engine = await engineFor();
    const created = await send(engine, {
      method: 'POST',
      path: '/orgs/acme/budgets',
      json: { name: 'Q3', budget_amount: 5 },
    });
    expect(created).toMatchObject({
      status: 200,
      json: { message: expect.any(String), budget: { id: expect.any(String), name: 'Q3', budget_amount: 5 } },
    });
    const { id } = (created.json as { budget: { id: string } }).budget;
    expect(await get(engine, `/orgs/acme/budgets/${id}`)).toMatchObject({
      status: 200,
      json: { id, name: 'Q3', budget_amount: 5 },
    });
  });

  it('stores the fields of bank_account[...] as the bank account, with the metadata beside them', async () => {
    const engine = await engineFor();
    const created = await send(engine, {
      method: 'POST',
      path: '/customers/cus_1/bank_accounts',
      body: 'bank_account[account_holder_name]=Ada&bank_account[country]=US&metadata[k]=v',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(created).toMatchObject({
      status: 200,
      json: { id: expect.any(String), account_holder_name: 'Ada', country: 'US', metadata: { k: 'v' } },
    });
    const { id } = created.json as { id: string };
    expect(await get(engine, `/customers/cus_1/bank_accounts/${id}`)).toMatchObject({
      status: 200,
      json: { id, account_holder_name: 'Ada', country: 'US', metadata: { k: 'v' } },
    });
  });

  it('answers an Asana create with the name it sent inside `data`, fitting its answer, with no warning', async () => {
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (line: string) => void warnings.push(line) };
    const engine = createMockEngine({ spec: await loadSpec(resolve('test/documents/envelopes.yaml')), logger });
    const answer = await send(engine, { method: 'POST', path: '/goals', json: { data: { name: 'Ada' } }, headers: {} });
    expect(answer).toMatchObject({
      status: 201,
      json: { data: { gid: expect.any(String), resource_type: 'goal', name: 'Ada' } },
    });
    expect(warnings.filter((line) => /body fails/.test(line))).toEqual([]);
  });
});
