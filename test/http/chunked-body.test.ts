import { describe, expect, it } from 'vitest';
import { ChunkedBody, type ChunkedProgress } from '../../src/http/chunked-body.ts';

/** Feeds the bytes in pieces of `step` and returns the last progress and the bytes it used. */
function feed(text: string, step: number, maxBody = 1024): { progress: ChunkedProgress; used: number } {
  const reader = new ChunkedBody(maxBody, 256);
  const bytes = Buffer.from(text, 'latin1');
  let used = 0;
  for (let at = 0; at < bytes.length; at += step) {
    const piece = bytes.subarray(at, Math.min(at + step, bytes.length));
    const progress = reader.feed(piece, 0);
    if ('error' in progress) return { progress, used };
    if (progress.done) return { progress, used: used + progress.consumed };
    used += piece.length;
  }
  return { progress: { done: false }, used };
}

const body = '5\r\n{"id"\r\n11;ext=1;q="a b"\r\n:1,"name":"Fern"}\r\n0\r\nX-Trailer: yes\r\n\r\n';

describe('the chunked body reader', () => {
  it.each([1, 2, 3, 7, body.length])('reads sizes, extensions, data and trailers split every %i bytes', (step) => {
    const { progress, used } = feed(`${body}GET / HTTP/1.1`, step);
    expect(progress).toMatchObject({ done: true });
    if ('done' in progress && progress.done) expect(progress.body.toString()).toBe('{"id":1,"name":"Fern"}');
    expect(used).toBe(body.length);
  });

  it('reads upper-case hex and leading zeros', () => {
    const { progress } = feed('00A\r\n0123456789\r\n000\r\n\r\n', 4);
    expect(progress).toMatchObject({ done: true });
  });

  it.each([
    ['a size that is not hex', 'zz\r\nab\r\n0\r\n\r\n'],
    ['a size with a sign', '+2\r\nab\r\n0\r\n\r\n'],
    ['data longer than its size', '2\r\nabc\r\n0\r\n\r\n'],
    ['a bare LF after the size', '2\nab\r\n0\r\n\r\n'],
    ['a malformed extension', '2;=x\r\nab\r\n0\r\n\r\n'],
    ['a malformed trailer', '2\r\nab\r\n0\r\nbad trailer\r\n\r\n'],
    ['an endless size line', `1${'0'.repeat(5000)}`],
  ])('refuses %s as malformed', (_, text) => {
    expect(feed(text, 3).progress).toMatchObject({ error: 'malformed' });
  });

  it('refuses a body past the limit as too large, before it arrives', () => {
    expect(feed('400\r\n', 5, 1023).progress).toEqual({ error: 'too-large' });
    expect(feed('200\r\n', 5, 1023).progress).toEqual({ done: false });
    expect(feed('fffffffffffffffff\r\n', 5).progress).toEqual({ error: 'too-large' });
  });
});
