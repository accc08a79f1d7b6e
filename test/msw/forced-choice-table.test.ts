// The table of Prism's choices that a prepared document carries (a browser cannot load Prism) must
// give exactly Prism's answers: for every operation, with no code and with every code 100-599,
// the responder reading the table and the one asking Prism agree, refusals word for word.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import { createForcedResponder, forcedChoiceTable, type ForcedChoice } from '../../src/mock/answer/forced-response.ts';

const DOCUMENTS = [
  'openapi/plant-store.yaml',
  'test/documents/plant-store-grown.yaml',
  'test/documents/plant-store-crud.yaml',
  'test/documents/forced-errors.yaml',
  'test/documents/transport-corners.yaml',
  'test/corpus/documents/swagger-petstore3/openapi.yaml',
  'test/corpus/documents/train-travel/openapi.yaml',
  'test/corpus/documents/redocly-museum/openapi.yaml',
  'test/corpus/documents/redocly-starter/openapi.yaml',
  'test/corpus/documents/mintlify-plant-store/openapi.json',
  ...[
    'api-with-examples',
    'callback-example',
    'link-example',
    'non-oauth-scopes',
    'petstore',
    'petstore-expanded',
    'tictactoe',
    'uspto',
  ].map((name) => `test/corpus/documents/oai/${name}.yaml`),
];

const tally = new Set<string>();
const CODES = [undefined, ...Array.from({ length: 500 }, (_, i) => 100 + i)];

describe('the table of forced choices', () => {
  it.each(DOCUMENTS)('gives exactly Prism’s answers for every operation and code of %s', async (document) => {
    const spec = await loadSpec(resolve(document));
    const operations = listOperations(spec);
    expect(operations.length).toBeGreaterThan(0);
    const prism = createForcedResponder({ ...spec, forcedChoices: undefined });
    const table = createForcedResponder({ ...spec, forcedChoices: await forcedChoiceTable(spec, operations) });
    for (const operation of operations) {
      const fromPrism: Array<[number | undefined, ForcedChoice]> = [];
      const fromTable: Array<[number | undefined, ForcedChoice]> = [];
      for (const code of CODES) {
        fromPrism.push([code, await prism(operation, { code, dynamic: false })]);
        fromTable.push([code, await table(operation, { code, dynamic: false })]);
      }
      expect(fromTable, `${operation.method} ${operation.path}`).toEqual(fromPrism);
      tally.add(fromPrism.some(([, choice]) => !choice.ok) ? 'some refused' : 'none refused');
    }
  });

  // Not a vacuous comparison: the documents hold operations where Prism refuses codes and ones where it never does.
  it('met both refusals and operations that answer every code', () => {
    expect([...tally].sort()).toEqual(['none refused', 'some refused']);
  });

  it('refuses what it holds no choices for, saying how to get them', async () => {
    const spec = await loadSpec(resolve('openapi/plant-store.yaml'));
    const [operation] = listOperations(spec);
    const table = createForcedResponder({ ...spec, forcedChoices: {} });
    expect(await table(operation, { code: 400, dynamic: false })).toEqual({
      ok: false,
      message: 'no forced answers were worked out for POST /plants',
    });
  });
});
