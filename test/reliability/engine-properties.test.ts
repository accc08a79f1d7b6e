import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/exact-json.ts';
import { createMockEngine } from '../../src/mock/engine.ts';
import { createValidators } from '../../src/validation/validator.ts';
import { builtInSpec, CANARY } from '../helpers/engine.ts';

const OFF_CONTRACT = new Set([401, 404, 405, 413, 415]);
const PLANT = '#/paths/~1plants/post/responses/200/content/application~1json/schema';
const ERROR = '#/components/schemas/Error';

const jsonText = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc
    .record({
      id: fc.oneof(
        fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
        fc.double().map(String),
        fc.string().map((s) => JSON.stringify(s)),
      ),
      name: fc.string().map((s) => JSON.stringify(s)),
    })
    .map(({ id, name }) => `{"id":${id},"name":${name}}`),
  fc.string(),
);
const headers = fc.record(
  {
    authorization: fc.oneof(
      fc.constant(`Bearer ${CANARY}`),
      fc.constant('Bearer'),
      fc.string().map((s) => `Bearer ${s}`),
      fc.string(),
      fc.constant('Basic abc'),
    ),
    'content-type': fc.oneof(
      fc.constant('application/json'),
      fc.constant('application/json; charset=utf-8'),
      fc.constant('text/plain'),
      fc.string(),
    ),
    prefer: fc.oneof(fc.constant('code=400'), fc.constant('dynamic=true'), fc.string()),
    origin: fc.webUrl(),
  },
  { requiredKeys: [] },
);
const request = fc.record({
  method: fc.oneof(
    fc.constantFrom('POST', 'GET', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH'),
    fc.string({ minLength: 1, maxLength: 8 }),
  ),
  path: fc.oneof(fc.constant('/plants'), fc.constantFrom('/plants/', '/plants/1', '/', '/__mock/health'), fc.webPath()),
  query: fc.oneof(fc.constant(''), fc.constant('__code=400'), fc.string()),
  headers,
  body: jsonText,
});

describe('the engine, for any request', () => {
  it('never answers 5xx, answers only declared or documented statuses with valid bodies, and changes state only on a 200 create', async () => {
    const spec = await builtInSpec();
    const validators = createValidators(spec);
    const engine = createMockEngine({ spec });
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        const before = engine.store.size();
        const answer = await engine.handle({ ...req, body: Buffer.from(req.body) });
        expect(answer.status).toBeLessThan(500);
        const created =
          answer.status === 200 &&
          req.method === 'POST' &&
          req.path === '/plants' &&
          !('prefer' in req.headers) &&
          !req.query.includes('__');
        expect(engine.store.size()).toBe(before + (created ? 1 : 0));
        if (req.path.startsWith('/__mock/') || answer.status === 204 || answer.body === undefined) return;
        const parsed = parseJson(String(answer.body));
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        if (answer.status === 200) expect(validators.at(PLANT)(parsed.value).ok).toBe(true);
        else {
          expect(answer.status === 400 || OFF_CONTRACT.has(answer.status)).toBe(true);
          expect(validators.at(ERROR)(parsed.value)).toEqual({ ok: true });
          // The mock's own errors carry their status; a forced (generated) Error is any int32, as the contract allows.
          const forced = 'prefer' in req.headers || req.query.includes('__');
          if (!forced) expect((parsed.value as { error: number }).error).toBe(answer.status);
        }
      }),
      { numRuns: 1500, seed: 20261122 },
    );
  });
});
