// Parameter values go on the wire in the style the document declares: the rows are OpenAPI
// 3.1's "Style Examples" table (color = "blue", ["blue","black","brown"], {R:100,G:200,B:150}).
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/json/exact-json.ts';
import { declaredFormat } from '../../src/document/parameter-format.ts';
import {
  formatOf,
  serializeCookie,
  serializeHeader,
  serializePath,
  serializeQuery,
  type ParameterStyle,
} from '../../src/runner/generate/parameter-style.ts';

const STRING = 'blue';
const ARRAY = ['blue', 'black', 'brown'];
const OBJECT = { R: 100, G: 200, B: 150 };
const format = (style: ParameterStyle, explode: boolean) => ({ style, explode, allowReserved: false });

describe('path parameters in their style', () => {
  it.each<[ParameterStyle, boolean, JsonValue, string]>([
    ['simple', false, STRING, 'blue'],
    ['simple', false, ARRAY, 'blue,black,brown'],
    ['simple', false, OBJECT, 'R,100,G,200,B,150'],
    ['simple', true, ARRAY, 'blue,black,brown'],
    ['simple', true, OBJECT, 'R=100,G=200,B=150'],
    ['label', false, STRING, '.blue'],
    ['label', false, ARRAY, '.blue,black,brown'],
    ['label', false, OBJECT, '.R,100,G,200,B,150'],
    ['label', true, ARRAY, '.blue.black.brown'],
    ['label', true, OBJECT, '.R=100.G=200.B=150'],
    ['matrix', false, STRING, ';color=blue'],
    ['matrix', false, ARRAY, ';color=blue,black,brown'],
    ['matrix', false, OBJECT, ';color=R,100,G,200,B,150'],
    ['matrix', true, ARRAY, ';color=blue;color=black;color=brown'],
    ['matrix', true, OBJECT, ';R=100;G=200;B=150'],
  ])('writes style %s, explode %s, %j as %s', (style, explode, value, wire) => {
    expect(serializePath('color', value, format(style, explode))).toBe(wire);
  });

  it('percent-encodes what a path segment cannot hold, but not the style delimiters', () => {
    expect(serializePath('q', ['a/b', 'c d'], format('simple', false))).toBe('a%2Fb,c%20d');
  });
});

describe('query parameters in their style', () => {
  it.each<[ParameterStyle, boolean, JsonValue, string]>([
    ['form', false, STRING, 'color=blue'],
    ['form', false, ARRAY, 'color=blue,black,brown'],
    ['form', false, OBJECT, 'color=R,100,G,200,B,150'],
    ['form', true, STRING, 'color=blue'],
    ['form', true, ARRAY, 'color=blue&color=black&color=brown'],
    ['form', true, OBJECT, 'R=100&G=200&B=150'],
    ['spaceDelimited', false, ARRAY, 'color=blue%20black%20brown'],
    ['pipeDelimited', false, ARRAY, 'color=blue|black|brown'],
    ['deepObject', true, OBJECT, 'color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150'],
  ])('writes style %s, explode %s, %j as %s', (style, explode, value, wire) => {
    expect(serializeQuery('color', value, format(style, explode)).join('&')).toBe(wire);
  });

  it("takes OpenAPI's defaults: form, and explode only for form", () => {
    expect(formatOf({})).toEqual({ style: 'form', explode: true, allowReserved: false });
    expect(declaredFormat('path', {})).toEqual({ style: 'simple', explode: false, allowReserved: false });
  });

  it('leaves reserved characters as they are only with allowReserved', () => {
    expect(serializeQuery('next', '/a?b', formatOf({}))).toEqual(['next=%2Fa%3Fb']);
    expect(serializeQuery('next', '/a?b', formatOf({ allowReserved: true }))).toEqual(['next=/a?b']);
  });
});

describe('header and cookie parameters in their style', () => {
  it.each<[boolean, JsonValue, string]>([
    [false, STRING, 'blue'],
    [false, ARRAY, 'blue,black,brown'],
    [false, OBJECT, 'R,100,G,200,B,150'],
    [true, OBJECT, 'R=100,G=200,B=150'],
  ])('writes a header with explode %s, %j, as %s', (explode, value, wire) => {
    expect(serializeHeader(value, format('simple', explode))).toBe(wire);
  });

  it('writes cookies as name=value pairs (form)', () => {
    expect(serializeCookie('color', STRING, format('form', true))).toEqual(['color=blue']);
    expect(serializeCookie('color', ARRAY, format('form', false))).toEqual(['color=blue,black,brown']);
  });
});
