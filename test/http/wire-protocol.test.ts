// Wire-level conformance of the mock's HTTP/1.1 transport, black box: exact bytes in over a raw
// socket, a stream of answers parsed back. Written against node:http first, held against an own
// node:net transport for a while, and now against the node:http adapter again (docs/design.md says
// why); where the adapter differs from bare node:http, the comment says how.
// RFC numbers are RFC 9112 (HTTP/1.1) and RFC 9110 (HTTP semantics).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { startMockServer, type MockServer } from '../../src/mock/server.ts';
import { tempDir } from '../helpers/temp-dir.ts';

// ---------------------------------------------------------------------------------------------
// A raw client: writes exact bytes, reads a sequence of answers, says whether the server closed.
// ---------------------------------------------------------------------------------------------

interface WireResponse {
  statusLine: string;
  status: number;
  /** Lowercased names; a repeated field is joined with ", ". */
  headers: Record<string, string>;
  /** Lowercased names in the order sent, repeats kept. */
  headerNames: string[];
  body: Buffer;
  /** The body as UTF-8. */
  text: string;
  /** The whole message as it came off the wire. */
  raw: Buffer;
}

interface ReadResult {
  responses: WireResponse[];
  /** The server ended or closed the connection (by the time the read returned). */
  closed: boolean;
}

const WAIT_MS = 3_000;

/** Parses one answer from the front of `buffer`; undefined while it is incomplete. */
function parseResponse(
  buffer: Buffer,
  bodiless: boolean,
  closed: boolean,
): { response: WireResponse; used: number } | undefined {
  const headEnd = buffer.indexOf('\r\n\r\n');
  if (headEnd === -1) return undefined;
  const [statusLine, ...lines] = buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
  const match = /^HTTP\/\d\.\d (\d{3}) /.exec(statusLine);
  if (!match) throw new Error(`not a status line: ${JSON.stringify(buffer.subarray(0, 200).toString('latin1'))}`);
  const status = Number(match[1]);
  const headers: Record<string, string> = {};
  const headerNames: string[] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`not a header line: ${JSON.stringify(line)}`);
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    headerNames.push(name);
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  const start = headEnd + 4;
  const done = (body: Buffer, end: number) => ({
    response: {
      statusLine,
      status,
      headers,
      headerNames,
      body,
      text: body.toString('utf8'),
      raw: buffer.subarray(0, end),
    },
    used: end,
  });
  if (bodiless || status < 200 || status === 204 || status === 304) return done(Buffer.alloc(0), start);
  // The mock writes every answer with a Content-Length (node:http framed its own 400 and 417 chunked).
  if (headers['transfer-encoding'] !== undefined)
    throw new Error(`unexpected Transfer-Encoding in an answer: ${headers['transfer-encoding']}`);
  if (headers['content-length'] !== undefined) {
    if (!/^\d+$/.test(headers['content-length']))
      throw new Error(`bad Content-Length in an answer: ${headers['content-length']}`);
    const end = start + Number(headers['content-length']);
    return buffer.length < end ? undefined : done(buffer.subarray(start, end), end);
  }
  return closed ? done(buffer.subarray(start), buffer.length) : undefined; // delimited by the close
}

/** Every connection a test opens, destroyed after it. */
const openWires = new Set<Wire>();

class Wire {
  readonly socket: Socket;
  /** Received and not yet parsed. */
  pending: Buffer = Buffer.alloc(0);
  closed = false;
  closedAt: number | undefined;
  error: Error | undefined;
  private wake: (() => void) | undefined;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setNoDelay(true); // a 1-byte write must leave as 1 byte
    socket.on('data', (chunk: Buffer) => {
      this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
      this.wake?.();
    });
    const onClosed = () => {
      if (!this.closed) this.closedAt = Date.now();
      this.closed = true;
      this.wake?.();
    };
    socket.on('end', onClosed);
    socket.on('close', onClosed);
    // ECONNRESET, EPIPE: the server is gone; the tests look at `closed` and the answers.
    socket.on('error', (error) => {
      this.error = error;
      onClosed();
    });
  }

  static open(port: number): Promise<Wire> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      const timer = setTimeout(() => socket.destroy(new Error('connect timed out')), WAIT_MS);
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        const wire = new Wire(socket);
        openWires.add(wire);
        resolve(wire);
      });
    });
  }

  write(bytes: string | Buffer): void {
    if (this.socket.writable) this.socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
  }

  /** Writes the pieces one by one, a pause between them: a number of ms, or one turn of the event loop. */
  async writePieces(pieces: (string | Buffer)[], gap: number | 'immediate'): Promise<void> {
    for (const [i, piece] of pieces.entries()) {
      if (i > 0)
        await (gap === 'immediate'
          ? new Promise((resolve) => setImmediate(resolve))
          : new Promise((resolve) => setTimeout(resolve, gap)));
      this.write(piece);
    }
  }

  /** Reads `count` answers, or fewer if the server closes first; `head` when they answer HEAD (no body). */
  async read(count = 1, options: { head?: boolean; timeoutMs?: number } = {}): Promise<ReadResult> {
    const timeoutMs = options.timeoutMs ?? WAIT_MS;
    const deadline = Date.now() + timeoutMs;
    const responses: WireResponse[] = [];
    for (;;) {
      while (responses.length < count) {
        const parsed = parseResponse(this.pending, options.head ?? false, this.closed);
        if (!parsed) break;
        responses.push(parsed.response);
        this.pending = this.pending.subarray(parsed.used);
      }
      if (responses.length === count || this.closed) return { responses, closed: this.closed };
      if (!(await this.activity(deadline))) {
        throw new Error(
          `no answer ${responses.length + 1} of ${count} within ${timeoutMs} ms; unparsed: ${JSON.stringify(this.pending.subarray(0, 300).toString('latin1'))}`,
        );
      }
    }
  }

  /**
   * True once the server has closed (or ended) the connection, false if it is still open after `timeoutMs` (a bound on
   * a failure, not a wait).
   */
  async waitForClose(timeoutMs = WAIT_MS): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) if (!(await this.activity(deadline))) return false;
    return true;
  }

  end(): void {
    this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
    openWires.delete(this);
  }

  private activity(deadline: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          this.wake = undefined;
          resolve(false);
        },
        Math.max(0, deadline - Date.now()),
      );
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve(true);
      };
    });
  }
}

/** Connects, writes the bytes (in pieces if given an array), reads `count` answers. */
async function exchange(
  bytes: string | Buffer | (string | Buffer)[],
  count = 1,
  options: { gap?: number | 'immediate'; head?: boolean; timeoutMs?: number } = {},
) {
  const wire = await Wire.open(server.port);
  if (Array.isArray(bytes)) await wire.writePieces(bytes, options.gap ?? 'immediate');
  else wire.write(bytes);
  const result = await wire.read(count, options);
  return { ...result, wire };
}

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/**
 * A message from its lines (request line, then header lines) and a body; the head is latin1, so any byte can be
 * written.
 */
const message = (lines: string[], body: string | Buffer = ''): Buffer =>
  Buffer.concat([
    Buffer.from(lines.map((line) => `${line}\r\n`).join('') + '\r\n', 'latin1'),
    typeof body === 'string' ? Buffer.from(body) : body,
  ]);

let nextId = 4_200_000;
/** A valid NewPlant with an id no other test uses (a repeated id is refused). */
const plant = (name = 'Fern') => JSON.stringify({ id: nextId++, name });

const CREATE_HEADERS = ['Host: x', 'Authorization: Bearer t', 'Content-Type: application/json'];

/** A create: a valid one unless told otherwise; Content-Length is added unless `length` is false. */
function create(
  body = plant(),
  options: { line?: string; headers?: string[]; extra?: string[]; length?: boolean } = {},
): Buffer {
  const { line = 'POST /plants HTTP/1.1', headers = CREATE_HEADERS, extra = [], length = true } = options;
  return message([line, ...headers, ...extra, ...(length ? [`Content-Length: ${Buffer.byteLength(body)}`] : [])], body);
}

/** A chunked create: the body cut in pieces, each chunk written as given by `chunkLine`, then `last`. */
function chunkedCreate(
  body: string,
  options: { extra?: string[]; pieces?: number; chunkLine?: (size: number) => string; last?: string } = {},
): Buffer {
  const { extra = [], pieces = 3, chunkLine = (size) => size.toString(16), last = '0\r\n\r\n' } = options;
  const step = Math.ceil(body.length / pieces);
  let chunks = '';
  for (let i = 0; i < body.length; i += step) {
    const piece = body.slice(i, i + step);
    chunks += `${chunkLine(Buffer.byteLength(piece))}\r\n${piece}\r\n`;
  }
  return message(['POST /plants HTTP/1.1', ...CREATE_HEADERS, ...extra, 'Transfer-Encoding: chunked'], chunks + last);
}

const count = () => server.engine.store.size();
const errorShaped = (response: WireResponse) =>
  expect(JSON.parse(response.text)).toEqual({ error: response.status, message: expect.any(String) });

/** Asks `port` for its health `times` times in a row on one connection: each answer is a turn of the server's loop. */
async function roundTrips(port: number, times: number): Promise<void> {
  const wire = await Wire.open(port);
  for (let i = 0; i < times; i++) {
    wire.write('GET /__mock/health HTTP/1.1\r\nHost: x\r\n\r\n');
    expect((await wire.read(1)).responses[0].status).toBe(200);
  }
  wire.destroy();
}

/**
 * Waits until `value` holds still across 20 round trips of another client to `port`, and returns it:
 * quiescence counted in the server's own turns, not in guessed milliseconds.
 */
async function settled(port: number, value: () => number): Promise<number> {
  for (let round = 0; round < 100; round++) {
    const before = value();
    await roundTrips(port, 20);
    if (value() === before) return before;
  }
  throw new Error(`still changing after 100 rounds: ${value()}`);
}

// ---------------------------------------------------------------------------------------------

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, maxBodyBytes: 4096, headersTimeoutMs: 600, requestTimeoutMs: 800 });
});
afterAll(() => server.close());
afterEach(() => {
  for (const wire of openWires) wire.destroy();
});

describe('message framing (RFC 9112 §6, §7)', () => {
  it('answers three requests written in one write, in order (pipelining, §9.3.2)', async () => {
    const bytes = Buffer.concat([
      create(plant('Piped')),
      create('{"id":"x","name":"a"}'),
      create(plant(), { headers: ['Host: x', 'Content-Type: application/json'] }),
    ]);
    const { responses, closed } = await exchange(bytes, 3);
    expect(responses.map((r) => r.status)).toEqual([200, 400, 401]);
    expect(responses[0].text).toBe('{"name":"Piped"}');
    responses.slice(1).forEach(errorShaped);
    expect(closed).toBe(false);
  });

  it.each([
    [
      'one byte per write, a turn of the event loop between',
      (bytes: Buffer) => [...bytes].map((byte) => Buffer.of(byte)),
      'immediate' as const,
    ],
    [
      'pieces cut between CR and LF, inside a name and inside the body, 5 ms apart',
      (bytes: Buffer) => {
        const text = bytes.toString('latin1');
        const cuts = [
          text.indexOf('\r\n') + 1,
          text.indexOf('Author') + 3,
          text.indexOf('\r\n\r\n') + 2,
          text.indexOf('\r\n\r\n') + 4,
          text.length - 5,
        ];
        return [0, ...cuts].map((start, i) => bytes.subarray(start, cuts[i] ?? bytes.length));
      },
      5,
    ],
  ])('reads a request that arrives in many writes: %s', async (_, cut, gap) => {
    const { responses } = await exchange(cut(create(plant('Slowly'))), 1, { gap });
    expect(responses[0].status).toBe(200);
    expect(responses[0].text).toBe('{"name":"Slowly"}');
  });

  // §6.3: a message with both is a smuggling risk; the server MAY reject it, and llhttp (strict) does.
  it('refuses Transfer-Encoding together with Content-Length with 400 and stores nothing', async () => {
    const before = count();
    const body = plant();
    const chunked = chunkedCreate(body, { extra: [`Content-Length: ${body.length}`] });
    const { responses } = await exchange(chunked);
    expect(responses[0].status).toBe(400);
    errorShaped(responses[0]);
    expect(count()).toBe(before);
  });

  // §6.3 item 5: an invalid Content-Length is unrecoverable; the server MUST answer 400.
  it.each([
    ['two different values in two fields', ['Content-Length: 5', 'Content-Length: 6']],
    ['two different values in one field', ['Content-Length: 5, 6']],
    ['a word', ['Content-Length: abc']],
    ['a negative number', ['Content-Length: -1']],
    ['two numbers with a space between', ['Content-Length: 1 2']],
  ])('refuses a Content-Length that is %s with 400 and stores nothing', async (_, lengths) => {
    const before = count();
    const { responses } = await exchange(create(plant(), { extra: lengths, length: false }));
    expect(responses[0].status).toBe(400);
    errorShaped(responses[0]);
    expect(count()).toBe(before);
  });

  // §7.1.1 chunk extensions and §7.1.2 trailer fields: a recipient MUST ignore unknown extensions and MAY discard
  // trailers.
  it.each([
    ['a chunk extension on every chunk', { chunkLine: (size: number) => `${size.toString(16)};foo=bar` }],
    ['a quoted chunk extension', { chunkLine: (size: number) => `${size.toString(16)};foo="b a r"` }],
    ['a trailer field after the last chunk', { last: '0\r\nX-Trailer: yes\r\n\r\n' }],
  ])('reads a chunked body with %s', async (_, options) => {
    const { responses } = await exchange(chunkedCreate(plant('Chunky'), options));
    expect(responses[0].status).toBe(200);
    expect(responses[0].text).toBe('{"name":"Chunky"}');
  });

  it.each([
    ['a chunk size that is not hex', 'zz\r\n{"id":1}\r\n0\r\n\r\n'],
    ['a chunk whose data is longer than its size', '2\r\n{"id":1}\r\n0\r\n\r\n'],
  ])('refuses %s with 400', async (_, chunks) => {
    const before = count();
    const { responses } = await exchange(
      message(['POST /plants HTTP/1.1', ...CREATE_HEADERS, 'Transfer-Encoding: chunked'], chunks),
    );
    expect(responses[0].status).toBe(400);
    errorShaped(responses[0]);
    expect(count()).toBe(before);
  });

  // §2.2: a server SHOULD ignore at least one empty line received before the request line.
  it('ignores empty lines before the request line', async () => {
    const { responses } = await exchange(Buffer.concat([Buffer.from('\r\n\r\n'), create(plant('Late'))]));
    expect(responses[0].status).toBe(200);
    expect(responses[0].text).toBe('{"name":"Late"}');
  });

  // §6.1 / RFC 9110 §15.6.2: a server that receives a transfer coding it does not understand SHOULD
  // answer 501 (node:http read the chunks and ignored the gzip coding: 200, stored).
  // Transfer-Encoding: gzip alone, not ending in chunked, is 400.
  it('answers 501 to Transfer-Encoding: gzip, chunked and stores nothing', async () => {
    const before = count();
    const body = plant();
    const { responses } = await exchange(
      message(
        ['POST /plants HTTP/1.1', ...CREATE_HEADERS, 'Transfer-Encoding: gzip, chunked'],
        `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`,
      ),
    );
    expect(responses[0].status).toBe(501);
    errorShaped(responses[0]);
    expect(count()).toBe(before);
  });
});

describe('request line and target (RFC 9112 §3)', () => {
  // §3.2.2: a server MUST accept the absolute form; it routes on the path.
  it('routes an absolute-form target on its path', async () => {
    const { responses } = await exchange(create(plant('Abs'), { line: 'POST http://elsewhere.test/plants HTTP/1.1' }));
    expect(responses[0].status).toBe(200);
    expect(responses[0].text).toBe('{"name":"Abs"}');
  });

  it('routes a target with a query string on its path', async () => {
    const { responses } = await exchange(create(plant('Query'), { line: 'POST /plants?x=1 HTTP/1.1' }));
    expect(responses[0].status).toBe(200);
    expect(responses[0].text).toBe('{"name":"Query"}');
  });

  // A difference kept on purpose: llhttp refuses a method outside its list before any routing, so
  // the answer is an Error-shaped 400, not the 405 a method it knows gets (the own transport gave
  // 405; it was not worth owning a protocol for).
  it('answers a method llhttp does not know with an Error-shaped 400 and closes', async () => {
    const { responses, wire } = await exchange(message(['BREW /plants HTTP/1.1', 'Host: x']));
    expect(responses[0].status).toBe(400);
    errorShaped(responses[0]);
    expect(await wire.waitForClose()).toBe(true);
  });

  it('answers a method the document does not use, that llhttp knows, with 405 and an Allow naming POST', async () => {
    const { responses } = await exchange(message(['PROPFIND /plants HTTP/1.1', 'Host: x']));
    expect(responses[0].status).toBe(405);
    expect(responses[0].headers.allow).toMatch(/\bPOST\b/);
    errorShaped(responses[0]);
  });

  // RFC 9110 §15.5.6: a 405 MUST carry Allow.
  it('answers a known method the path does not have with 405 and an Allow naming POST', async () => {
    const { responses } = await exchange(create(plant(), { line: 'PUT /plants HTTP/1.1' }));
    expect(responses[0].status).toBe(405);
    expect(responses[0].headers.allow).toMatch(/\bPOST\b/);
    errorShaped(responses[0]);
  });

  // A difference kept on purpose: RFC 9110 §6.2 says a higher minor version SHOULD be read as the
  // highest known one; llhttp refuses HTTP/1.2, and the mock says so in its error shape.
  it('answers HTTP/1.2 with an Error-shaped 505 and stores nothing', async () => {
    const before = count();
    const { responses } = await exchange(create(plant('Minor'), { line: 'POST /plants HTTP/1.2' }));
    expect(responses[0].status).toBe(505);
    errorShaped(responses[0]);
    expect(count()).toBe(before);
  });

  // RFC 9110 §15.6.6: 505 for a major version the server does not support (node:http took
  // "HTTP/2.0" in a request line as a request: 200, stored; "HTTP/3.0" got 400).
  it.each([['HTTP/2.0'], ['HTTP/3.0'], ['HTTP/0.9']])(
    'answers the version %s with an Error-shaped 505 and stores nothing',
    async (version) => {
      const before = count();
      const { responses } = await exchange(create(plant(), { line: `POST /plants ${version}` }));
      expect(responses[0].status).toBe(505);
      errorShaped(responses[0]);
      expect(count()).toBe(before);
    },
  );
});

describe('header fields (RFC 9112 §5, RFC 9110 §5)', () => {
  // §3.2: a server MUST answer 400 to an HTTP/1.1 request without Host.
  it('answers an HTTP/1.1 request without Host with 400, closes, and stores nothing', async () => {
    const before = count();
    const { responses, wire } = await exchange(
      create(plant(), { headers: ['Authorization: Bearer t', 'Content-Type: application/json'] }),
    );
    expect(responses[0].status).toBe(400);
    expect(responses[0].headers.connection).toBe('close');
    expect(await wire.waitForClose()).toBe(true);
    expect(count()).toBe(before);
  });

  // node:http sent both itself, with Transfer-Encoding: chunked and an empty body.
  it.each([
    ['400 to a request without Host', ['Authorization: Bearer t', 'Content-Type: application/json'], 400],
    ['417 to an unknown expectation', [...CREATE_HEADERS, 'Expect: something-else'], 417],
  ])('answers %s with an Error-shaped body and a Content-Length', async (_, headers, status) => {
    const { responses } = await exchange(create(plant(), { headers }));
    expect(responses[0].status).toBe(status);
    errorShaped(responses[0]);
    expect(responses[0].headers['content-length']).toBe(String(responses[0].body.length));
  });

  // §3.2: a server MUST answer 400 to a request with more than one Host field (node:http kept the first: 200).
  it('answers a request with two Host fields with 400', async () => {
    const before = count();
    const { responses } = await exchange(create(plant(), { extra: ['Host: y'] }));
    expect(responses[0].status).toBe(400);
    errorShaped(responses[0]);
    expect(count()).toBe(before);
  });

  // RFC 9110 §10.1.1: the server sends 100 (Continue) and then reads the body.
  it('sends exactly "HTTP/1.1 100 Continue" before the body of an Expect: 100-continue request, then answers it', async () => {
    const body = plant('Patient');
    const head = create(body, { extra: ['Expect: 100-continue'] }).subarray(0, -Buffer.byteLength(body));
    const wire = await Wire.open(server.port);
    wire.write(head);
    const interim = await wire.read(1);
    expect(interim.responses[0].raw.toString('latin1')).toBe('HTTP/1.1 100 Continue\r\n\r\n');
    expect(wire.pending).toHaveLength(0);
    wire.write(body);
    const final = await wire.read(1);
    expect(final.responses[0].status).toBe(200);
    expect(final.responses[0].text).toBe('{"name":"Patient"}');
  });

  // RFC 9110 §10.1.1: a server that receives an expectation it does not support MAY answer 417;
  // the body it did not want is then read and dropped (or the connection closed), never taken
  // for a next request.
  it('answers an unknown expectation with 417, stores nothing, and skips the refused body', async () => {
    const before = count();
    const { responses, wire } = await exchange(create(plant(), { extra: ['Expect: something-else'] }));
    expect(responses[0].status).toBe(417);
    expect(count()).toBe(before);
    // Closing is allowed too, and is what the adapter does: it says so, so the body is never taken for a request.
    expect(responses[0].headers.connection).toBe('close');
    expect(await wire.waitForClose()).toBe(true);
    expect(wire.pending).toHaveLength(0);
  });

  it.each([
    // §5.1: no whitespace is allowed between the field name and the colon; a server MUST answer 400.
    ['whitespace before the colon', ['Host: x', 'Authorization: Bearer t', 'Content-Type : application/json']],
    // §5.2: obs-fold; a server MUST answer 400 or replace the fold with spaces.
    ['an obs-fold continuation line', ['Host: x', 'Authorization: Bearer t', 'Content-Type:', ' application/json']],
    // RFC 9110 §5.5: NUL, CR and LF in a value are dangerous; a recipient MUST reject (or replace them).
    ['a NUL in a value', ['Host: x', 'Authorization: Bearer t', 'Content-Type: application/json', 'X-Thing: a\x00b']],
    ['a bare CR in a value', ['Host: x', 'Authorization: Bearer t', 'Content-Type: application/json', 'X-Thing: a\rb']],
    [
      'a control byte (0x01) in a value',
      ['Host: x', 'Authorization: Bearer t', 'Content-Type: application/json', 'X-Thing: a\x01b'],
    ],
    [
      'DEL (0x7f) in a value',
      ['Host: x', 'Authorization: Bearer t', 'Content-Type: application/json', 'X-Thing: a\x7fb'],
    ],
    ['a space inside a field name', ['Host: x', 'Authorization: Bearer t', 'Content Type: application/json']],
    [
      'a header line without a colon',
      ['Host: x', 'Authorization: Bearer t', 'Content-Type: application/json', 'X-Thing'],
    ],
  ])('refuses %s with 400 and stores nothing', async (_, headers) => {
    const before = count();
    const { responses } = await exchange(create(plant(), { headers }));
    expect(responses[0].status).toBe(400);
    errorShaped(responses[0]);
    expect(count()).toBe(before);
  });

  // §2.2: a recipient MAY accept a bare LF as a line terminator; llhttp in strict mode does not.
  it.each([
    ['after a header line', (bytes: Buffer) => bytes.toString('latin1').replace('Host: x\r\n', 'Host: x\n')],
    ['after the request line', (bytes: Buffer) => bytes.toString('latin1').replace('HTTP/1.1\r\n', 'HTTP/1.1\n')],
    ['as the empty line ending the head', (bytes: Buffer) => bytes.toString('latin1').replace('\r\n\r\n', '\r\n\n')],
  ])('refuses a bare LF %s with 400', async (_, edit) => {
    const before = count();
    const { responses } = await exchange(edit(create(plant())));
    expect(responses[0].status).toBe(400);
    errorShaped(responses[0]);
    expect(count()).toBe(before);
  });

  // §5: field names are case-insensitive.
  it('accepts field names in any case', async () => {
    const { responses } = await exchange(
      create(plant('Cased'), { headers: ['HOST: x', 'AUTHORIZATION: Bearer t', 'content-TYPE: application/json'] }),
    );
    expect(responses[0].status).toBe(200);
    expect(responses[0].text).toBe('{"name":"Cased"}');
  });

  it('is not put off by a repeated ordinary field', async () => {
    const { responses } = await exchange(create(plant('Twice'), { extra: ['X-Thing: a', 'X-Thing: b'] }));
    expect(responses[0].status).toBe(200);
    expect(responses[0].text).toBe('{"name":"Twice"}');
  });

  it('answers two Authorization fields with 401 and stores nothing', async () => {
    const before = count();
    const { responses } = await exchange(create(plant(), { extra: ['Authorization: Bearer u'] }));
    expect(responses[0].status).toBe(401);
    errorShaped(responses[0]);
    expect(count()).toBe(before);
  });
});

describe('response head (RFC 9112 §4, §6.2; RFC 9110 §6.6.1)', () => {
  it('starts with "HTTP/1.1 200 OK" and carries Date, Content-Type and the body\'s UTF-8 byte length', async () => {
    const name = 'Fërn 🌿';
    const { responses } = await exchange(create(plant(name)));
    const [answer] = responses;
    expect(answer.statusLine).toBe('HTTP/1.1 200 OK');
    expect(answer.headers.date).toMatch(
      /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/,
    );
    expect(Math.abs(Date.parse(answer.headers.date) - Date.now())).toBeLessThan(5_000);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.text).toBe(JSON.stringify({ name }));
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.text));
    expect(Number(answer.headers['content-length'])).toBeGreaterThan(answer.text.length); // bytes, not UTF-16 units
  });

  it('sends each header field once', async () => {
    const { responses } = await exchange(create(plant()));
    const names = responses[0].headerNames;
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('limits and timeouts', () => {
  // RFC 9110 §15.5.14: 413; closing after it stops the client from sending the rest as a next request.
  it.each([
    ['announced by Content-Length', () => create(`{"id":1,"name":"${'x'.repeat(5000)}"}`)],
    ['arriving chunked', () => chunkedCreate(`{"id":1,"name":"${'x'.repeat(5000)}"}`, { pieces: 4 })],
  ])(
    'answers a body over maxBodyBytes %s with an Error-shaped 413, Connection: close, and closes',
    async (_, bytes) => {
      const before = count();
      const { responses, wire } = await exchange(bytes());
      expect(responses[0].status).toBe(413);
      errorShaped(responses[0]);
      expect(responses[0].headers.connection).toBe('close');
      expect(await wire.waitForClose()).toBe(true);
      expect(count()).toBe(before);
    },
  );

  // RFC 6585 §5: 431 when the header section is too large (Node's limit is 16 KiB).
  it('answers 3,000 header lines with 431', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `X-H${i}: ${'v'.repeat(10)}`);
    const { responses, wire } = await exchange(message(['GET /plants HTTP/1.1', 'Host: x', ...lines]));
    expect(responses[0].status).toBe(431);
    errorShaped(responses[0]);
    expect(await wire.waitForClose()).toBe(true);
  });

  // §3: a server should answer 414 to a target longer than it will parse; the request line counts
  // in the same 16 KiB as the fields (as in node:http), so it is 431.
  it('answers a request line of 20 KB with 431', async () => {
    const { responses, wire } = await exchange(
      create(plant(), { line: `POST /plants?q=${'a'.repeat(20_000)} HTTP/1.1` }),
    );
    expect(responses[0].status).toBe(431);
    errorShaped(responses[0]);
    expect(await wire.waitForClose()).toBe(true);
  });

  it('cuts off headers that do not arrive within headersTimeoutMs with 408 and closes', async () => {
    const started = Date.now();
    const { responses, wire } = await exchange('POST /plants HTTP/1.1\r\nHost: x\r\n');
    expect(responses[0].status).toBe(408);
    errorShaped(responses[0]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(await wire.waitForClose()).toBe(true);
  });

  it('answers a Content-Length longer than the body with 408 after requestTimeoutMs, closes, and stores nothing', async () => {
    const before = count();
    const started = Date.now();
    const { responses, wire } = await exchange(create(plant(), { extra: ['Content-Length: 100'], length: false }));
    expect(responses[0].status).toBe(408);
    errorShaped(responses[0]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(750);
    expect(await wire.waitForClose()).toBe(true);
    expect(count()).toBe(before);
  });

  // The server stops reading a connection whose answers are not being read, so a client
  // that floods without reading costs bounded memory and cannot starve the others. The answers are
  // ~2 KB each so that they overflow the kernel's socket buffers (~4 MB here): 20,000 small
  // answers (~3.6 MB) fit in them, and a server with no backpressure could not be told apart.
  it('stops reading a pipelining client that never reads its answers, and serves the next client', async () => {
    const before = count();
    const flood = 10_000;
    // Made before the connection opens: a connection that sends nothing for the header deadline is closed.
    const requests = Buffer.concat(Array.from({ length: flood }, () => create(plant('x'.repeat(2000)))));
    const wire = await Wire.open(server.port);
    wire.socket.pause(); // never read: the answers fill the kernel's buffers, then the server must stop
    wire.write(requests);
    // Wait until the server has stopped taking requests (the count holds across another client's round trips).
    const processed = (await settled(server.port, count)) - before;
    wire.destroy();
    expect(processed).toBeGreaterThan(0);
    expect(processed).toBeLessThan(flood / 2); // it stopped reading what it could not answer
    const { responses } = await exchange(create(plant('After')));
    expect(responses[0].status).toBe(200);
    expect(responses[0].text).toBe('{"name":"After"}');
  });
});

describe('connection management (RFC 9112 §9)', () => {
  // §9.3: HTTP/1.1 connections are persistent by default.
  it('keeps the connection open across two creates and says so with Connection and Keep-Alive', async () => {
    const wire = await Wire.open(server.port);
    for (const name of ['One', 'Two']) {
      wire.write(create(plant(name)));
      const { responses, closed } = await wire.read(1);
      expect(responses[0].status).toBe(200);
      expect(responses[0].text).toBe(JSON.stringify({ name }));
      expect(responses[0].headers.connection).toBe('keep-alive');
      expect(responses[0].headers['keep-alive']).toBe('timeout=5');
      expect(closed).toBe(false);
    }
  });

  // §9.6: after a request with Connection: close the server closes after its answer.
  it('answers a request with Connection: close with Connection: close, then closes', async () => {
    const { responses, wire } = await exchange(create(plant(), { extra: ['Connection: close'] }));
    expect(responses[0].status).toBe(200);
    expect(responses[0].headers.connection).toBe('close');
    expect(await wire.waitForClose()).toBe(true);
  });

  // §9.3: an HTTP/1.0 connection persists only if the client asked with Connection: keep-alive.
  it('answers an HTTP/1.0 request and then closes', async () => {
    const { responses, wire } = await exchange(create(plant(), { line: 'POST /plants HTTP/1.0' }));
    expect(responses[0].statusLine).toBe('HTTP/1.1 200 OK'); // §2.3: the server sends its own version
    expect(responses[0].headers.connection).toBe('close');
    expect(await wire.waitForClose()).toBe(true);
  });

  it('keeps an HTTP/1.0 connection with Connection: keep-alive open for a next request', async () => {
    const { responses, wire } = await exchange(
      create(plant(), { line: 'POST /plants HTTP/1.0', extra: ['Connection: keep-alive'] }),
    );
    expect(responses[0].status).toBe(200);
    expect(responses[0].headers.connection).toBe('keep-alive');
    wire.write(create(plant('Again'), { line: 'POST /plants HTTP/1.0', extra: ['Connection: keep-alive'] }));
    const next = await wire.read(1);
    expect(next.responses[0].text).toBe('{"name":"Again"}');
  });

  // RFC 9110 §9.3.2: HEAD gets the head GET would, no body; the connection must stay in step.
  it('answers HEAD with 405 and no body bytes, and the connection stays usable', async () => {
    const wire = await Wire.open(server.port);
    wire.write(message(['HEAD /plants HTTP/1.1', 'Host: x']));
    const { responses } = await wire.read(1, { head: true });
    expect(responses[0].status).toBe(405);
    expect(responses[0].headers.allow).toMatch(/\bPOST\b/);
    // No body followed the head: the next bytes on the wire are the next answer's status line.
    wire.write(create(plant('AfterHead')));
    const next = await wire.read(1);
    expect(wire.pending).toHaveLength(0);
    expect(next.responses[0].status).toBe(200);
    expect(next.responses[0].text).toBe('{"name":"AfterHead"}');
  });

  it('answers a CORS preflight with 204, the access-control fields and no body, and the connection stays usable', async () => {
    const wire = await Wire.open(server.port);
    wire.write(
      message([
        'OPTIONS /plants HTTP/1.1',
        'Host: x',
        'Origin: http://localhost:5173',
        'Access-Control-Request-Method: POST',
        'Access-Control-Request-Headers: authorization,content-type',
      ]),
    );
    const { responses } = await wire.read(1);
    const [preflight] = responses;
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(preflight.headers['access-control-allow-methods']).toMatch(/\bPOST\b/);
    expect(preflight.headers['access-control-allow-headers']).toBe('authorization,content-type');
    expect(preflight.headers['content-length']).toBeUndefined(); // RFC 9110 §8.6: never in a 204
    expect(preflight.body).toHaveLength(0);
    // Nothing followed: the next bytes on the wire are the next answer's status line.
    wire.write(create(plant('AfterPreflight')));
    const next = await wire.read(1);
    expect(wire.pending).toHaveLength(0);
    expect(next.responses[0].status).toBe(200);
    expect(next.responses[0].text).toBe('{"name":"AfterPreflight"}');
  });

  it('answers a body cut short by the client closing its side with 400, and keeps serving', async () => {
    const before = count();
    const full = create(plant());
    const wire = await Wire.open(server.port);
    wire.write(full.subarray(0, full.length - 10));
    wire.end();
    const { responses } = await wire.read(1);
    expect(responses[0].status).toBe(400);
    errorShaped(responses[0]);
    expect(await wire.waitForClose()).toBe(true);
    expect(count()).toBe(before);
    const after = await exchange(create(plant('Fresh')));
    expect(after.responses[0].status).toBe(200);
  });

  // §9.6: a half-close from the client still lets the server send its answer.
  it('still answers a request whose client half-closes right after writing it', async () => {
    const wire = await Wire.open(server.port);
    wire.write(create(plant('HalfClosed')));
    wire.end();
    const { responses } = await wire.read(1);
    expect(responses[0].status).toBe(200);
    expect(responses[0].text).toBe('{"name":"HalfClosed"}');
    expect(await wire.waitForClose()).toBe(true);
  });

  it('answers 2,000 pipelined creates written at once, all 200 and in order', async () => {
    const before = count();
    const names = Array.from({ length: 2000 }, (_, i) => `p${i}`);
    const wire = await Wire.open(server.port);
    wire.write(Buffer.concat(names.map((name) => create(plant(name)))));
    const { responses, closed } = await wire.read(2000, { timeoutMs: 10_000 });
    expect(responses).toHaveLength(2000);
    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect(responses.map((r) => JSON.parse(r.text).name)).toEqual(names);
    expect(closed).toBe(false);
    expect(count() - before).toBe(2000);
  });

  // Closed after 5 s, as advertised by Keep-Alive: timeout=5 (node:http v24 added a 1000 ms
  // keepAliveTimeoutBuffer: ~6.0 s). Only the lower bound is checked: a busy machine makes timers
  // late, never early.
  it('closes a keep-alive connection left idle for at least 5 s', async () => {
    const wire = await Wire.open(server.port);
    wire.write(create(plant()));
    await wire.read(1);
    const idleFrom = Date.now();
    expect(await wire.waitForClose(15_000)).toBe(true);
    expect(wire.closedAt! - idleFrom).toBeGreaterThanOrEqual(4_500);
  }, 20_000);

  it('closes an idle keep-alive connection at once when the server closes, and the close resolves promptly', async () => {
    const own = await startMockServer({ port: 0 });
    try {
      // A control connection, idle since before the other, so its keep-alive timeout comes first:
      // still open once close() has resolved and the other has closed, so neither waited for a timeout.
      const control = await Wire.open(server.port);
      control.write(create(plant()));
      await control.read(1);
      const wire = await Wire.open(own.port);
      wire.write(create(plant()));
      expect((await wire.read(1)).responses[0].status).toBe(200);
      await own.close();
      expect(await wire.waitForClose()).toBe(true);
      expect(control.closed).toBe(false);
    } finally {
      await own.close();
    }
  });
});

/** Seeds `batches` × ~0.9 MB of plants (90 with 10,000-character names each) from `firstId` on. */
async function seedLargeState(port: number, firstId: number, batches = 1): Promise<void> {
  const wire = await Wire.open(port);
  for (let batch = 0; batch < batches; batch++) {
    const seed = JSON.stringify({
      '/plants': Array.from({ length: 90 }, (_, i) => ({ id: firstId + batch * 100 + i, name: 'x'.repeat(10_000) })),
    });
    wire.write(
      message(
        ['POST /__mock/state HTTP/1.1', 'Host: x', 'Content-Type: application/json', `Content-Length: ${seed.length}`],
        seed,
      ),
    );
    expect((await wire.read(1)).responses[0].status).toBe(201);
  }
  wire.destroy();
}

// Each of these was a bug of the former node:net transport found by fuzzing it; node:http had some of
// them too (a pipelining client that reads nothing, a half-close, a slow reader at close), which the
// adapter fixes.
describe('found by fuzzing', () => {
  it('stops answering requests already received while the client does not read, so a flood of large answers stays bounded', async () => {
    const own = await startMockServer({ port: 0 });
    try {
      // ~1 MB of state: each GET /__mock/state answer is ~1 MB.
      await seedLargeState(own.port, 9_100_000);
      const before = own.engine.store.size();
      const wire = await Wire.open(own.port);
      wire.socket.pause();
      // 300 pairs in one write: a large answer, then a create that marks how far the server got.
      const pairs = Array.from({ length: 300 }, (_, i) =>
        Buffer.concat([
          Buffer.from('GET /__mock/state HTTP/1.1\r\nHost: x\r\n\r\n'),
          create(JSON.stringify({ id: 9_200_000 + i, name: 'm' })),
        ]),
      );
      wire.write(Buffer.concat(pairs));
      // Settled: the count holds across another client's round trips.
      const handled = (await settled(own.port, () => own.engine.store.size())) - before;
      expect(handled).toBeGreaterThan(0);
      expect(handled).toBeLessThan(60);
      wire.destroy();
    } finally {
      await own.close();
    }
  });

  it('answers every request sent before a half-close, also when answers wait for a state file', async () => {
    const own = await startMockServer({ port: 0, stateFile: `${tempDir('plantstore-wire-')}/state.jsonl` });
    try {
      const wire = await Wire.open(own.port);
      wire.write(Buffer.concat([create(plant('Durable')), Buffer.from('GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n')]));
      wire.end();
      const { responses } = await wire.read(2);
      expect(responses.map((r) => r.status)).toEqual([200, 404]);
      expect(await wire.waitForClose()).toBe(true);
    } finally {
      await own.close();
    }
  });

  it('starts the idle clock only once a large answer has been read: a slow reader gets all of it', async () => {
    const own = await startMockServer({ port: 0 });
    try {
      await seedLargeState(own.port, 9_300_000);
      const wire = await Wire.open(own.port);
      wire.socket.pause();
      // Eight ~1 MB answers fill the socket buffers; the client reads nothing until a connection
      // that went idle after it has been closed by the keep-alive timeout (~6 s).
      wire.write('GET /__mock/state HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(8));
      const idle = await Wire.open(own.port);
      idle.write('GET /__mock/health HTTP/1.1\r\nHost: x\r\n\r\n');
      await idle.read(1);
      expect(await idle.waitForClose(15_000)).toBe(true);
      wire.socket.resume();
      const { responses } = await wire.read(8, { timeoutMs: 5_000 });
      expect(responses).toHaveLength(8);
      for (const response of responses) expect(response.body.length).toBe(Number(response.headers['content-length']));
    } finally {
      await own.close();
    }
  }, 20_000);

  it('finishes writing a large answer to a slow reader when the server closes', async () => {
    const own = await startMockServer({ port: 0 });
    try {
      // ~8 MB of state, more than the socket buffers hold: the answer is still being written when close() comes.
      await seedLargeState(own.port, 9_400_000, 9);
      const wire = await Wire.open(own.port);
      // The first bytes of the answer have come: it is being written. Then the client stops reading.
      const writing = new Promise<void>((resolve) =>
        wire.socket.once('data', () => {
          wire.socket.pause();
          resolve();
        }),
      );
      wire.write('GET /__mock/state HTTP/1.1\r\nHost: x\r\n\r\n');
      await writing;
      const closed = own.close();
      // close() has taken effect once the port refuses a new connection.
      await expect(Wire.open(own.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      wire.socket.resume();
      const { responses, closed: ended } = await wire.read(1, { timeoutMs: 5_000 });
      expect(responses).toHaveLength(1);
      expect(responses[0].body.length).toBe(Number(responses[0].headers['content-length']));
      expect(responses[0].body.length).toBeGreaterThan(8_000_000);
      expect(ended || (await wire.waitForClose())).toBe(true);
      await closed;
    } finally {
      await own.close();
    }
  });

  it('takes an empty line after a request as nothing: no 408, the connection stays usable', async () => {
    const wire = await Wire.open(server.port);
    wire.write(Buffer.concat([create(plant('Stray')), Buffer.from('\r\n')]));
    expect((await wire.read(1)).responses[0].status).toBe(200);
    // Past headersTimeoutMs (600) and a sweep, shown by a later half-sent head being cut off with
    // 408: still open, nothing more sent.
    const control = await Wire.open(server.port);
    control.write('GET /x HTTP/1.1\r\nHost: x\r\n');
    expect((await control.read(1)).responses[0].status).toBe(408);
    expect(wire.closed).toBe(false);
    expect(wire.pending).toHaveLength(0);
    wire.write(create(plant('AfterStray')));
    expect((await wire.read(1)).responses[0].status).toBe(200);
  });

  it('judges a head of exactly 16 KiB alike however its blank line is split', async () => {
    const head = `GET /x HTTP/1.1\r\nHost: x\r\nX: ${'a'.repeat(16_384 - 'GET /x HTTP/1.1\r\nHost: x\r\nX: '.length)}`;
    expect(Buffer.byteLength(head)).toBe(16_384);
    for (const pieces of [[`${head}\r\n\r\n`], [`${head}\r`, '\n\r\n'], [`${head}\r\n\r`, '\n']]) {
      const { responses } = await exchange(pieces, 1, { gap: 20 });
      expect(responses[0].status).toBe(404);
    }
  });

  it.each([['x/plants'], [',/plants'], ['http:plants/plants']])(
    'refuses the request target %s with 400 and stores nothing',
    async (target) => {
      const before = count();
      const { responses } = await exchange(create(plant(), { line: `POST ${target} HTTP/1.1` }));
      expect(responses[0].status).toBe(400);
      errorShaped(responses[0]);
      expect(count()).toBe(before);
    },
  );

  it('answers a refused HEAD request without a body', async () => {
    const { responses, wire } = await exchange(
      message(['HEAD /plants HTTP/1.1', 'Host: x', 'Content-Length: 99999']),
      1,
      { head: true },
    );
    expect(responses[0].status).toBe(413);
    expect(responses[0].body).toHaveLength(0);
    expect(await wire.waitForClose()).toBe(true);
    expect(wire.pending).toHaveLength(0);
  });
});
