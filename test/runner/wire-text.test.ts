// Hostile values are judged "must be refused" only for a primitive parameter, read from the wire as
// the mock reads it; a schema with an object branch (Stripe's `created`: a range object or an integer)
// is no primitive, and a primitive anyOf reads the text by every branch's type.
import { describe, expect, it } from 'vitest';
import { isPrimitiveSchema, readWireText } from '../../src/runner/wire-text.ts';

describe('the wire text of a parameter', () => {
  it.each([
    [{ type: 'integer' }, true],
    [{ type: ['string', 'null'] }, true],
    [{ anyOf: [{ type: 'integer' }, { type: 'string' }] }, true],
    [{ type: 'object' }, false],
    [{ anyOf: [{ type: 'object', properties: { gt: { type: 'integer' } } }, { type: 'integer' }] }, false],
    [{ oneOf: [{ type: 'integer' }, { type: 'array', items: { type: 'integer' } }] }, false],
    [{ allOf: [{ properties: { a: {} } }] }, false],
  ])('%j is a primitive: %s', (schema, primitive) => {
    expect(isPrimitiveSchema(schema)).toBe(primitive);
  });

  it('reads a number by a branch that takes one', () => {
    expect(readWireText('2147483648', { anyOf: [{ type: 'integer' }, { type: 'string' }] })).toBe(2147483648);
    expect(readWireText('true', { oneOf: [{ type: 'boolean' }] })).toBe(true);
    expect(readWireText('abc', { anyOf: [{ type: 'integer' }] })).toBe('abc');
  });
});
