// A grown Plant Store (test/documents/plant-store-grown.yaml: list, create, read, delete) written
// by hand from the document, sharing no code with the mock: the sequence tests use it as "a
// correct server with state", and flip one defect at a time to make the forgetful ones.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CRUD_DEFECTS = [
  /** Answers a create with 200 but keeps nothing: the read right after it is 404. */
  'forgets-creates',
  /** Answers a delete with 204 but keeps the plant: the read after it is still 200. */
  'forgets-deletes',
  /** Lists only the plants it was started with, never the ones created since. */
  'hides-from-list',
  /** Lists every plant, whatever `limit` asks for. */
  'ignores-limit',
  /** Takes any `limit` (0 below a minimum of 1, text) instead of refusing it with 400. */
  'accepts-bad-limit',
] as const;

export type CrudDefect = (typeof CRUD_DEFECTS)[number];

export interface CrudPlantServer {
  url: string;
  /** Every request as "METHOD /path?query", in order. */
  requests: string[];
  close(): Promise<void>;
}

export interface CrudPlantServerOptions {
  defect?: CrudDefect;
  /** Plants that exist before the first request (listed first, ids from 1). */
  seeded?: number;
  /** The smallest `limit` the list takes (the document's minimum; default 0). */
  limitMinimum?: number;
}

interface Plant {
  name: string;
  tag?: string;
}

/** Starts the server on a free port. */
export async function startCrudPlantServer(options: CrudPlantServerOptions = {}): Promise<CrudPlantServer> {
  const plants = new Map<string, Plant>();
  for (let i = 1; i <= (options.seeded ?? 0); i++) plants.set(String(i), { name: `seeded ${i}` });
  const seeded = new Set(plants.keys());
  const requests: string[] = [];
  const send = (res: ServerResponse, status: number, body?: unknown) => {
    if (body === undefined) return void res.writeHead(status).end();
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const fail = (res: ServerResponse, status: number, message: string) => send(res, status, { error: status, message });

  function answer(req: IncomingMessage, text: string, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    // RFC 6750's b64token: a token of other characters is malformed, and refused like none.
    if (!/^Bearer [A-Za-z0-9\-._~+/]+=*$/.test(req.headers.authorization ?? ''))
      return fail(res, 401, 'a bearer token is required');
    const match = /^\/plants\/(-?\d+)$/.exec(url.pathname);
    const item = match && [match[0], BigInt(match[1]).toString()];
    if (url.pathname === '/plants' && req.method === 'GET') {
      for (const name of ['limit', 'offset']) {
        const text = url.searchParams.get(name);
        const least = name === 'limit' ? (options.limitMinimum ?? 0) : 0;
        if (
          text !== null &&
          options.defect !== 'accepts-bad-limit' &&
          !(/^-?\d+$/.test(text) && Number(text) >= least && Number(text) <= 2147483647)
        )
          return fail(res, 400, `${name} must be a whole number of ${least} or more`);
      }
      const limit =
        url.searchParams.has('limit') && options.defect !== 'ignores-limit'
          ? Number(url.searchParams.get('limit'))
          : Infinity;
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const listed = [...plants]
        .filter(([id]) => options.defect !== 'hides-from-list' || seeded.has(id))
        .map(([, plant]) => plant);
      return send(res, 200, listed.slice(offset, offset + limit));
    }
    if (url.pathname === '/plants' && req.method === 'POST') {
      let body: { id?: unknown; name?: unknown; tag?: unknown };
      try {
        // The id keeps every digit: the literal's source text, not a rounded double.
        body = JSON.parse(text, (_key, value, context?: { source?: string }) =>
          typeof value === 'number' && context?.source && /^-?\d+$/.test(context.source)
            ? BigInt(context.source)
            : value,
        );
      } catch {
        return fail(res, 400, 'malformed JSON');
      }
      if (typeof body !== 'object' || body === null || typeof body.id !== 'bigint' || typeof body.name !== 'string')
        return fail(res, 400, 'id (integer) and name (string) are required');
      if (body.tag !== undefined && typeof body.tag !== 'string') return fail(res, 400, 'tag must be a string');
      const id = String(body.id);
      if (plants.has(id)) return fail(res, 400, `plant ${id} already exists`);
      const plant: Plant = body.tag === undefined ? { name: body.name } : { name: body.name, tag: body.tag };
      if (options.defect !== 'forgets-creates') plants.set(id, plant);
      return send(res, 200, plant);
    }
    if (item && req.method === 'GET') {
      const plant = plants.get(item[1]);
      return plant ? send(res, 200, plant) : fail(res, 404, `no plant ${item[1]}`);
    }
    if (item && req.method === 'DELETE') {
      if (!plants.has(item[1])) return fail(res, 404, `no plant ${item[1]}`);
      if (options.defect !== 'forgets-deletes') plants.delete(item[1]);
      return send(res, 204);
    }
    return fail(res, 404, 'not found');
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
