// The key an item path names by its parameter's tail (test/documents/key-tails.yaml).
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import { buildResourceMap } from '../../src/document/resources.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import { send } from '../helpers/engine.ts';

const specOnce = loadSpec(resolve('test/documents/key-tails.yaml'));

describe('a key named by the tail of the item path parameter', () => {
  it('keys copilot spaces by number ({space_number}) and GPG keys by the integer id, not the string key_id', async () => {
    const spec = await specOnce;
    const { resources } = buildResourceMap(listOperations(spec), spec.document);
    expect(resources.find((r) => r.collection === '/orgs/{org}/copilot-spaces')).toMatchObject({
      keyField: 'number',
      keySource: 'named by {space_number}',
    });
    expect(resources.find((r) => r.collection === '/user/gpg_keys')).toMatchObject({ keyField: 'id' });
  });

  it('reads a created space at /copilot-spaces/{number} with the number its answer showed', async () => {
    const engine = createMockEngine({ spec: await specOnce });
    const created = await send(engine, { method: 'POST', path: '/orgs/acme/copilot-spaces', json: { name: 'Fern' } });
    expect(created).toMatchObject({ status: 201, json: { number: expect.any(Number), name: 'Fern' } });
    const { number } = created.json as { number: number };
    expect(await send(engine, { method: 'GET', path: `/orgs/acme/copilot-spaces/${number}`, body: '' })).toMatchObject({
      status: 200,
      json: { number, name: 'Fern' },
    });
  });
});
