// The faults the mock can answer with instead of its answer, and what each one means on the wire
// (the listener carries them out: src/http/socket-faults.ts). A status fault (a declared 5xx, or a
// declared 429 with Retry-After) is a forced answer: it passes the engine's checks and changes no
// state, as `Prefer: code=503` does.
import type { Operation } from '../../document/operations.ts';

export const SOCKET_FAULTS = ['reset', 'close', 'timeout', 'malformed', 'slow-body'] as const;
export type SocketFault = (typeof SOCKET_FAULTS)[number];

/** What each socket fault does, as `mock --help` and the page say it. */
export const FAULT_MEANINGS: Record<SocketFault, string> = {
  reset: 'the connection is reset (TCP RST) before any byte of the answer: ECONNRESET',
  close: 'the connection is closed (FIN) before any byte of the answer: "socket hang up" / "other side closed"',
  timeout: 'no answer at all: the connection stays open until the client gives up or the mock stops',
  malformed:
    "the document's answer (its lowest 2xx, as a forced answer: no state read or changed): status, headers, then " +
    'half its body and a close, short of its Content-Length',
  'slow-body':
    "the document's answer (as for malformed): status and headers at once, " +
    'then the body in 10 pieces 200 ms apart (2 s in all)',
};

/**
 * The socket faults --fault-rate draws from. timeout and slow-body are left out: a random one holds
 * a test for the whole of its client's time-out, which makes a seeded run slow rather than telling.
 */
export const RANDOM_SOCKET_FAULTS: readonly SocketFault[] = ['reset', 'close', 'malformed'];

/**
 * A fault a request gets: a socket fault, or a status the operation declares; `by` says who asked (for the journal and
 * error bodies).
 */
export type Fault = { kind: SocketFault; by: string } | { kind: 'status'; status: number; by: string };

export const isSocketFault = (text: string): text is SocketFault => (SOCKET_FAULTS as readonly string[]).includes(text);

/** The statuses a random fault of this operation may be: its declared 5xx, and 429 where it declares one. */
export function faultStatuses(operation: Operation): number[] {
  return operation.responses
    .map((response) => Number(response.status))
    .filter((status) => (status >= 500 && status <= 599) || status === 429);
}

/** Whether an answer is still to be sent with a body (malformed and slow-body need the engine's answer). */
export const needsAnswer = (fault: Fault): boolean =>
  fault.kind === 'status' || fault.kind === 'malformed' || fault.kind === 'slow-body';
