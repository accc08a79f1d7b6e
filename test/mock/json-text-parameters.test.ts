// Stripe's styled parameters whose schema is anyOf an object (or array) and "": the object can only
// travel as JSON text, and the text reading, where a string is allowed too, does not fit.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/document/load-spec.ts';
import { plantEngine, send } from '../helpers/engine.ts';

const spec = () => loadSpec('test/documents/json-text-params.yaml');
const get = (query: string) => ({ method: 'GET', path: '/invoices/upcoming', query, headers: {}, body: '' });

describe('a styled parameter whose object travels as JSON text', () => {
  it('reads it as JSON where the text alone does not fit a string branch', async () => {
    const engine = await plantEngine({}, await spec());
    const query = `details%5Bshipping%5D=${encodeURIComponent('{"name":"Fern"}')}&discounts=${encodeURIComponent('{"coupon":"A"}')}&discounts=${encodeURIComponent('{"coupon":"B"}')}`;
    expect((await send(engine, get(query))).status).toBe(200);
  });

  it('keeps the text where a string fits, and still refuses what fits no branch', async () => {
    const engine = await plantEngine({}, await spec());
    expect((await send(engine, get('details%5Bshipping%5D='))).status).toBe(200);
    expect((await send(engine, get(`details%5Bshipping%5D=${encodeURIComponent('{"name":1}')}`))).status).toBe(400);
    expect((await send(engine, get('details%5Bshipping%5D=plain'))).status).toBe(400);
  });
});
