// An empty array or object in a URL-encoded form is written "name=", the empty value of
// OpenAPI's style table (Stripe's required `permissions`, its `metadata`): written as nothing, a
// required one would be missing. The mock reads "name=" back as the empty array or object.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { listOperations } from '../../src/document/operations.ts';
import { planBody, writeBody } from '../../src/runner/generate/generated-bodies.ts';
import { readUrlEncoded } from '../../src/mock/request/form-body.ts';

const spec = await loadSpec('test/documents/runner-corpus-shapes.yaml');
const operation = listOperations(spec).find((op) => op.id === 'createCustomer')!;
const plan = planBody(operation);
if (!plan.ok || !plan.plan) throw new Error('createCustomer has a form body');
const form = plan.plan;

describe('empty arrays and objects in a URL-encoded form', () => {
  it('are written "name=", and read back as they were', () => {
    const value = {
      email: 'a@example.com',
      permissions: [],
      metadata: {},
      invoice_settings: { rendering_options: {} },
    };
    const written = writeBody(form, value, 1, spec.document);
    expect('rawBody' in written && written.rawBody.split('&')).toEqual([
      'email=a%40example.com',
      'permissions=',
      'metadata=',
      'invoice_settings%5Brendering_options%5D=',
    ]);
    const read = readUrlEncoded('rawBody' in written ? written.rawBody : '', form.content, spec.document);
    // rendering_options takes "" too (Stripe's emptyable fields): the empty text is then read as text.
    expect(read).toEqual({
      ok: true,
      value: { email: 'a@example.com', permissions: [], metadata: {}, invoice_settings: { rendering_options: '' } },
    });
  });
});
