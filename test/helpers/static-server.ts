// A folder served over HTTP on 127.0.0.1 (port 0), for pages a test opens in Chromium: a service
// worker needs http(s), and 127.0.0.1 counts as a secure origin, so no TLS is needed.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
};

export interface StaticServer {
  url: string;
  /** The paths asked for, in order (a request a service worker answered never comes here). */
  requests: string[];
  close(): Promise<void>;
}

/** Serves `root`'s files (a folder's index.html for the folder); anything else is a 404. */
export async function serveFolder(root: string): Promise<StaticServer> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '/');
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    readFile(file).then(
      (bytes) =>
        response
          .writeHead(200, {
            'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
            'cache-control': 'no-store',
          })
          .end(bytes),
      () => response.writeHead(404, { 'content-type': 'text/plain' }).end(`no ${path}\n`),
    );
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((closed) => server.close(() => closed())),
  };
}
