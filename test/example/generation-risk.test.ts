// The generation audit draws only the schemas whose generation could fail (generation-risk.ts): the
// plain ones cost it no draw and no compiled validator, the rest are drawn as before.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { needsDraw } from '../../src/example/generation-risk.ts';
import { patternDrawsHold } from '../../src/example/example-generator.ts';
import { loadAuditedSpec } from '../../src/example/load-audited-spec.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const Named = { type: 'object', properties: { name: { type: 'string', maxLength: 5000 } } };
const context = () => ({
  resolve: (ref: string) => (ref === '#/components/schemas/Named' ? Named : undefined),
  patternHolds: patternDrawsHold,
  known: new Map<object, boolean>(),
});

describe('which schemas the generation audit draws', () => {
  it.each([
    [
      'a plain object of typed, bounded fields',
      {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'integer', minimum: 1 }, at: { type: 'string', format: 'date-time' } },
      },
    ],
    ['an array of an enum of its type', { type: 'array', maxItems: 3, items: { type: 'string', enum: ['a', 'b'] } }],
    [
      "a bare anyOf of plain branches (Stripe's expandable fields)",
      { anyOf: [{ type: 'string' }, { $ref: '#/components/schemas/Named' }] },
    ],
    [
      "a format the validator does not know (Twilio's date-time-rfc-2822)",
      { type: 'string', format: 'date-time-rfc-2822', nullable: true },
    ],
    [
      'a pattern drawn valid every time (a Twilio sid)',
      { type: 'string', pattern: '^AC[0-9a-fA-F]{32}$', minLength: 34, maxLength: 34 },
    ],
  ])('leaves %s to the answers', (_name, schema) => {
    expect(needsDraw(schema, context())).toBe(false);
  });

  it.each([
    ['a oneOf, whose branches may overlap', { oneOf: [{ type: 'object' }, { type: 'object' }] }],
    ['an allOf', { allOf: [{ type: 'object' }, { required: ['a'] }] }],
    ['a required name no property declares', { type: 'object', required: ['a'], properties: {} }],
    ['bounds that cross', { type: 'string', minLength: 5, maxLength: 2 }],
    ['integer bounds with no integer between them', { type: 'integer', minimum: 0.5, maximum: 0.7 }],
    ['an enum of another type', { type: 'integer', enum: ['one'] }],
    ['a pattern with a lookahead no draw meets', { type: 'string', pattern: '^(?=x)y$' }],
    ['a plain field beside a risky one', { type: 'object', properties: { a: { type: 'string' }, b: { not: {} } } }],
    ['a type that is no JSON type', { type: 'objetc' }],
  ])('draws %s', (_name, schema) => {
    expect(needsDraw(schema, context())).toBe(true);
  });

  it('still reports at load a schema no body can be generated for, and none for plain ones', async () => {
    const file = join(tempDir('risk-'), 'openapi.json');
    const answer = (schema: object) => ({
      responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } },
    });
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Risk', version: '1' },
        paths: {
          '/plain': { get: { operationId: 'getPlain', ...answer(Named) } },
          '/never': { get: { operationId: 'getNever', ...answer({ type: 'string', pattern: '^(?=x)y$' }) } },
        },
      }),
    );
    const warnings = (await loadAuditedSpec(file)).warnings.filter((w) => w.includes('cannot generate'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^#\/paths\/~1never\/get\/responses\/200\/content\/application~1json\/schema: .*getNever answers 500/,
    );
  });
});

describe('patterns written with \\u escapes (AWS IAM role ARNs)', () => {
  const pattern =
    'arn:(aws[a-zA-Z0-9-]*):iam::(\\d{12})?:(role((\\u002F)|(\\u002F[\\u0021-\\u007F]+\\u002F))[\\w+=,.@-]+)';

  it('are drawn valid every time, so the audit need not draw them', () => {
    expect(patternDrawsHold({ pattern, minLength: 20, maxLength: 2048 })).toBe(true);
  });

  it('give a body the mock can answer with, and no warning at load', async () => {
    const file = join(tempDir('risk-'), 'openapi.json');
    const role = {
      type: 'object',
      required: ['roleArn'],
      properties: { roleArn: { type: 'string', pattern, minLength: 20 } },
    };
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Iam', version: '1' },
        paths: {
          '/register': {
            post: {
              responses: {
                '200': { description: 'ok', content: { 'application/json': { schema: { allOf: [role] } } } },
              },
            },
          },
        },
      }),
    );
    expect((await loadAuditedSpec(file)).warnings.join('\n')).not.toMatch(/cannot generate/);
  });
});
