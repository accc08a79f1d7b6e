import { describe, expect, it } from 'vitest';
import { createPlant, plantEngine, send } from '../helpers/engine.ts';

describe('the mock validates NewPlant bodies', () => {
  it.each([
    ['a valid create with a tag', '{"id":1,"name":"Fern","tag":"green"}', 200, { name: 'Fern', tag: 'green' }],
    ['a valid create without a tag', '{"id":2,"name":"Fern"}', 200, { name: 'Fern' }],
    ['extra fields, which are kept but never answered', '{"id":3,"name":"Fern","color":"red"}', 200, { name: 'Fern' }],
  ])('answers %s with 200 and exactly the declared Plant fields', async (_, body, status, plant) => {
    const engine = await plantEngine();
    const answer = await createPlant(engine, body);
    expect(answer.status).toBe(status);
    expect(answer.json).toStrictEqual(plant);
    expect(answer.headers['content-type']).toBe('application/json');
  });

  it.each([
    ['without name', '{"id":1}', ['/name']],
    ['without id', '{"name":"Fern"}', ['/id']],
    ['without name and id', '{}', ['/id', '/name']],
    ['with id as the string "1"', '{"id":"1","name":"Fern"}', ['/id']],
    ['with id 1.5', '{"id":1.5,"name":"Fern"}', ['/id']],
    ['with name as a number', '{"id":1,"name":7}', ['/name']],
    ['with tag as an array', '{"id":1,"name":"Fern","tag":[]}', ['/tag']],
    ['with id as null', '{"id":null,"name":"Fern"}', ['/id']],
    ['with one past the int64 maximum', '{"id":9223372036854775808,"name":"Fern"}', ['/id']],
    ['with one past the int64 minimum', '{"id":-9223372036854775809,"name":"Fern"}', ['/id']],
    ['that is an array', '[{"id":1,"name":"Fern"}]', ['(body)']],
    ['that is null', 'null', ['(body)']],
    ['that is a number', '42', ['(body)']],
  ])('rejects a NewPlant %s with 400 naming every violated field', async (_, body, pointers) => {
    const engine = await plantEngine();
    const answer = await createPlant(engine, body);
    expect(answer.status).toBe(400);
    const message = (answer.json as { error: number; message: string }).message;
    expect(answer.json).toMatchObject({ error: 400 });
    for (const pointer of pointers) expect(message).toContain(`${pointer}:`);
    expect(engine.store.list('/plants')).toEqual([]);
  });

  it.each([
    ['malformed JSON', '{"id":1,', 'malformed JSON'],
    ['an empty body', '', 'required'],
    ['only spaces', '   ', 'empty'],
    ['only line breaks and tabs', '\r\n\t\n', 'empty'],
    ['only a no-break space (whitespace to trim, not to JSON)', '\u00a0', 'empty'],
    ['spaces around a value', '  {"id":1,', 'malformed JSON'],
  ])('rejects %s with 400', async (_, body, words) => {
    const engine = await plantEngine();
    const answer = await createPlant(engine, body);
    expect(answer.status).toBe(400);
    expect((answer.json as { message: string }).message).toContain(words);
  });

  it.each([
    ['text/plain', 415],
    ['application/xml', 415],
    ['application/json; charset=utf-8', 200],
    ['Application/JSON', 200],
    ['application/json; charset=latin1', 415],
  ])('answers Content-Type %s with %i', async (contentType, status) => {
    const engine = await plantEngine();
    const answer = await createPlant(engine, '{"id":1,"name":"Fern"}', { 'content-type': contentType });
    expect(answer.status).toBe(status);
    if (status !== 200)
      expect(answer.json).toMatchObject({ error: 415, message: expect.stringContaining('application/json') });
  });

  it('rejects a body without Content-Type with 415', async () => {
    const engine = await plantEngine();
    expect((await createPlant(engine, '{"id":1,"name":"Fern"}', { 'content-type': undefined })).status).toBe(415);
  });
});

describe('int64 ids are exact', () => {
  it.each([['9223372036854775807'], ['-9223372036854775808'], ['0'], ['9007199254740993']])(
    'accepts and stores %s exactly',
    async (id) => {
      const engine = await plantEngine();
      expect((await createPlant(engine, `{"id":${id},"name":"Fern"}`)).status).toBe(200);
      const state = await send(engine, { method: 'GET', path: '/__mock/state', body: '' });
      expect(state.text).toContain(`"id": ${id}`);
    },
  );

  it('keeps 9007199254740992 and 9007199254740993 as two different plants', async () => {
    const engine = await plantEngine();
    expect((await createPlant(engine, '{"id":9007199254740992,"name":"A"}')).status).toBe(200);
    expect((await createPlant(engine, '{"id":9007199254740993,"name":"B"}')).status).toBe(200);
    expect(engine.store.list('/plants').map((p) => String(p.id))).toEqual(['9007199254740992', '9007199254740993']);
    expect((await createPlant(engine, '{"id":9007199254740993,"name":"C"}')).status).toBe(400);
  });

  it('treats 1e3 as the integer 1000 and -0 as 0 (JSON numbers are judged by value)', async () => {
    const engine = await plantEngine();
    expect((await createPlant(engine, '{"id":1e3,"name":"A"}')).status).toBe(200);
    expect((await createPlant(engine, '{"id":1000,"name":"B"}')).status).toBe(400);
    expect((await createPlant(engine, '{"id":-0,"name":"C"}')).status).toBe(200);
    expect((await createPlant(engine, '{"id":0,"name":"D"}')).json).toMatchObject({
      message: expect.stringContaining('already exists'),
    });
  });

  it('rejects 1e400, which no number type holds, with 400', async () => {
    const engine = await plantEngine();
    const answer = await createPlant(engine, '{"id":1e400,"name":"A"}');
    expect(answer.status).toBe(400);
    expect((answer.json as { message: string }).message).toContain('too large');
  });
});
