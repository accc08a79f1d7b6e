// A oneOf whose branches overlap (GitHub's 422: two error shapes that both match a body without
// `errors`): json-schema-faker leaves out what tells them apart, so every draw matched both. Each
// branch drawn alone, with its optional properties, gives a value that matches exactly one.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExampleGenerator } from '../../src/example/index.ts';
import { loadSpec } from '../../src/document/load-spec.ts';
import { createValidators } from '../../src/validation/validator.ts';
import { loadAuditedSpec } from '../../src/example/load-audited-spec.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const POINTER = '#/paths/~1workflows/post/responses/422/content/application~1json/schema';

describe('generating a oneOf whose branches overlap', () => {
  it.each([1, 2, 3])('gives a value that matches exactly one branch (seed %i)', async (seed) => {
    const spec = await loadSpec(resolve('test/documents/runner-corpus-shapes.yaml'));
    const validators = createValidators(spec);
    const value = createExampleGenerator(spec, validators).generateOne(POINTER, seed);
    expect(validators.at(POINTER)(value).ok).toBe(true);
    expect((value as { errors?: unknown[] }).errors?.length).toBeGreaterThan(0);
  });
});

// Nexmo's SMS answer: oneOf [SMS, Error], objects of optional strings whose `messages` items differ
// only in the names they declare, so every value drawn from one branch matched the other too.
const SMS_DOCUMENT = {
  openapi: '3.0.0',
  info: { title: 'SMS', version: '1' },
  paths: {
    '/sms': {
      post: {
        operationId: 'send',
        responses: {
          '200': {
            description: 'sent',
            content: {
              'application/json': {
                schema: { oneOf: [{ $ref: '#/components/schemas/SMS' }, { $ref: '#/components/schemas/Error' }] },
              },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      SMS: {
        type: 'object',
        properties: {
          count: { type: 'string' },
          messages: { type: 'array', items: { $ref: '#/components/schemas/Message' } },
        },
      },
      Error: {
        type: 'object',
        properties: {
          count: { type: 'string' },
          messages: { type: 'array', items: { $ref: '#/components/schemas/ErrorMessage' } },
        },
      },
      Message: { type: 'object', properties: { 'message-id': { type: 'string' }, status: { type: 'string' } } },
      ErrorMessage: { type: 'object', properties: { 'error-text': { type: 'string' }, status: { type: 'string' } } },
    },
  },
};

describe('generating a oneOf whose branches accept the same values until told apart deep inside', () => {
  it.each([1, 2, 3])('gives a value that matches exactly one branch (seed %i)', async (seed) => {
    const file = join(tempDir('one-of-'), 'sms.json');
    writeFileSync(file, JSON.stringify(SMS_DOCUMENT));
    const spec = await loadSpec(file);
    const validators = createValidators(spec);
    const pointer = '#/paths/~1sms/post/responses/200/content/application~1json/schema';
    const value = createExampleGenerator(spec, validators).generateOne(pointer, seed);
    expect(validators.at(pointer)(value).ok).toBe(true);
  });

  it('is not reported at load as a body the mock cannot make', async () => {
    const file = join(tempDir('one-of-'), 'sms.json');
    writeFileSync(file, JSON.stringify(SMS_DOCUMENT));
    const spec = await loadAuditedSpec(file);
    expect(spec.warnings.join('\n')).not.toMatch(/cannot generate/);
  });
});

// Spotify's top items: oneOf [Artist, Track] with a discriminator, each branch all optional but for
// the `type` enum that tells them apart. A draw without the tag matched both branches.
const TOP_DOCUMENT = {
  openapi: '3.0.0',
  info: { title: 'Top', version: '1' },
  paths: {
    '/top': {
      get: {
        responses: {
          '200': {
            description: 'items',
            content: {
              'application/json': {
                schema: {
                  oneOf: [{ $ref: '#/components/schemas/Artist' }, { $ref: '#/components/schemas/Track' }],
                  discriminator: { propertyName: 'type' },
                },
              },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Artist: { type: 'object', properties: { name: { type: 'string' }, type: { type: 'string', enum: ['artist'] } } },
      Track: { type: 'object', properties: { name: { type: 'string' }, type: { type: 'string', enum: ['track'] } } },
    },
  },
};

describe('generating a discriminated oneOf whose branches differ only in the tag', () => {
  it.each([1, 2, 3, 4])('draws the tag, so the value matches exactly one branch (seed %i)', async (seed) => {
    const file = join(tempDir('one-of-'), 'top.json');
    writeFileSync(file, JSON.stringify(TOP_DOCUMENT));
    const spec = await loadSpec(file);
    const validators = createValidators(spec);
    const value = createExampleGenerator(spec, validators).generateOne(
      '#/paths/~1top/get/responses/200/content/application~1json/schema',
      seed,
    );
    const matching = ['Artist', 'Track'].filter((name) => validators.at(`#/components/schemas/${name}`)(value).ok);
    expect(matching).toHaveLength(1);
  });
});
