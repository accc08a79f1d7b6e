import { describe, expect, it } from 'vitest';
import { isRefusal, parseRequestHead, type HeadRefusal, type RequestHead } from '../../src/http/request-head.ts';

const head = (lines: string[]): RequestHead => {
  const parsed = parseRequestHead(lines.join('\r\n'));
  if (isRefusal(parsed)) throw new Error(`refused: ${parsed.status} ${parsed.message}`);
  return parsed;
};
const refusal = (lines: string[]): HeadRefusal => {
  const parsed = parseRequestHead(lines.join('\r\n'));
  if (!isRefusal(parsed)) throw new Error('accepted');
  return parsed;
};

describe('the request head reader', () => {
  it('reads the request line, lower-cases header names and keeps values trimmed of OWS', () => {
    const parsed = head(['POST /plants?x=1 HTTP/1.1', 'Host: x', 'AUTHORIZATION:  Bearer t \t', 'Content-Type:application/json', 'Content-Length: 12']);
    expect(parsed).toMatchObject({ method: 'POST', target: '/plants?x=1', minor: 1, contentLength: 12, chunked: false, keepAlive: true, expectContinue: false, authorizationCount: 1 });
    expect({ ...parsed.headers }).toEqual({ host: 'x', authorization: 'Bearer t', 'content-type': 'application/json', 'content-length': '12' });
  });

  it('joins repeated headers as Node does: the first of a one-value header wins, cookies with "; ", the rest with ", "', () => {
    const parsed = head(['GET / HTTP/1.1', 'Host: x', 'Authorization: Bearer a', 'authorization: Bearer b', 'Cookie: a=1', 'Cookie: b=2', 'X-Thing: 1', 'x-thing: 2', 'Content-Type: a/b', 'Content-Type: c/d']);
    expect(parsed.authorizationCount).toBe(2);
    expect(parsed.headers.authorization).toBe('Bearer a');
    expect(parsed.headers.cookie).toBe('a=1; b=2');
    expect(parsed.headers['x-thing']).toBe('1, 2');
    expect(parsed.headers['content-type']).toBe('a/b');
  });

  it('keeps a header named __proto__ as data', () => {
    const parsed = head(['GET / HTTP/1.1', 'Host: x', '__proto__: polluted']);
    expect(parsed.headers.__proto__).toBe('polluted');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['HTTP/1.1 by default', ['GET / HTTP/1.1', 'Host: x'], true],
    ['HTTP/1.1 with Connection: close', ['GET / HTTP/1.1', 'Host: x', 'Connection: Keep-Alive, Close'], false],
    ['HTTP/1.0 by default', ['GET / HTTP/1.0'], false],
    ['HTTP/1.0 with Connection: keep-alive', ['GET / HTTP/1.0', 'Connection: keep-alive'], true],
  ])('keeps the connection open or not: %s', (_, lines, keepAlive) => {
    expect(head(lines).keepAlive).toBe(keepAlive);
  });

  // A single regular expression for the field line backtracked in cubic time on this (hours for a
  // 16 KB head): the test would not finish.
  it('refuses a value of 15,000 spaces and a control byte without backtracking', () => {
    expect(refusal(['GET / HTTP/1.1', 'Host: x', `A:${' '.repeat(15_000)}\u0001`]).status).toBe(400);
    expect(refusal(['GET / HTTP/1.1', 'Host: x', `A: x${' \t'.repeat(7_500)}\u0001`]).status).toBe(400);
    expect(head(['GET / HTTP/1.1', 'Host: x', `A: x${' '.repeat(15_000)}y`]).headers.a).toBe(`x${' '.repeat(15_000)}y`);
  });

  it.each([['/plants?x=1'], ['http://elsewhere.test/plants'], ['HTTPS://h:1'], ['http://h?q']])('takes the request target %s', (target) => {
    expect(head([`GET ${target} HTTP/1.1`, 'Host: x']).target).toBe(target);
  });

  it('takes OPTIONS *', () => {
    expect(head(['OPTIONS * HTTP/1.1', 'Host: x']).target).toBe('*');
  });

  it('reads HTTP/1.2 as HTTP/1.1 (RFC 9110 §6.2)', () => {
    expect(head(['GET / HTTP/1.2', 'Host: x'])).toMatchObject({ minor: 1, keepAlive: true });
    expect(refusal(['GET / HTTP/1.2']).status).toBe(400);
  });

  it('reads chunked framing and 100-continue', () => {
    expect(head(['POST / HTTP/1.1', 'Host: x', 'Transfer-Encoding: Chunked', 'Expect: 100-Continue'])).toMatchObject({ chunked: true, contentLength: undefined, expectContinue: true });
    expect(head(['POST / HTTP/1.0', 'Expect: 100-continue', 'Content-Length: 1']).expectContinue).toBe(false);
  });

  it.each([
    ['a malformed request line', ['HELLO'], 400],
    ['a lower-case version', ['GET / http/1.1', 'Host: x'], 400],
    ['a space inside the target', ['GET /a b HTTP/1.1', 'Host: x'], 400],
    ['two spaces after the method', ['GET  / HTTP/1.1', 'Host: x'], 400],
    ['a non-ASCII target', ['GET /\u00e9 HTTP/1.1', 'Host: x'], 400],
    ['HTTP/2.0', ['GET / HTTP/2.0', 'Host: x'], 505],
    ['HTTP/0.9', ['GET / HTTP/0.9'], 505],
    ['no Host in HTTP/1.1', ['GET / HTTP/1.1'], 400],
    ['two Host headers', ['GET / HTTP/1.1', 'Host: x', 'Host: y'], 400],
    ['whitespace before the colon', ['GET / HTTP/1.1', 'Host : x'], 400],
    ['obs-fold', ['GET / HTTP/1.1', 'Host: x', 'X-A: 1', ' 2'], 400],
    ['a line without a colon', ['GET / HTTP/1.1', 'Host: x', 'nonsense'], 400],
    ['a bare LF inside the head', ['GET / HTTP/1.1', 'Host: x\nX-A: 1'], 400],
    ['a bare CR inside a value', ['GET / HTTP/1.1', 'Host: x\rX-A: 1'], 400],
    ['a NUL in a value', ['GET / HTTP/1.1', 'Host: x', 'X-A: a\u0000b'], 400],
    ['an empty header name', ['GET / HTTP/1.1', 'Host: x', ': v'], 400],
    ['a Content-Length that is not digits', ['POST / HTTP/1.1', 'Host: x', 'Content-Length: 0x10'], 400],
    ['a negative Content-Length', ['POST / HTTP/1.1', 'Host: x', 'Content-Length: -1'], 400],
    ['a Content-Length list', ['POST / HTTP/1.1', 'Host: x', 'Content-Length: 5, 5'], 400],
    ['two equal Content-Length headers', ['POST / HTTP/1.1', 'Host: x', 'Content-Length: 5', 'Content-Length: 5'], 400],
    ['Transfer-Encoding with Content-Length', ['POST / HTTP/1.1', 'Host: x', 'Transfer-Encoding: chunked', 'Content-Length: 5'], 400],
    ['chunked not last', ['POST / HTTP/1.1', 'Host: x', 'Transfer-Encoding: chunked, gzip'], 400],
    ['chunked twice', ['POST / HTTP/1.1', 'Host: x', 'Transfer-Encoding: chunked', 'Transfer-Encoding: chunked'], 400],
    ['Transfer-Encoding in HTTP/1.0', ['POST / HTTP/1.0', 'Transfer-Encoding: chunked'], 400],
    ['a coding before chunked', ['POST / HTTP/1.1', 'Host: x', 'Transfer-Encoding: gzip, chunked'], 501],
    ['an unknown expectation', ['POST / HTTP/1.1', 'Host: x', 'Expect: tea'], 417],
    ['a target that is neither a path nor absolute', ['GET x/plants HTTP/1.1', 'Host: x'], 400],
    ['a scheme without an authority', ['GET http:plants/plants HTTP/1.1', 'Host: x'], 400],
    ['an asterisk for anything but OPTIONS', ['GET * HTTP/1.1', 'Host: x'], 400],
    ['CONNECT', ['CONNECT example.test:443 HTTP/1.1', 'Host: example.test:443'], 501],
  ])('refuses %s', (_, lines, status) => {
    expect(refusal(lines).status).toBe(status);
  });
});
