// Starts a listener on a host and port, the one way the mock and the proxy do it: a port in use is
// one clear error, and the URL names the port actually taken (port 0).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PlantstoreError } from '../errors.ts';

/** Listens; on failure runs `cleanup` and throws LISTEN_FAILED. Resolves to the base URL and port. */
export async function listen(
  server: Server,
  host: string,
  port: number,
  cleanup: () => unknown,
): Promise<{ url: string; port: number }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      void cleanup();
      const why =
        error.code === 'EADDRINUSE'
          ? 'the port is in use (pick another with --port, or 0 for any free port)'
          : error.message;
      reject(new PlantstoreError('LISTEN_FAILED', `cannot listen on ${host}:${port}: ${why}`));
    });
    server.listen(port, host, resolve);
  });
  const taken = (server.address() as AddressInfo).port;
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${taken}`, port: taken };
}

/**
 * The close of a listener: `before` at once, then no new connections, requests in flight finish,
 * idle connections close, and `after` runs once the listener is closed. Every call gets the same promise.
 */
export function gracefulClose(server: Server, before: () => void, after: () => Promise<unknown>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= new Promise<void>((resolve) => {
      before();
      server.close(() => {
        void after()
          .catch(() => {})
          .finally(resolve);
      });
      server.closeIdleConnections();
    }));
}
