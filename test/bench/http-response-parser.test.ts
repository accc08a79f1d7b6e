// The load client's response reader must find every answer's end wherever TCP splits the bytes:
// one stream of differently framed answers is fed whole, byte by byte and split at every position.
import { describe, expect, it } from 'vitest';
import { ResponseParser } from '../../bench/http-response-parser.ts';

const STREAM = [
  'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello',
  // An interim answer first: not an answer of its own.
  'HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n',
  'HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\nA\r\n0123456789\r\n0\r\nX-Trailer: 1\r\n\r\n',
  'HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n',
  'HTTP/1.1 404 Not Found\r\nCONTENT-LENGTH: 0\r\n\r\n',
  'HTTP/1.1 202 Accepted\r\ncontent-length: 3\r\nConnection: keep-alive\r\n\r\nabc',
  'HTTP/1.1 400 Bad Request\r\ncontent-length: 3\r\nConnection: close\r\n\r\nabc',
  // After a closing answer the rest is not read as answers.
  'garbage that is not HTTP',
].join('');
const EXPECTED = [[200, false], [201, false], [204, false], [404, false], [202, false], [400, true]];

function read(chunks: Buffer[]): { answers: [number, boolean][]; problems: string[] } {
  const answers: [number, boolean][] = [];
  const parser = new ResponseParser((status, close) => answers.push([status, close]));
  const problems = [...chunks.map((chunk) => parser.feed(chunk)), parser.end()];
  return { answers, problems: problems.filter((p) => p !== undefined) };
}

describe('ResponseParser', () => {
  const bytes = Buffer.from(STREAM, 'latin1');

  it('reads several answers from one chunk', () => {
    expect(read([bytes])).toEqual({ answers: EXPECTED, problems: [] });
  });

  it('reads answers fed one byte at a time', () => {
    expect(read([...bytes].map((b) => Buffer.of(b)))).toEqual({ answers: EXPECTED, problems: [] });
  });

  it('reads answers split into two chunks at every position', () => {
    for (let i = 1; i < bytes.length; i++) {
      expect(read([bytes.subarray(0, i), bytes.subarray(i)]), `split at ${i}`).toEqual({ answers: EXPECTED, problems: [] });
    }
  });

  it('ends a body without Content-Length or chunking at the close', () => {
    const answers: [number, boolean][] = [];
    const parser = new ResponseParser((status, close) => answers.push([status, close]));
    expect(parser.feed(Buffer.from('HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nsome body'))).toBeUndefined();
    expect(answers).toEqual([]);
    expect(parser.end()).toBeUndefined();
    expect(answers).toEqual([[200, true]]);
  });

  it.each([
    ['a line that is not a status line', 'HTTP/2 200\r\n\r\n', false],
    ['a bad Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n', false],
    ['a bad chunk size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', false],
    ['a close in the middle of a body', 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf', true],
  ])('reports %s as a problem', (_, text, atEnd) => {
    const parser = new ResponseParser(() => undefined);
    const fed = parser.feed(Buffer.from(text));
    expect(atEnd ? parser.end() : fed).toMatch(/./);
  });
});
