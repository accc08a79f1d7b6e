// The mock's socket faults, carried out on the connection (their meanings: src/mock/answer/faults.ts).
// Each one ends its connection: a client never gets a later answer on a connection it cannot trust.
// Everything waiting (a timeout's open connection, a slow body's timers) is ended by stop(), so that
// the mock stops at once.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpAnswer } from './types.ts';
import { http } from './node-http.ts';
import { SLOW_BODY_PAUSE_MS, SLOW_BODY_PIECES } from './fault-pace.ts';

export interface SocketFaults {
  carryOut(res: ServerResponse, response: HttpAnswer): void;
  /** Ends every fault still under way (the mock is stopping). */
  stop(): void;
}

export function createSocketFaults(): SocketFaults {
  const underWay = new Set<() => void>();
  const track = (socket: Socket, end: () => void) => {
    underWay.add(end);
    socket.once('close', () => underWay.delete(end));
  };
  return {
    carryOut(res, response) {
      const socket = res.socket;
      if (!socket || socket.destroyed) return;
      switch (response.fault) {
        case 'reset':
          socket.resetAndDestroy();
          return;
        case 'close':
          socket.destroy();
          return;
        case 'timeout':
          // Nothing is written; the client's time-out or the mock's stop ends it.
          track(socket, () => socket.destroy());
          return;
        case 'malformed': {
          const body = bytesOf(response.body);
          const head = headOf(response, body.length);
          if (body.length === 0) socket.end(head.subarray(0, Math.floor(head.length / 2)));
          else socket.end(Buffer.concat([head, body.subarray(0, Math.floor(body.length / 2))]));
          return;
        }
        case 'slow-body': {
          const body = bytesOf(response.body);
          res.writeHead(response.status, { ...response.headers, 'content-length': body.length, connection: 'close' });
          const size = Math.max(1, Math.ceil(body.length / SLOW_BODY_PIECES));
          let sent = 0;
          let timer: NodeJS.Timeout | undefined;
          const next = () => {
            const piece = body.subarray(sent, sent + size);
            sent += piece.length;
            if (sent >= body.length) {
              underWay.delete(stop);
              res.end(piece);
            } else {
              res.write(piece);
              timer = setTimeout(next, SLOW_BODY_PAUSE_MS);
            }
          };
          const stop = () => {
            clearTimeout(timer);
            socket.destroy();
          };
          track(socket, stop);
          socket.once('close', () => clearTimeout(timer));
          if (body.length === 0) res.end();
          else next();
          return;
        }
        default:
          socket.destroy();
      }
    },
    stop() {
      for (const end of [...underWay]) end();
      underWay.clear();
    },
  };
}

function bytesOf(body: HttpAnswer['body']): Buffer {
  if (body === undefined) return Buffer.alloc(0);
  return typeof body === 'string' ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

/** The status line and headers of an answer, with the Content-Length of its whole body. */
function headOf(response: HttpAnswer, length: number): Buffer {
  const lines = [`HTTP/1.1 ${response.status} ${http.STATUS_CODES[response.status] ?? ''}`];
  for (const [name, value] of Object.entries(response.headers))
    if (name.toLowerCase() !== 'content-length') lines.push(`${name}: ${value}`);
  lines.push(`content-length: ${length}`, 'connection: close');
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`);
}
