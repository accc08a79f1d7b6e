// Raw-socket probing shared by the hostile-probe suite and the wire fuzzer: a bare node:http
// reference server with the mock's deadlines, and a client that plays a script of writes, half-
// closes and resets, then reads the answers and finds out, by events only, whether the server
// closed the connection. A server that neither answers nor closes fails the probe after `boundMs`.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/** What a probe does on its connection, in order. */
export type Step =
  | { write: string | Buffer }
  /** Half-closes: no more bytes from the client; the server may still answer. */
  | { end: true }
  /** Sends a TCP RST and forgets the connection. */
  | { reset: true }
  /** Waits until this many answers (in all) have come, or the server closed. */
  | { answers: number }
  /** Writes `piece` every `everyMs` until the server closes (a slowloris pace, not a wait). */
  | { trickle: string; everyMs: number }
  /** Lets one turn of the event loop pass, so that the next write leaves on its own. */
  | { turn: true };

export interface ProbeResult {
  /** Final statuses in order (1xx interim answers are left out). */
  statuses: number[];
  bodies: string[];
  /** The server closed the connection after its answers: the canary on it got no answer. */
  closed: boolean;
}

/** A request both servers answer 200 and that changes nothing: asks whether the connection is still usable. */
export const CANARY = 'GET /__mock/health HTTP/1.1\r\nHost: canary\r\n\r\n';

/** Deadlines small enough to keep a slowloris probe short, the same for the mock and the reference. */
export const DEADLINES = { headersTimeoutMs: 300, requestTimeoutMs: 500 };

export interface ReferenceServer {
  server: Server;
  port: number;
  /** Creates the handler accepted: the reference's state. */
  stored(): number;
  close(): Promise<void>;
}

/**
 * Bare node:http with the mock's deadlines and a handler that models the mock's one operation
 * coarsely (POST /plants with a Bearer token and a JSON {id, name} stores it; GET /__mock/health is
 * 200), so that its status classes can be compared with the mock's. No adapter: Node's own
 * refusals, framing and defaults.
 */
export async function startReference(
  options: { maxConnections?: number; deadlines?: typeof DEADLINES } = {},
): Promise<ReferenceServer> {
  const { headersTimeoutMs, requestTimeoutMs } = options.deadlines ?? DEADLINES;
  const ids = new Set<unknown>();
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      // As the adapter sets it: a quarter of the shorter deadline, so that the deadlines mean their values.
      connectionsCheckingInterval: Math.max(
        10,
        Math.floor(Math.min(1_000, headersTimeoutMs / 4, requestTimeoutMs / 4)),
      ),
    },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('error', () => {}); // a reset mid-body
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        let target = req.url ?? '/';
        if (!target.startsWith('/') && target !== '*') {
          const start = target.indexOf('/', target.indexOf('//') + 2);
          target = start === -1 ? '/' : target.slice(start);
        }
        const path = target.split('?')[0];
        const [status, body] = route(req.method ?? 'GET', path, req.headers, Buffer.concat(chunks), ids);
        res.writeHead(status, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...(status === 405 ? { allow: 'POST' } : {}),
        });
        res.end(body);
      });
    },
  );
  if (options.maxConnections !== undefined) server.maxConnections = options.maxConnections;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    stored: () => ids.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const BEARER = /^bearer +[A-Za-z0-9\-._~+/]+=*$/i;
const JSON_TYPE = /^application\/json[ \t]*(;|$)/i;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function route(
  method: string,
  path: string,
  headers: IncomingHttpHeaders,
  bytes: Buffer,
  ids: Set<unknown>,
): [number, string] {
  const error = (status: number) => [status, JSON.stringify({ error: status, message: 'refused' })] as [number, string];
  if (path === '/__mock/health') return method === 'GET' || method === 'HEAD' ? [200, '{"status":"ok"}'] : error(405);
  if (path !== '/plants') return error(404);
  if (method !== 'POST') return error(405);
  if (!BEARER.test(headers.authorization ?? '')) return error(401);
  if (!JSON_TYPE.test(headers['content-type'] ?? '')) return error(415);
  let plant: { id?: unknown; name?: unknown; tag?: unknown };
  try {
    plant = JSON.parse(UTF8.decode(bytes)) as typeof plant;
  } catch {
    return error(400);
  }
  if (typeof plant !== 'object' || plant === null || Array.isArray(plant)) return error(400);
  if (
    !Number.isInteger(plant.id) ||
    typeof plant.name !== 'string' ||
    (plant.tag !== undefined && typeof plant.tag !== 'string') ||
    ids.has(plant.id)
  )
    return error(400);
  ids.add(plant.id);
  return [200, JSON.stringify({ name: plant.name })];
}

interface Parsed {
  status: number;
  body: string;
  used: number;
}

/** One answer from the front of `buffer`, or undefined while it is incomplete. */
function parseAnswer(buffer: Buffer, head: boolean, closed: boolean): Parsed | undefined {
  const headEnd = buffer.indexOf('\r\n\r\n');
  if (headEnd === -1) return undefined;
  const headText = buffer.subarray(0, headEnd).toString('latin1');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(headText);
  if (!match) throw new Error(`not an HTTP answer: ${JSON.stringify(buffer.subarray(0, 200).toString('latin1'))}`);
  const status = Number(match[1]);
  const start = headEnd + 4;
  if (head || status < 200 || status === 204 || status === 304) return { status, body: '', used: start };
  const length = /\r\ncontent-length: *(\d+)/i.exec(headText)?.[1];
  if (/\r\ntransfer-encoding: *chunked/i.test(headText)) {
    // Only bare node:http chunks (its own answers without a length); read until the last chunk.
    const end = buffer.indexOf('\r\n0\r\n\r\n', start - 2);
    if (end === -1)
      return closed ? { status, body: buffer.subarray(start).toString(), used: buffer.length } : undefined;
    return { status, body: '', used: end + 7 };
  }
  if (length === undefined)
    return closed ? { status, body: buffer.subarray(start).toString(), used: buffer.length } : undefined;
  const end = start + Number(length);
  return buffer.length < end ? undefined : { status, body: buffer.subarray(start, end).toString(), used: end };
}

/**
 * Plays `steps` on a fresh connection, reads `expected` answers (or fewer if the server closes),
 * then sends the canary unless the client has ended or reset (or `canary` is false): an answer
 * to it means the connection stayed open. With `expected` Infinity it reads until the server
 * closes. `head` lists the answers (by index) that answer a HEAD.
 */
export function runProbe(
  port: number,
  steps: Step[],
  expected: number,
  options: { head?: number[]; boundMs?: number; canary?: boolean } = {},
): Promise<ProbeResult> {
  const head = new Set(options.head ?? []);
  const boundMs = options.boundMs ?? 5_000;
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    let pending = Buffer.alloc(0);
    let closed = false;
    let finished = false;
    let clientDone = false; // ended or reset: no canary
    let canarySent = false;
    const statuses: number[] = [];
    const bodies: string[] = [];
    let wake: (() => void) | undefined;
    let trickle: NodeJS.Timeout | undefined;
    const bound = setTimeout(
      () =>
        fail(
          new Error(
            `no answer and no close within ${boundMs} ms; answers so far ${JSON.stringify(statuses)}; unparsed ${JSON.stringify(pending.subarray(0, 200).toString('latin1'))}`,
          ),
        ),
      boundMs,
    );
    const finish = (result: ProbeResult) => {
      if (finished) return;
      finished = true;
      clearTimeout(bound);
      clearInterval(trickle);
      socket.destroy();
      resolve(result);
    };
    const fail = (error: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(bound);
      clearInterval(trickle);
      socket.destroy();
      reject(error);
    };
    const drain = () => {
      for (;;) {
        let parsed: Parsed | undefined;
        try {
          parsed = parseAnswer(pending, head.has(statuses.length) && !canarySent, closed);
        } catch (error) {
          return fail(error as Error);
        }
        if (!parsed) break;
        pending = pending.subarray(parsed.used);
        if (parsed.status < 200) continue;
        statuses.push(parsed.status);
        bodies.push(parsed.body);
      }
      wake?.();
    };
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      drain();
    });
    const onClosed = () => {
      if (closed) return;
      closed = true;
      clearInterval(trickle);
      drain();
    };
    socket.on('end', onClosed);
    socket.on('close', onClosed);
    socket.on('error', onClosed); // EPIPE, ECONNRESET: the server is gone
    /** Resolves once `n` answers are in or the server has closed. */
    const answers = (n: number) =>
      new Promise<void>((done) => {
        const check = () => {
          if (statuses.length >= n || closed) {
            wake = undefined;
            done();
          }
        };
        wake = check;
        check();
      });
    socket.once('connect', async () => {
      for (const step of steps) {
        if (closed) break;
        if ('write' in step)
          socket.write(typeof step.write === 'string' ? Buffer.from(step.write, 'latin1') : step.write);
        else if ('end' in step) {
          socket.end();
          clientDone = true;
        } else if ('reset' in step) {
          socket.resetAndDestroy();
          clientDone = true;
          return finish({ statuses, bodies, closed: true });
        } else if ('answers' in step) await answers(step.answers);
        else if ('turn' in step) await new Promise((next) => setImmediate(next));
        else {
          const piece = Buffer.from(step.trickle, 'latin1');
          trickle = setInterval(() => !closed && socket.write(piece), step.everyMs);
        }
      }
      await answers(expected);
      if (closed || clientDone) {
        if (!closed) await answers(Number.POSITIVE_INFINITY); // the server must close after a half-close
        return finish({ statuses, bodies, closed: true });
      }
      if (options.canary === false) return finish({ statuses, bodies, closed });
      const before = statuses.length;
      canarySent = true;
      socket.write(CANARY);
      await answers(before + 1);
      if (statuses.length > before) {
        const canary = statuses.splice(before);
        bodies.splice(before);
        if (canary[0] !== 200)
          return fail(new Error(`the canary got ${canary[0]}: an answer the probe did not expect`));
        return finish({ statuses, bodies, closed: false });
      }
      finish({ statuses, bodies, closed: true });
    });
    let connected = false;
    socket.once('connect', () => (connected = true));
    socket.once('error', (error) => {
      if (!connected) fail(error);
    });
  });
}

/**
 * A client that never reads: it connects, stops reading at once (what the server writes piles up
 * in the kernel's buffers), writes `head`, then `piece` every `everyMs`. Resolves with how the
 * connection ended once the server has closed it: seen by events only, since a client that does
 * not read learns of the close when a write fails (reset) or the socket reports its close.
 * Rejects when the connection is still open after `boundMs`: the server let the client pin it.
 */
export function neverReading(
  port: number,
  options: { head?: string; piece?: string; everyMs?: number; boundMs: number },
): Promise<void> {
  const { head = '', piece, everyMs = 20, boundMs } = options;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.pause();
    let trickle: NodeJS.Timeout | undefined;
    const bound = setTimeout(() => {
      clearInterval(trickle);
      socket.destroy();
      reject(new Error(`the server kept the connection of a client that never reads open for ${boundMs} ms`));
    }, boundMs);
    socket.on('error', () => {}); // EPIPE, ECONNRESET: how a non-reading client sees the close
    socket.once('close', () => {
      clearInterval(trickle);
      clearTimeout(bound);
      resolve();
    });
    socket.once('connect', () => {
      if (head !== '') socket.write(Buffer.from(head, 'latin1'));
      if (piece !== undefined)
        trickle = setInterval(() => socket.writable && socket.write(Buffer.from(piece, 'latin1')), everyMs);
    });
  });
}

/** An open connection that has sent nothing, and a promise of its close. */
export function idleConnection(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}
