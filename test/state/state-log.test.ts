import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../src/json/exact-json.ts';
import { encodeEntry, encodePutText } from '../../src/state/state-log.ts';

describe('the state log lines', () => {
  it.each([
    [{ id: 1, name: 'Fern' }],
    [{ id: 9223372036854775807n, name: 'Max', tag: 'é "quoted" \\ \u2028' }],
    [{ id: -0, nested: { list: [1, 9007199254740993n, null, true] } }],
  ])('a put written from the stored text is the line encodeEntry writes for the record (%o)', (record) => {
    const fromText = encodePutText('/plants', String(record.id), stringifyJson(record));
    expect(fromText).toBe(encodeEntry({ op: 'put', collection: '/plants', key: String(record.id), record }));
    // The same bytes, so the same checksum: decodeLog reads it as it reads any put.
  });
});
