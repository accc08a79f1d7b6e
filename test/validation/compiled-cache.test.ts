// The compiled validators are kept on disk next to the cached document: a start that finds them
// judges exactly as compiling would, and an entry of an older version of the document, or a
// damaged one, is ignored.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/json/exact-json.ts';

// The cache folder is read when the loader's module loads: set before importing it.
const cacheDir = mkdtempSync(join(tmpdir(), 'plantstore-compiled-'));
process.env.PLANTSTORE_CACHE_DIR = cacheDir;
delete process.env.PLANTSTORE_NO_CACHE;
const { loadSpec } = await import('../../src/document/load-spec.ts');
const { createValidators } = await import('../../src/validation/validator.ts');

const DOCUMENT = (maxLength: number) => `openapi: 3.1.0
info: {title: Accounts, version: '1'}
paths:
  /accounts:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Account'}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Account'}
components:
  schemas:
    Account:
      type: object
      required: [id, name, secret, balance]
      properties:
        id: {type: string, readOnly: true, pattern: '^acct_[a-z0-9]+$'}
        name: {type: string, maxLength: ${maxLength}}
        secret: {type: string, writeOnly: true}
        balance: {type: integer, format: int64}
        opened: {type: string, format: date-time}
        parent: {$ref: '#/components/schemas/Account'}
`;

const REQUEST = '#/paths/~1accounts/post/requestBody/content/application~1json/schema';
const ANSWER = '#/paths/~1accounts/post/responses/201/content/application~1json/schema';

// Values either side of each rule: readOnly/writeOnly required by direction, pattern, maxLength,
// int64 (exact, past 2^53), date-time, a circular reference.
const VALUES: Array<[string, JsonValue]> = [
  ['a request', { name: 'Ada', secret: 's', balance: 1 }],
  ['a request without its secret', { name: 'Ada', balance: 1 }],
  ['an answer', { id: 'acct_1', name: 'Ada', balance: 9007199254740993n }],
  ['an answer without its id', { name: 'Ada', balance: 1 }],
  ['a bad id', { id: 'nope', name: 'Ada', secret: 's', balance: 1 }],
  ['a long name', { id: 'acct_1', name: 'Adaline', secret: 's', balance: 1 }],
  ['a balance past int64', { id: 'acct_1', name: 'Ada', secret: 's', balance: 9223372036854775808n }],
  ['a bad date', { id: 'acct_1', name: 'Ada', secret: 's', balance: 1, opened: 'yesterday' }],
  [
    'a bad parent',
    { id: 'acct_1', name: 'Ada', secret: 's', balance: 1, parent: { id: 'acct_2', name: 'Bo', balance: 'lots' } },
  ],
  ['not an object', 'Ada'],
];

let file: string;
const entries = (suffix: string) =>
  readdirSync(cacheDir)
    .filter((name) => name.endsWith(suffix))
    .map((name) => join(cacheDir, name));

/** Loads the document, judges every value by both pointers, and writes the cache when it compiled. */
async function judge() {
  const validators = createValidators(await loadSpec(file));
  const verdicts = VALUES.map(([label, value]) => [label, validators.at(REQUEST)(value), validators.at(ANSWER)(value)]);
  const saving = validators.save();
  let step = saving.next();
  while (!step.done) step = saving.next();
  return { cached: validators.cached, saved: step.value, verdicts };
}

describe('the cache of compiled validators', () => {
  beforeEach(() => {
    for (const name of readdirSync(cacheDir)) rmSync(join(cacheDir, name));
    file = join(mkdtempSync(join(tmpdir(), 'plantstore-compiled-doc-')), 'accounts.yaml');
    writeFileSync(file, DOCUMENT(5));
  });

  it('is written by a start that compiled, and read by the next one, which judges alike', async () => {
    const first = await judge();
    expect(first).toMatchObject({ cached: false, saved: true });
    expect(first.verdicts.filter(([, request]) => (request as { ok: boolean }).ok).map(([label]) => label)).toEqual([
      'a request',
    ]);
    expect(first.verdicts.filter(([, , answer]) => (answer as { ok: boolean }).ok).map(([label]) => label)).toEqual([
      'an answer',
    ]);
    const second = await judge();
    expect(second).toMatchObject({ cached: true, saved: false });
    expect(second.verdicts).toEqual(first.verdicts);
    // The second start also kept V8's code cache of the module; a third reads both.
    expect(entries('.validators.v8')).toHaveLength(1);
    expect(await judge()).toEqual(second);
  });

  it('is not used once the document changes', async () => {
    await judge();
    writeFileSync(file, DOCUMENT(10));
    const changed = await judge();
    expect(changed.cached).toBe(false);
    // The longer maxLength now admits "Adaline": the old code would still refuse it.
    const longName = changed.verdicts.find(([label]) => label === 'a long name')!;
    expect(longName[1]).toEqual({ ok: true });
    expect(longName[2]).toEqual({ ok: true });
  });

  it.each([
    ['a changed byte', (text: string) => text.replace('acct_', 'acct-')],
    ['a cut-off module', (text: string) => text.slice(0, Math.floor(text.length / 2))],
    ['no header', (text: string) => text.slice(text.indexOf('\n') + 1)],
    ['a header that is not JSON', (text: string) => `// plantstore validators {${text.slice(text.indexOf('\n'))}`],
  ])('is ignored when the module has %s, and the values are judged as compiled', async (_label, damage) => {
    const compiled = await judge();
    const [module] = entries('.validators.js');
    writeFileSync(module, damage(readFileSync(module, 'utf8')));
    const again = await judge();
    expect(again.cached).toBe(false);
    expect(again.verdicts).toEqual(compiled.verdicts);
  });

  it("judges alike when V8's code cache beside the module is damaged", async () => {
    const compiled = await judge();
    await judge(); // keeps the code cache
    const [codeCache] = entries('.validators.v8');
    const data = readFileSync(codeCache);
    data.fill(7, 32 + 64); // the module's digest kept, the data garbled
    writeFileSync(codeCache, data);
    const again = await judge();
    expect(again.cached).toBe(true);
    expect(again.verdicts).toEqual(compiled.verdicts);
  });
});
