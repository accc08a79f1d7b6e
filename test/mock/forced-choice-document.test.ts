// Prism chooses a forced status in a document of one operation. A circular schema used to bring
// every component along, which Prism's transform dereferenced again: minutes per operation on
// Stripe's document, for the first forced answer and for `plantstore msw`'s table of choices.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import {
  createForcedResponder,
  forcedChoiceTable,
  singleOperationDocument,
} from '../../src/mock/answer/forced-response.ts';

const spec = await loadSpec('test/documents/circular-forced.yaml');
const [folders] = listOperations(spec);

describe('the document Prism chooses a forced status in', () => {
  it("holds the operation's statuses and media types alone, so no component of a circular schema comes along", () => {
    const document = singleOperationDocument(spec, folders) as Record<string, any>;
    expect(JSON.stringify(document)).not.toContain('$ref');
    expect(document.components).toBeUndefined();
    expect(document.paths['/folders'].get.responses['200']).toEqual({
      description: '200',
      content: { 'application/json': { schema: {} } },
    });
  });

  it('leaves the document it was made from as it was', () => {
    singleOperationDocument(spec, folders);
    const schema = (spec.document.paths as any)['/folders'].get.responses['200'].content['application/json'].schema;
    expect(schema.properties.children.items.$ref).toBe('#/components/schemas/Folder');
  });

  it.each([
    [undefined, { ok: true, status: 200 }],
    [404, { ok: true, status: 404 }],
    [500, { ok: true, status: 500 }],
  ])('still lets Prism choose as before: code %s gives %j', async (code, choice) => {
    expect(await createForcedResponder(spec)(folders, { code, dynamic: false })).toEqual(choice);
  });

  it("gives plantstore msw's table the same choices", async () => {
    const table = await forcedChoiceTable(spec, [folders]);
    expect(table['GET /folders']).toMatchObject({
      none: 200,
      classes: { 1: 'asked', 2: 'asked', 3: 'asked', 4: 'asked', 5: 'asked' },
    });
  });
});
