// The benchmark's own load client: closed-loop HTTP/1.1 on raw node:net sockets. autocannon spent
// so much CPU per request (a request object and a full HTTP parser per answer, histograms, events)
// that on a 2-core machine it filled its core at ~35k req/s and set the pace for every fast server.
// Here the request head is built once, each request is one socket write of head + Content-Length +
// body, and answers are read only for their status and framing (http-response-parser.ts).
// Same semantics as the autocannon setup: N keep-alive connections, exactly one request in flight
// on each (no pipelining), latencies per request, a 10 s timeout. At the deadline no request is
// sent any more; answers still in flight are awaited briefly (the server does their work, so they
// count in `lateStatuses`) but are not part of the figures, then the sockets are closed.
import { connect, type Socket } from 'node:net';
import { ResponseParser } from './http-response-parser.ts';
import { createPhaseRecorder, type PhasePlan, type PhaseResult } from './load-phase.ts';

export interface ClientLimits {
  /** A request unanswered this long counts as a timeout; its connection is replaced. */
  timeoutMs: number;
  /** How long to wait after the deadline for the answers still in flight. */
  graceMs: number;
  /** Pause before reconnecting after a failed connect, so that a server that is down is not spun on. */
  retryMs: number;
}

export const DEFAULT_LIMITS: ClientLimits = { timeoutMs: 10_000, graceMs: 1_000, retryMs: 100 };

const READ_BUFFER_BYTES = 16 * 1024;

interface Connection {
  socket: Socket | undefined;
  /** performance.now() when the request in flight was written; 0 when none is. */
  sentAt: number;
  /** Where its socket reads into; one socket at a time uses it (the old one is destroyed first). */
  buffer: Buffer;
}

/**
 * Runs one phase of closed-loop load and resolves with its figures.
 * @example
 * const result = await runClosedLoop({ url: 'http://127.0.0.1:4010', connections: 50, seconds: 5,
 *   method: 'POST', path: '/plants', headers: { 'content-type': 'application/json' }, body: '{}' });
 */
export function runClosedLoop(plan: PhasePlan, limits: ClientLimits = DEFAULT_LIMITS): Promise<PhaseResult> {
  const url = new URL(plan.url);
  if (url.protocol !== 'http:') throw new Error(`the load client speaks plain http only, not ${url.protocol} (${plan.url})`);
  const port = Number(url.port || 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Everything up to the Content-Length value is the same for every request: built once.
  const headerLines = Object.entries(plan.headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const head = `${plan.method} ${plan.path} HTTP/1.1\r\nHost: ${url.host}\r\n${headerLines}Content-Length: `;
  const makeBody = plan.body;
  const fixed = typeof makeBody === 'string' ? Buffer.from(`${head}${Buffer.byteLength(makeBody)}\r\n\r\n${makeBody}`) : undefined;
  const request = (): string | Buffer => {
    if (fixed) return fixed;
    const body = (makeBody as () => string)();
    return `${head}${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };

  let errors = 0;
  let timeouts = 0;
  const phase = createPhaseRecorder(plan);
  const { deadline, over } = phase;
  const connections: Connection[] = Array.from({ length: plan.connections }, () => ({ socket: undefined, sentAt: 0, buffer: Buffer.allocUnsafe(READ_BUFFER_BYTES) }));

  return new Promise((resolve) => {
    let finished = false;
    let grace: NodeJS.Timeout | undefined;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearInterval(watchdog);
      clearTimeout(end);
      clearTimeout(grace);
      for (const c of connections) {
        const socket = c.socket;
        c.socket = undefined; // so that its 'close' is not taken for a lost connection
        socket?.destroy();
      }
      resolve(phase.result(errors, timeouts));
    };
    const finishIfIdle = () => {
      if (phase.stopping && connections.every((c) => c.sentAt === 0)) finish();
    };

    const send = (c: Connection, socket: Socket) => {
      const bytes = request();
      c.sentAt = performance.now();
      socket.write(bytes);
    };

    /** Forgets a connection's socket (counting an error if asked) and opens a new one unless the run is over. */
    const drop = (c: Connection, socket: Socket, isError: boolean, retryAfterMs: number) => {
      if (c.socket !== socket) return; // already replaced: its 'close' after our destroy()
      if (isError && performance.now() < deadline) errors++;
      c.socket = undefined;
      c.sentAt = 0;
      socket.destroy();
      if (over()) finishIfIdle();
      else if (retryAfterMs > 0) setTimeout(open, retryAfterMs, c);
      else open(c);
    };

    const answered = (c: Connection, socket: Socket, status: number, close: boolean) => {
      if (c.socket !== socket) return;
      // An answer to no request: the server is not speaking our HTTP; start afresh.
      if (c.sentAt === 0) return drop(c, socket, true, 0);
      phase.answer(status, c.sentAt);
      c.sentAt = 0;
      if (close) drop(c, socket, false, 0);
      else if (over()) finishIfIdle();
      else send(c, socket);
    };

    const open = (c: Connection) => {
      if (over()) return finishIfIdle();
      // onread: answers land in this connection's own buffer, without a Buffer and a stream event
      // per read (the parser copies the rare unfinished tail it keeps).
      const socket = connect({ host, port, noDelay: true, onread: { buffer: c.buffer, callback: (n) => read(n) } });
      c.socket = socket;
      c.sentAt = 0;
      let connected = false;
      const parser = new ResponseParser((status, close) => answered(c, socket, status, close));
      socket.on('connect', () => {
        connected = true;
        if (c.socket === socket && !over()) send(c, socket);
      });
      const read = (bytes: number) => {
        if (parser.feed(c.buffer.subarray(0, bytes)) !== undefined) drop(c, socket, true, 0);
        return true; // keep reading
      };
      // An answer framed by the close ends here; an answer cut short is an error.
      socket.on('end', () => {
        if (parser.end() !== undefined) drop(c, socket, true, 0);
      });
      socket.on('error', () => drop(c, socket, true, connected ? 0 : limits.retryMs));
      // Closed by the server without saying so: an error only if a request was waiting on it.
      socket.on('close', () => drop(c, socket, c.sentAt !== 0, connected ? 0 : limits.retryMs));
    };

    // One timer for all connections rather than one per request: cheaper, and 10 s +- 1/4 s is fine.
    const watchdog = setInterval(() => {
      const now = performance.now();
      for (const c of connections) {
        if (c.socket === undefined || c.sentAt === 0 || now - c.sentAt < limits.timeoutMs) continue;
        if (now < deadline) timeouts++;
        drop(c, c.socket, false, 0);
      }
    }, Math.min(250, limits.timeoutMs));
    const end = setTimeout(() => {
      phase.stop();
      grace = setTimeout(finish, limits.graceMs);
      finishIfIdle();
    }, plan.seconds * 1000);
    for (const c of connections) open(c);
  });
}
