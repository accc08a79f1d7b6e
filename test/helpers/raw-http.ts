import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/** Sends bytes exactly as given (no client normalisation) and reads one answer. */
export function rawRequest(port: number, bytes: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let data = '';
    socket.setTimeout(15_000, () => socket.destroy(new Error('no answer in 15 s')));
    socket.on('data', (chunk) => {
      data += chunk;
      const headEnd = data.indexOf('\r\n\r\n');
      if (headEnd === -1) return;
      const length = /content-length: (\d+)/i.exec(data.slice(0, headEnd))?.[1];
      if (length !== undefined && Buffer.byteLength(data.slice(headEnd + 4)) >= Number(length)) socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const headEnd = data.indexOf('\r\n\r\n');
      resolve({ status: Number(data.slice(9, 12)), head: data.slice(0, headEnd), body: data.slice(headEnd + 4) });
    });
  });
}

export const post = (
  body: string | Buffer,
  headers: string[] = ['Authorization: Bearer t', 'Content-Type: application/json'],
) => {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return Buffer.concat([
    Buffer.from(
      `POST /plants HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${headers.map((h) => `${h}\r\n`).join('')}Content-Length: ${bytes.length}\r\n\r\n`,
    ),
    bytes,
  ]);
};
