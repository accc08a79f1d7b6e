// Hostile probes, raw bytes on a socket, each run against the mock and, as a reference, against
// bare node:http with the same deadlines. Compared: the statuses (exact for the mock, by class for
// the reference), whether the server closed the connection (a canary request on it is answered or
// not), and whether state changed. Where the two differ, the row says so and why: every difference
// is the adapter's on purpose (docs/design.md, "Libraries, and where they are bypassed").
// Framing rules already pinned exactly in wire-protocol.test.ts are not repeated here unless the
// comparison with node:http is the point.
// Then the clients that try to pin a socket: trickles from a client that never reads (each closed
// within its deadline), a flood past the connection cap while every held connection is busy, and
// an idle flood at the cap, where the mock makes room and bare node:http shuts newcomers out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import {
  DEADLINES,
  idleConnection,
  neverReading,
  runProbe,
  startReference,
  type ReferenceServer,
  type Step,
} from '../helpers/probe-wire.ts';

interface Reply {
  /** Final statuses in order. */
  statuses: number[];
  /** The server closed the connection after them. */
  closes: boolean;
  /** Creates that were stored. */
  stored: number;
}

interface Probe {
  name: string;
  steps: Step[];
  /** Indexes of the answers that answer a HEAD. */
  head?: number[];
  mock: Reply;
  /** Where bare node:http differs from the mock, and why the mock's answer is the one kept. */
  reference?: Partial<Reply> & { why: string };
}

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

let nextId = 5_100_000;
/** A valid NewPlant; each probe's ids are its own (both servers get the same bytes). */
const plant = () => JSON.stringify({ id: nextId++, name: 'Probe' });
const HEADERS = ['Host: x', 'Authorization: Bearer t', 'Content-Type: application/json'];
/** A message from its lines and body, latin1 so that any byte can be written. */
const message = (lines: string[], body = '') => `${lines.map((line) => `${line}\r\n`).join('')}\r\n${body}`;
/** A create, keep-alive; Content-Length added unless `length` is false. */
function create(
  options: { line?: string; headers?: string[]; extra?: string[]; body?: string; length?: boolean } = {},
): string {
  const { line = 'POST /plants HTTP/1.1', headers = HEADERS, extra = [], body = plant(), length = true } = options;
  return message([line, ...headers, ...extra, ...(length ? [`Content-Length: ${Buffer.byteLength(body)}`] : [])], body);
}
/** A chunked create whose chunk lines come from `chunk` (size in hex by default). */
function chunked(
  options: { te?: string[]; extra?: string[]; chunk?: (size: number) => string; last?: string; body?: string } = {},
): string {
  const {
    te = ['Transfer-Encoding: chunked'],
    extra = [],
    chunk = (size) => size.toString(16),
    last = '0\r\n\r\n',
    body = plant(),
  } = options;
  const half = Math.ceil(body.length / 2);
  const chunks = [body.slice(0, half), body.slice(half)]
    .map((piece) => `${chunk(piece.length)}\r\n${piece}\r\n`)
    .join('');
  return message(['POST /plants HTTP/1.1', ...HEADERS, ...extra, ...te], chunks + last);
}
const get = (target: string, extra: string[] = [], method = 'GET') =>
  message([`${method} ${target} HTTP/1.1`, 'Host: x', ...extra]);

const w = (...parts: string[]): Step[] => parts.map((write) => ({ write }));
const ok = (stored = 1, closes = false): Reply => ({
  statuses: Array.from({ length: stored }, () => 200),
  closes,
  stored,
});
const refused = (status: number, closes = true): Reply => ({ statuses: [status], closes, stored: 0 });
const answered = (statuses: number[], stored: number, closes = false): Reply => ({ statuses, closes, stored });

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

const NODE_READS_HTTP2 =
  'RFC 9110 §15.6.6: llhttp reads a request line with HTTP/2.0 as a request; the adapter answers 505';
const ONE_HOST = 'RFC 9112 §3.2: exactly one Host; node:http keeps the first of two, the adapter answers 400';
const CODINGS = 'RFC 9112 §6.1: node:http hands over bytes in a coding it did not undo; the adapter answers 501';
const OWED =
  'node:http writes its refusal of bad bytes ahead of the answers owed to the requests before them, and drops those; the adapter answers them first';
const BODY_LIMIT = 'the mock has a body limit (--max-body, here 4096 bytes); bare node:http has none';

const probes: Probe[] = [
  // Request lines.
  { name: 'a request line with only a method', steps: w('GET\r\nHost: x\r\n\r\n'), mock: refused(400) },
  {
    name: 'a request line without an HTTP version',
    steps: w('GET /__mock/health\r\nHost: x\r\n\r\n'),
    mock: refused(505),
    reference: {
      statuses: [200],
      stored: 0,
      closes: true,
      why: 'llhttp reads a request line without a version as HTTP/0.9, and node:http answers it; the adapter answers 505 (RFC 9110 §15.6.6)',
    },
  },
  { name: 'a lowercase method', steps: w(create({ line: 'post /plants HTTP/1.1' })), mock: refused(400) },
  // RFC 9112 §3: a recipient MAY split the request line on whitespace; llhttp does.
  { name: 'two spaces after the method', steps: w(create({ line: 'POST  /plants HTTP/1.1' })), mock: ok() },
  { name: 'a tab between method and target', steps: w(create({ line: 'POST\t/plants HTTP/1.1' })), mock: refused(400) },
  { name: 'a space after the version', steps: w(create({ line: 'POST /plants HTTP/1.1 ' })), mock: refused(400) },
  { name: 'a lowercase protocol name', steps: w(create({ line: 'POST /plants http/1.1' })), mock: refused(400) },
  { name: 'a version without a minor', steps: w(create({ line: 'POST /plants HTTP/1' })), mock: refused(400) },
  { name: 'a space before the method', steps: w(create({ line: ' POST /plants HTTP/1.1' })), mock: refused(400) },
  { name: 'a space inside the target', steps: w(create({ line: 'POST /pl ants HTTP/1.1' })), mock: refused(400) },
  { name: 'a NUL inside the target', steps: w(create({ line: 'POST /pl\x00ants HTTP/1.1' })), mock: refused(400) },
  {
    name: 'a method of 1,000 letters',
    steps: w(create({ line: `${'A'.repeat(1000)} /plants HTTP/1.1` })),
    mock: refused(400),
  },
  {
    name: 'a request line ended by a bare CR',
    steps: w('GET /__mock/health HTTP/1.1\r\rHost: x\r\n\r\n'),
    mock: refused(400),
  },
  {
    name: 'HTTP/2.0 in the request line',
    steps: w(create({ line: 'POST /plants HTTP/2.0' })),
    mock: refused(505),
    reference: { statuses: [200], stored: 1, why: NODE_READS_HTTP2 },
  },
  { name: 'the HTTP/2 connection preface', steps: w('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), mock: refused(400) },
  { name: 'an HTTP/1.0 create', steps: w(create({ line: 'POST /plants HTTP/1.0' })), mock: ok(1, true) },
  {
    name: 'CONNECT (no tunnels here)',
    steps: w('CONNECT example.test:443 HTTP/1.1\r\nHost: example.test:443\r\n\r\n'),
    mock: { statuses: [], closes: true, stored: 0 },
  },
  {
    name: 'an Upgrade nobody accepts',
    steps: w(get('/__mock/health', ['Connection: Upgrade', 'Upgrade: websocket'])),
    mock: { statuses: [200], closes: false, stored: 0 },
  },

  // Request targets (RFC 9112 §3.2).
  {
    name: 'an absolute-form target with a query',
    steps: w(create({ line: 'POST http://h.test/plants?a=1&b=%20 HTTP/1.1' })),
    mock: ok(),
  },
  {
    name: 'an absolute-form target with a port and userinfo',
    steps: w(create({ line: 'POST http://u:p@h.test:8080/plants?x HTTP/1.1' })),
    mock: ok(),
  },
  {
    name: 'an absolute-form target with an uppercase scheme',
    steps: w(create({ line: 'POST HTTP://H.TEST/plants HTTP/1.1' })),
    mock: ok(),
  },
  {
    name: 'an absolute-form https target',
    steps: w(create({ line: 'POST https://h.test/plants HTTP/1.1' })),
    mock: ok(),
  },
  {
    name: 'an absolute-form target without a path',
    steps: w(create({ line: 'POST http://h.test HTTP/1.1' })),
    mock: answered([404], 0),
  },
  {
    name: 'an absolute-form target with a query and no path',
    steps: w(create({ line: 'POST http://h.test?x=1 HTTP/1.1' })),
    mock: answered([404], 0),
  },
  {
    name: 'an authority-form target on POST',
    steps: w(create({ line: 'POST h.test:80 HTTP/1.1' })),
    mock: refused(400),
  },
  { name: 'an asterisk target on OPTIONS', steps: w(get('*', [], 'OPTIONS')), mock: answered([404], 0) },
  { name: 'an asterisk target on GET', steps: w(get('*')), mock: answered([404], 0) },
  {
    name: 'a fragment in the target',
    steps: w(create({ line: 'POST /plants#frag HTTP/1.1' })),
    mock: answered([404], 0),
  },
  {
    name: 'raw UTF-8 bytes in the path',
    steps: w(create({ line: 'POST /pl\xc3\xa4nts HTTP/1.1' })),
    mock: refused(400),
  },
  {
    name: 'a percent-encoded non-ASCII path',
    steps: w(create({ line: 'POST /pl%C3%A4nts HTTP/1.1' })),
    mock: answered([404], 0),
  },
  {
    name: 'an encoded slash after the path',
    steps: w(create({ line: 'POST /plants%2F HTTP/1.1' })),
    mock: answered([404], 0),
  },
  {
    name: 'an encoded dot-dot segment',
    steps: w(create({ line: 'POST /%2e%2e/plants HTTP/1.1' })),
    mock: answered([404], 0),
  },
  { name: 'a doubled leading slash', steps: w(create({ line: 'POST //plants HTTP/1.1' })), mock: answered([404], 0) },
  { name: 'a trailing slash', steps: w(create({ line: 'POST /plants/ HTTP/1.1' })), mock: answered([404], 0) },
  {
    name: 'a path parameter after a semicolon',
    steps: w(create({ line: 'POST /plants;v=1 HTTP/1.1' })),
    mock: answered([404], 0),
  },
  { name: 'an empty query', steps: w(create({ line: 'POST /plants? HTTP/1.1' })), mock: ok() },
  { name: 'stray percent signs in the query', steps: w(create({ line: 'POST /plants?q=%%zz HTTP/1.1' })), mock: ok() },
  { name: 'a query of 8 KB', steps: w(create({ line: `POST /plants?q=${'a'.repeat(8_000)} HTTP/1.1` })), mock: ok() },

  // Header fields (RFC 9112 §5, RFC 9110 §5.5).
  {
    name: 'whitespace before the first header line',
    steps: w(create({ headers: [' X-Lead: 1', ...HEADERS] })),
    mock: refused(400),
  },
  { name: 'a "(" in a field name', steps: w(create({ extra: ['X(a): 1'] })), mock: refused(400) },
  { name: 'an empty field name', steps: w(create({ extra: [': 1'] })), mock: refused(400) },
  { name: 'an HTTP/2 pseudo-header', steps: w(create({ extra: [':authority: h.test'] })), mock: refused(400) },
  { name: 'a NUL in a field name', steps: w(create({ extra: ['X-\x00A: 1'] })), mock: refused(400) },
  { name: 'a bare LF inside a value', steps: w(create({ extra: ['X-A: one\ntwo'] })), mock: refused(400) },
  { name: 'a bare CR in a field name', steps: w(create({ extra: ['X-A\r: 1'] })), mock: refused(400) },
  {
    name: 'an empty line injected into the head (the rest read as a second request)',
    steps: w(`POST /plants HTTP/1.1\r\n${HEADERS.join('\r\n')}\r\n\r\nContent-Length: 2\r\n\r\n{}`),
    mock: answered([400, 400], 0, true),
    reference: { statuses: [400], why: OWED },
  },
  {
    name: 'an obs-fold on Transfer-Encoding',
    steps: w(chunked({ te: ['Transfer-Encoding:', ' chunked'] })),
    mock: refused(400),
  },
  { name: 'obs-text bytes (0x80-0xff) in a value', steps: w(create({ extra: ['X-Latin: caf\xe9 \xff'] })), mock: ok() },
  { name: 'an empty value', steps: w(create({ extra: ['X-Empty:'] })), mock: ok() },
  { name: 'a tab inside a value', steps: w(create({ extra: ['X-Tab: a\tb'] })), mock: ok() },
  {
    name: 'a value of 15 KB (a head under 16 KiB)',
    steps: w(create({ extra: [`X-Big: ${'v'.repeat(15_000)}`] })),
    mock: ok(),
  },
  {
    name: 'a single value of 17 KB',
    steps: w(create({ extra: [`X-Big: ${'v'.repeat(17_000)}`] })),
    mock: refused(431),
  },
  {
    name: '300 small header lines',
    steps: w(create({ extra: Array.from({ length: 300 }, (_, i) => `a${i}: b`) })),
    mock: ok(),
  },
  {
    name: '1,000 small header lines (Node counts each line in its limit)',
    steps: w(create({ extra: Array.from({ length: 1000 }, (_, i) => `a${i}: b`) })),
    mock: refused(431),
  },
  {
    name: '2,500 tiny header lines',
    steps: w(create({ extra: Array.from({ length: 2500 }, () => 'x:y') })),
    mock: refused(431),
  },
  {
    name: 'no Host in HTTP/1.0',
    steps: w(create({ line: 'POST /plants HTTP/1.0', headers: HEADERS.slice(1) })),
    mock: ok(1, true),
  },
  {
    name: 'two Host fields',
    steps: w(create({ extra: ['Host: y'] })),
    mock: refused(400),
    reference: { statuses: [200], stored: 1, closes: false, why: ONE_HOST },
  },
  { name: 'an empty Host', steps: w(create({ headers: ['Host:', ...HEADERS.slice(1)] })), mock: ok() },
  { name: 'a Host with a path in it', steps: w(create({ headers: ['Host: a/b', ...HEADERS.slice(1)] })), mock: ok() },
  { name: 'Expect: 100-Continue in another case', steps: w(create({ extra: ['Expect: 100-Continue'] })), mock: ok() },
  {
    name: 'Expect: 100-continue on a GET without a body',
    steps: w(get('/__mock/health', ['Expect: 100-continue'])),
    mock: answered([200], 0),
  },
  { name: 'Connection: close', steps: w(create({ extra: ['Connection: close'] })), mock: ok(1, true) },
  {
    name: 'HTTP/1.0 with Connection: keep-alive',
    steps: w(create({ line: 'POST /plants HTTP/1.0', extra: ['Connection: keep-alive'] })),
    mock: ok(),
  },
  {
    name: 'Connection: close, keep-alive',
    steps: w(create({ extra: ['Connection: close, keep-alive'] })),
    mock: ok(1, true),
  },

  // Content-Length (RFC 9112 §6.3).
  {
    name: 'the same Content-Length twice',
    steps: w(
      create({ length: false, body: '{"id":5099999,"name":"a"}', extra: ['Content-Length: 25', 'Content-Length: 25'] }),
    ),
    mock: refused(400),
  },
  {
    name: 'the same Content-Length twice in one field',
    steps: w(create({ length: false, body: '{"id":5099998,"name":"a"}', extra: ['Content-Length: 25, 25'] })),
    mock: refused(400),
  },
  {
    name: 'a Content-Length with leading zeros',
    steps: w(create({ length: false, body: '{"id":5099997,"name":"a"}', extra: ['Content-Length: 00025'] })),
    mock: ok(),
  },
  {
    name: 'a Content-Length with a plus sign',
    steps: w(create({ length: false, extra: ['Content-Length: +25'] })),
    mock: refused(400),
  },
  {
    name: 'a Content-Length in hex',
    steps: w(create({ length: false, extra: ['Content-Length: 0x19'] })),
    mock: refused(400),
  },
  {
    name: 'a Content-Length with a decimal point',
    steps: w(create({ length: false, extra: ['Content-Length: 25.0'] })),
    mock: refused(400),
  },
  {
    name: 'a Content-Length of 20 digits',
    steps: w(create({ length: false, extra: ['Content-Length: 99999999999999999999'] })),
    mock: refused(400),
  },
  {
    name: 'a Content-Length past the body limit, body never sent',
    steps: w(create({ length: false, body: '', extra: ['Content-Length: 4097'] })),
    mock: refused(413),
    reference: { statuses: [408], why: `${BODY_LIMIT}; it waits for the body until the request deadline` },
  },
  {
    name: 'a Content-Length with trailing whitespace',
    steps: w(create({ length: false, body: '{"id":5099996,"name":"a"}', extra: ['Content-Length: 25 '] })),
    mock: ok(),
  },
  { name: 'Content-Length: 0 on a create', steps: w(create({ body: '' })), mock: answered([400], 0) },
  {
    name: 'a Content-Length shorter than the body (the rest read as a request)',
    steps: w(create({ length: false, extra: ['Content-Length: 10'] })),
    mock: answered([400, 400], 0, true),
    reference: { statuses: [400], why: OWED },
  },
  {
    name: 'a body on a GET',
    steps: w(message(['GET /__mock/health HTTP/1.1', 'Host: x', 'Content-Length: 5'], 'hello')),
    mock: answered([200], 0),
  },

  // Transfer-Encoding and smuggling (RFC 9112 §6.1, §6.3, §11.2).
  {
    name: 'Content-Length before Transfer-Encoding: chunked',
    steps: w(chunked({ extra: ['Content-Length: 4'] })),
    mock: refused(400),
  },
  {
    name: 'Transfer-Encoding: chunked with Content-Length: 0 and a request inside the chunks',
    steps: w(
      message(
        ['POST /plants HTTP/1.1', ...HEADERS, 'Content-Length: 0', 'Transfer-Encoding: chunked'],
        `2e\r\nGET /__mock/health HTTP/1.1\r\nHost: smuggled\r\n\r\n\r\n0\r\n\r\n`,
      ),
    ),
    mock: refused(400),
  },
  {
    name: 'a space before the colon of Transfer-Encoding',
    steps: w(chunked({ te: ['Transfer-Encoding : chunked'] })),
    mock: refused(400),
  },
  {
    name: 'Transfer-Encoding: xchunked',
    steps: w(chunked({ te: ['Transfer-Encoding: xchunked'] })),
    mock: refused(400),
  },
  {
    name: 'Transfer-Encoding: chunked, identity',
    steps: w(chunked({ te: ['Transfer-Encoding: chunked, identity'] })),
    mock: refused(400),
  },
  {
    name: 'Transfer-Encoding: identity with a Content-Length',
    steps: w(create({ extra: ['Transfer-Encoding: identity'] })),
    mock: refused(400),
  },
  {
    name: 'Transfer-Encoding: CHUNKED in capitals',
    steps: w(chunked({ te: ['Transfer-Encoding: CHUNKED'] })),
    mock: ok(),
  },
  { name: 'a tab before chunked', steps: w(chunked({ te: ['Transfer-Encoding:\tchunked'] })), mock: ok() },
  {
    name: 'two Transfer-Encoding: chunked fields',
    steps: w(chunked({ te: ['Transfer-Encoding: chunked', 'Transfer-Encoding: chunked'] })),
    mock: refused(400),
  },
  { name: 'chunked in HTTP/1.0', steps: w(chunked().replace('HTTP/1.1', 'HTTP/1.0')), mock: ok(1, true) },
  {
    name: 'Transfer-Encoding: gzip alone',
    steps: w(create({ length: false, extra: ['Transfer-Encoding: gzip'] })),
    mock: refused(400),
  },
  {
    name: 'Transfer-Encoding: gzip, chunked',
    steps: w(chunked({ te: ['Transfer-Encoding: gzip, chunked'] })),
    mock: refused(501),
    reference: { statuses: [200], stored: 1, closes: false, why: CODINGS },
  },
  {
    name: 'Transfer-Encoding: chunked, with a trailing comma',
    steps: w(chunked({ te: ['Transfer-Encoding: chunked,'] })),
    mock: refused(400),
  },

  // Chunks (RFC 9112 §7.1).
  {
    name: 'a chunk size of 18 hex digits',
    steps: w(chunked({ chunk: () => 'ffffffffffffffffff' })),
    mock: refused(400),
  },
  {
    name: 'a chunk size with leading zeros',
    steps: w(chunked({ chunk: (size) => `0000${size.toString(16)}` })),
    mock: ok(),
  },
  {
    name: 'a chunk size in uppercase hex',
    steps: w(chunked({ chunk: (size) => size.toString(16).toUpperCase() })),
    mock: ok(),
  },
  {
    name: 'a space after the chunk size',
    steps: w(chunked({ chunk: (size) => `${size.toString(16)} ` })),
    mock: refused(400),
  },
  {
    name: 'a negative chunk size',
    steps: w(chunked({ chunk: (size) => `-${size.toString(16)}` })),
    mock: refused(400),
  },
  {
    name: 'a chunk size with 0x',
    steps: w(chunked({ chunk: (size) => `0x${size.toString(16)}` })),
    mock: refused(400),
  },
  {
    name: 'a chunk extension without a value',
    steps: w(chunked({ chunk: (size) => `${size.toString(16)};ext` })),
    mock: ok(),
  },
  {
    name: 'a bare LF in a chunk extension',
    steps: w(chunked({ chunk: (size) => `${size.toString(16)};a\nb` })),
    mock: refused(400),
  },
  {
    name: 'chunk extensions of 20 KB',
    steps: w(chunked({ chunk: (size) => `${size.toString(16)};x=${'e'.repeat(20_000)}` })),
    mock: refused(400),
    reference: {
      statuses: [413],
      why: 'Node answers its chunk-extension limit with 413; the adapter calls every parse error a malformed request (both 4xx)',
    },
  },
  {
    name: 'chunk data without its CRLF',
    steps: w(message(['POST /plants HTTP/1.1', ...HEADERS, 'Transfer-Encoding: chunked'], '2\r\n{}0\r\n\r\n')),
    mock: refused(400),
  },
  { name: 'a trailer line without a colon', steps: w(chunked({ last: '0\r\nX-Trailer\r\n\r\n' })), mock: refused(400) },
  { name: 'no last chunk', steps: w(chunked({ last: '' })), mock: refused(408) },
  {
    name: 'a chunked body past the body limit',
    steps: w(chunked({ body: JSON.stringify({ id: 5_099_995, name: 'x'.repeat(5000) }) })),
    mock: refused(413),
    reference: { statuses: [200], stored: 1, closes: false, why: BODY_LIMIT },
  },

  // Slow clients, with deadlines of 300 ms (headers) and 500 ms (request).
  { name: 'half a request line, then nothing', steps: w('POST /pla'), mock: refused(408) },
  {
    name: 'a head without its empty line, then nothing',
    steps: w('POST /plants HTTP/1.1\r\nHost: x\r\n'),
    mock: refused(408),
  },
  {
    name: 'a header line every 20 ms, for ever',
    steps: [{ write: 'POST /plants HTTP/1.1\r\nHost: x\r\n' }, { trickle: 'X-Slow: 1\r\n', everyMs: 20 }],
    mock: refused(408),
  },
  { name: 'a method trickling in a byte every 20 ms', steps: [{ trickle: 'G', everyMs: 20 }], mock: refused(400) },
  {
    name: 'a target trickling in a byte every 20 ms',
    steps: [{ write: 'GET /' }, { trickle: 'a', everyMs: 20 }],
    mock: refused(408),
  },
  {
    name: 'a body byte every 20 ms against a Content-Length of 1,000',
    steps: [
      { write: message(['POST /plants HTTP/1.1', ...HEADERS, 'Content-Length: 1000']) },
      { trickle: ' ', everyMs: 20 },
    ],
    mock: refused(408),
  },
  { name: 'an empty line every 20 ms', steps: [{ trickle: '\r\n', everyMs: 20 }], mock: refused(408) },

  // HEAD, on every kind of path (RFC 9110 §9.3.2): no body bytes, the connection stays in step.
  { name: 'HEAD on the operation path', steps: w(get('/plants', [], 'HEAD')), head: [0], mock: answered([405], 0) },
  { name: 'HEAD on an admin path', steps: w(get('/__mock/health', [], 'HEAD')), head: [0], mock: answered([200], 0) },
  { name: 'HEAD on an unknown path', steps: w(get('/nowhere', [], 'HEAD')), head: [0], mock: answered([404], 0) },
  { name: 'HEAD with a query', steps: w(get('/plants?x=1', [], 'HEAD')), head: [0], mock: answered([405], 0) },
  {
    name: 'HEAD on an absolute-form target',
    steps: w(get('http://h.test/__mock/health', [], 'HEAD')),
    head: [0],
    mock: answered([200], 0),
  },
  { name: 'HEAD on an asterisk', steps: w(get('*', [], 'HEAD')), head: [0], mock: answered([404], 0) },
  {
    name: 'HEAD with a body',
    steps: w(message(['HEAD /__mock/health HTTP/1.1', 'Host: x', 'Content-Length: 5'], 'hello')),
    head: [0],
    mock: answered([200], 0),
  },
  {
    name: 'HEAD in HTTP/1.0',
    steps: w(message(['HEAD /__mock/health HTTP/1.0'])),
    head: [0],
    mock: answered([200], 0, true),
  },
  {
    name: 'three HEADs pipelined',
    steps: w(get('/plants', [], 'HEAD') + get('/__mock/health', [], 'HEAD') + get('/nowhere', [], 'HEAD')),
    head: [0, 1, 2],
    mock: answered([405, 200, 404], 0),
  },

  // Pipelined mixes (RFC 9112 §9.3.2): answers in order, a refusal ends the connection.
  {
    name: 'a create, a HEAD and a create',
    steps: w(create() + get('/plants', [], 'HEAD') + create()),
    head: [1],
    mock: answered([200, 405, 200], 2),
  },
  {
    name: 'a create, then a malformed request line',
    steps: w(create() + 'HELLO\r\n\r\n'),
    mock: answered([200, 400], 1, true),
    reference: { statuses: [400], why: OWED },
  },
  { name: 'an empty create, then a create', steps: w(create({ body: '' }) + create()), mock: answered([400, 200], 1) },
  { name: '50 creates in one write', steps: w(Array.from({ length: 50 }, () => create()).join('')), mock: ok(50) },
  {
    name: 'a create with Connection: close, then another',
    steps: w(create({ extra: ['Connection: close'] }) + create()),
    mock: ok(1, true),
    reference: {
      statuses: [400],
      why: `${OWED}; llhttp refuses data after Connection: close, which the mock's answer already said it would not read`,
    },
  },
  {
    name: 'a create and an Expect: 100-continue create',
    steps: w(create() + create({ extra: ['Expect: 100-continue'] })),
    mock: ok(2),
  },
  {
    name: 'a GET with a body, then a create',
    steps: w(message(['GET /__mock/health HTTP/1.1', 'Host: x', 'Content-Length: 5'], 'hello') + create()),
    mock: answered([200, 200], 1),
  },
  { name: 'a chunked create, then a create', steps: w(chunked() + create()), mock: ok(2) },
  {
    name: 'a create, then HTTP/2.0',
    steps: w(create() + create({ line: 'POST /plants HTTP/2.0' })),
    mock: answered([200, 505], 1, true),
    reference: { statuses: [200, 200], stored: 2, why: NODE_READS_HTTP2 },
  },
  {
    name: 'a create, then two Host fields',
    steps: w(create() + create({ extra: ['Host: y'] })),
    mock: answered([200, 400], 1, true),
    reference: { statuses: [200, 200], stored: 2, closes: false, why: ONE_HOST },
  },
  {
    name: 'a create written in two pieces, an answer between',
    steps: [{ write: create() }, { answers: 1 }, { write: create() }],
    mock: ok(2),
  },

  // Half-closes (RFC 9112 §9.6) and resets.
  { name: 'a create, then a half-close', steps: [...w(create()), { end: true }], mock: ok(1, true) },
  { name: 'two creates, then a half-close', steps: [...w(create() + create()), { end: true }], mock: ok(2, true) },
  {
    name: 'a half-close inside the head',
    steps: [...w('POST /plants HTTP/1.1\r\nHost: x\r\n'), { end: true }],
    mock: refused(400),
  },
  { name: 'a half-close inside the body', steps: [...w(create().slice(0, -5)), { end: true }], mock: refused(400) },
  { name: 'a half-close before any byte', steps: [{ end: true }], mock: { statuses: [], closes: true, stored: 0 } },
  {
    name: 'a HEAD, then a half-close',
    steps: [...w(get('/__mock/health', [], 'HEAD')), { end: true }],
    head: [0],
    mock: answered([200], 0, true),
  },
  {
    name: 'a reset inside the head',
    steps: [...w('POST /plants HTTP/1.1\r\nHost: x\r\n'), { reset: true }],
    mock: { statuses: [], closes: true, stored: 0 },
  },
  {
    name: 'a reset inside the body',
    steps: [...w(create().slice(0, -5)), { reset: true }],
    mock: { statuses: [], closes: true, stored: 0 },
  },
  {
    name: 'a reset inside a chunked body',
    steps: [...w(chunked({ last: '' })), { reset: true }],
    mock: { statuses: [], closes: true, stored: 0 },
  },
];

// ---------------------------------------------------------------------------------------------

let mock: MockServer;
let reference: ReferenceServer;
beforeAll(async () => {
  [mock, reference] = await Promise.all([
    startMockServer({ port: 0, maxBodyBytes: 4096, ...DEADLINES }),
    startReference(),
  ]);
});
afterAll(async () => {
  await Promise.all([mock.close(), reference.close()]);
});

const classOf = (statuses: number[]) => statuses.map((status) => `${Math.floor(status / 100)}xx`);

/** Both servers still serve a clean request on a new connection: the probe left nothing behind. */
async function stillServing(port: number) {
  const { statuses } = await runProbe(
    port,
    w('GET /__mock/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    1,
  );
  expect(statuses).toEqual([200]);
}

describe('hostile probes against the mock and bare node:http', () => {
  it('has about a hundred probes, each named once', () => {
    expect(probes.length).toBeGreaterThanOrEqual(100);
    expect(new Set(probes.map((p) => p.name)).size).toBe(probes.length);
  });

  it.each(probes.map((probe) => [probe.name, probe] as const))('%s', async (_, probe) => {
    const { why: _why, ...differences } = probe.reference ?? { why: '' };
    const expectedReference = { ...probe.mock, ...differences };
    const [beforeMock, beforeReference] = [mock.engine.store.size(), reference.stored()];
    const [onMock, onReference] = await Promise.all([
      runProbe(mock.port, probe.steps, probe.mock.statuses.length, { head: probe.head }),
      runProbe(reference.port, probe.steps, expectedReference.statuses.length, { head: probe.head }),
    ]);
    // The probe's connection is gone and a clean request answered: whatever it did is done.
    await Promise.all([stillServing(mock.port), stillServing(reference.port)]);
    expect({ statuses: onMock.statuses, closes: onMock.closed, stored: mock.engine.store.size() - beforeMock }).toEqual(
      probe.mock,
    );
    expect({
      statuses: classOf(onReference.statuses),
      closes: onReference.closed,
      stored: reference.stored() - beforeReference,
    }).toEqual({
      ...expectedReference,
      statuses: classOf(expectedReference.statuses),
    });
    // Every refusal the mock gives, its own or Node's, is in the document's error shape.
    onMock.statuses.forEach((status, i) => {
      if (status >= 400 && !probe.head?.includes(i))
        expect(JSON.parse(onMock.bodies[i])).toMatchObject({ error: status, message: expect.any(String) });
    });
  });
});

/**
 * A connection in the middle of a create: the server has read its head (it said 100 Continue), its body is one byte
 * short.
 */
async function busyConnection(port: number) {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  const text = create({ extra: ['Expect: 100-continue'] });
  const headEnd = text.indexOf('\r\n\r\n') + 4;
  let received = '';
  let wake: (() => void) | undefined;
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
    wake?.();
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(Buffer.from(text.slice(0, headEnd), 'latin1'));
  while (!received.includes('100 Continue')) await new Promise<void>((resolve) => (wake = resolve));
  socket.write(Buffer.from(text.slice(headEnd, -1), 'latin1'));
  return {
    socket,
    /** Sends the last byte; resolves with the final answer's status (0 if the server closed instead). */
    async finish(): Promise<number> {
      socket.end(text.slice(-1));
      await closed; // after a half-close the server answers, then closes
      return Number(/HTTP\/1\.1 ([2-5]\d\d)/.exec(received)?.[1] ?? 0);
    },
  };
}

/** Opens `count` connections at once and waits until the server has closed each; resolves with the bytes they got. */
function burst(port: number, count: number): Promise<number> {
  let bytes = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.on('data', (chunk) => (bytes += chunk.length));
      socket.on('error', () => {});
      socket.on('close', () => resolve());
    });
  return Promise.all(Array.from({ length: count }, one)).then(() => bytes);
}

const HEALTH = w('GET /__mock/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');

describe('a flood of connections against a small maxConnections', () => {
  // Long deadlines: the held connections must stay busy for the whole flood.
  const PATIENT = { headersTimeoutMs: 30_000, requestTimeoutMs: 30_000 };

  it.each([['the mock'], ['bare node:http']])(
    '%s closes 10,000 connections past the cap at once while every connection it holds is busy, and answers those',
    async (which) => {
      const cap = 8;
      const server =
        which === 'the mock'
          ? await startMockServer({ port: 0, maxConnections: cap, ...PATIENT })
          : await startReference({ maxConnections: cap, deadlines: PATIENT });
      try {
        const held = await Promise.all(Array.from({ length: cap }, () => busyConnection(server.port)));
        // 50 bursts of 200: none is idle, so every connection past the cap is closed without a byte.
        for (let round = 0; round < 50; round++) expect(await burst(server.port, 200)).toBe(0);
        expect(await Promise.all(held.map((c) => c.finish()))).toEqual(Array(cap).fill(200));
        // The slots are free again: a new client is served.
        expect((await runProbe(server.port, HEALTH, 1)).statuses).toEqual([200]);
      } finally {
        await server.close();
      }
    },
    60_000,
  );

  it.each([['the mock'], ['bare node:http']])(
    'an idle flood at the cap: %s',
    async (which) => {
      const cap = 8;
      const mockSide = which === 'the mock';
      const server = mockSide
        ? await startMockServer({ port: 0, maxConnections: cap, ...DEADLINES })
        : await startReference({ maxConnections: cap });
      const opened: Array<{ socket: Socket; closed: Promise<void> }> = [];
      /** Waits until every one of `connections` is closed; fails, saying how many are open, past `boundMs`. */
      const allClosed = (connections: typeof opened, boundMs: number) =>
        new Promise<void>((resolve, reject) => {
          const bound = setTimeout(
            () =>
              reject(
                new Error(
                  `${connections.filter((c) => !c.socket.destroyed).length} of ${connections.length} idle connections still open after ${boundMs} ms`,
                ),
              ),
            boundMs,
          );
          void Promise.all(connections.map((c) => c.closed)).then(() => {
            clearTimeout(bound);
            resolve();
          });
        });
      try {
        // The cap filled with connections that send nothing, then a flood of 200 more of them.
        const first = await Promise.all(Array.from({ length: cap }, () => idleConnection(server.port)));
        opened.push(...first);
        const flood = await Promise.all(Array.from({ length: 200 }, () => idleConnection(server.port)));
        opened.push(...flood);
        // A new client, answered within a second (doubled for a loaded machine) or shut out.
        const client = await runProbe(server.port, HEALTH, 1, { boundMs: 2_000 });
        if (mockSide) {
          // The oldest idle connections made room: the first ones went first, and every
          // connection that never sent a byte is closed by the first-byte deadline (here 300 ms).
          expect(client.statuses).toEqual([200]);
          await allClosed(opened, 5_000);
        } else {
          // Bare node:http drops every newcomer while idle connections hold the cap, and keeps those.
          expect(client).toMatchObject({ statuses: [], closed: true });
          await allClosed(flood, 5_000);
          expect(first.every((c) => !c.socket.destroyed)).toBe(true);
        }
      } finally {
        for (const c of opened) c.socket.destroy();
        await server.close();
      }
    },
    30_000,
  );
});

describe('clients that never read, against the mock and bare node:http', () => {
  // The mock's deadline for each: Node's header (300 ms) or request (500 ms) deadline, its check
  // interval (75 ms), the refusal's grace (300 ms: the header deadline, at most 1 s), two trickle
  // writes to see the close; doubled for a loaded machine.
  const BOUND_MS = 2 * (500 + 75 + 300 + 40);
  const cases = [
    { name: 'a slow-header trickle', head: 'POST /plants HTTP/1.1\r\nHost: x\r\n', piece: 'X-Slow: 1\r\n' },
    {
      name: 'a slow-body trickle',
      head: message(['POST /plants HTTP/1.1', ...HEADERS, 'Content-Length: 1000']),
      piece: ' ',
    },
    { name: 'a blank-line trickle', head: '', piece: '\r\n' },
    {
      name: 'a body past the limit, trickled',
      head: message(['POST /plants HTTP/1.1', ...HEADERS, 'Content-Length: 5000']),
      piece: 'x',
    },
    {
      name: 'a malformed head, then more bytes',
      head: 'GET /__mock/health HTTP/1.1\r\nX(a): 1\r\n',
      piece: 'X-More: 1\r\n',
    },
    {
      name: 'a head past 16 KiB, then more bytes',
      head: `GET /__mock/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'v'.repeat(17_000)}\r\n`,
      piece: 'v',
    },
  ];
  it.each(cases.flatMap((c) => [['the mock', c.name, c] as const, ['bare node:http', c.name, c] as const]))(
    '%s closes %s',
    async (which, _name, { head, piece }) => {
      const port = which === 'the mock' ? mock.port : reference.port;
      await neverReading(port, { head, piece, everyMs: 20, boundMs: BOUND_MS });
    },
  );

  it.each([['the mock'], ['bare node:http']])('%s keeps serving once they are gone', async (which) => {
    await stillServing(which === 'the mock' ? mock.port : reference.port);
  });
});
