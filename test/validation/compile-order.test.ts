// The warm-up compiles component schemas after the ones they refer to, each cycle together, so
// that no step compiles much more than one schema.
import { describe, expect, it } from 'vitest';
import { compileOrder } from '../../src/validation/compile-order.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('the order of compiling component schemas', () => {
  const groups = compileOrder({
    components: {
      schemas: {
        Invoice: {
          type: 'object',
          properties: {
            customer: { anyOf: [{ type: 'string' }, ref('Customer')] },
            lines: { type: 'array', items: ref('Line') },
          },
        },
        Customer: { type: 'object', properties: { account: ref('Account'), address: ref('Address') } },
        Account: { type: 'object', properties: { owner: ref('Customer') } },
        Line: {
          type: 'object',
          properties: { amount: { type: 'integer' }, 'x-ref': { $ref: '#/components/responses/Other' } },
        },
        Address: { type: 'object' },
        'a/b~c': { allOf: [ref('Address')] },
      },
    },
  });
  const position = (pointer: string) => groups.findIndex((group) => group.includes(pointer));

  it('lists every component schema once, escaped as a pointer', () => {
    expect(groups.flat().sort()).toEqual(
      ['Account', 'Address', 'Customer', 'Invoice', 'Line', 'a~1b~0c'].map((name) => `#/components/schemas/${name}`),
    );
  });

  it('puts a cycle in one group', () => {
    expect(groups.find((group) => group.includes('#/components/schemas/Customer'))?.sort()).toEqual([
      '#/components/schemas/Account',
      '#/components/schemas/Customer',
    ]);
  });

  it('puts every schema after the ones it refers to', () => {
    expect(position('#/components/schemas/Address')).toBeLessThan(position('#/components/schemas/Customer'));
    expect(position('#/components/schemas/Customer')).toBeLessThan(position('#/components/schemas/Invoice'));
    expect(position('#/components/schemas/Line')).toBeLessThan(position('#/components/schemas/Invoice'));
    expect(position('#/components/schemas/Address')).toBeLessThan(position('#/components/schemas/a~1b~0c'));
  });

  it('has nothing to order in a document without components', () => {
    expect(compileOrder({})).toEqual([]);
  });
});
