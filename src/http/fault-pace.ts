// How a slow body trickles, for the socket (socket-faults.ts) and the MSW handlers alike.

/** Pieces of a slow body (`fault=slow-body`). */
export const SLOW_BODY_PIECES = 10;
/** The pause between two pieces: 10 pieces make 1.8 s of pauses, about 2 s in all. */
export const SLOW_BODY_PAUSE_MS = 200;
