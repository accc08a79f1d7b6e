// The validators' view of a value holding bigints: each bigint projected to a double on its side of
// the int64 bounds, every other value as it was, and a "__proto__" key kept as a plain own key.
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/exact-json.ts';
import { INT64_MAX, projectBigInt, toValidationView } from '../../src/json/int64.ts';

const parse = (text: string) => {
  const parsed = parseJson(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
};

describe('toValidationView', () => {
  it('projects bigints at any depth and keeps everything else, in key order', () => {
    const view = toValidationView(
      parse('{"id":9007199254740993,"name":"Fern","nested":{"list":[9223372036854775807,1,"x"]},"tag":null}'),
    );
    expect(view).toEqual({
      id: projectBigInt(9007199254740993n),
      name: 'Fern',
      nested: { list: [projectBigInt(INT64_MAX), 1, 'x'] },
      tag: null,
    });
    expect(Object.keys(view as object)).toEqual(['id', 'name', 'nested', 'tag']);
    expect(projectBigInt(INT64_MAX)).toBeLessThan(2 ** 63); // still inside int64, as a double
  });

  it('keeps a "__proto__" key as an own key and pollutes nothing', () => {
    const view = toValidationView(parse('{"id":9007199254740993,"__proto__":{"polluted":true}}')) as Record<
      string,
      unknown
    >;
    expect(Object.keys(view)).toEqual(['id', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(view, '__proto__')?.value).toEqual({ polluted: true });
    expect(Object.getPrototypeOf(view)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('hands back a value without bigints as it is', () => {
    const value = parse('{"id":1,"name":"Fern"}');
    expect(toValidationView(value)).toBe(value);
  });
});
