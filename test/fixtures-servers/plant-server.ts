// A Plant Store server written from the interface description alone, sharing no code with the
// mock or the validator: the runner's tests use it as "a correct server", and flip exactly one
// defect at a time to make the deliberately broken ones.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const DEFECTS = [
  'wrong-status',
  'undeclared-status',
  'missing-required-field',
  'wrong-field-type',
  'wrong-content-type',
  'non-json-body',
  'auth-not-enforced',
  'validation-not-enforced',
  'duplicate-accepted',
  'server-error-on-bad-input',
  'hang',
  'connection-reset',
  'oversized-body',
  'endless-body',
  'html-answer',
  'redirect',
] as const;

export type Defect = (typeof DEFECTS)[number];

export interface PlantServer {
  url: string;
  /** Every request's Authorization header as received (to prove what the runner sent). */
  authorizations: Array<string | undefined>;
  close(): Promise<void>;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Starts the server on a free port, with at most one defect. */
export async function startPlantServer(
  defect?: Defect,
  options: { tls?: { key: string; cert: string } } = {},
): Promise<PlantServer> {
  const ids = new Set<string>();
  const authorizations: Array<string | undefined> = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      authorizations.push(req.headers.authorization);
      answer(req, Buffer.concat(chunks).toString('utf8'), res);
    });
  };
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body, (_key, value: unknown) =>
      typeof value === 'bigint' ? JSON.rawJSON(String(value)) : value,
    );
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  };
  const fail = (res: ServerResponse, status: number, message: string, headers?: Record<string, string>) =>
    send(res, status, { error: status, message }, headers);

  function answer(req: IncomingMessage, text: string, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/plants') return fail(res, 404, 'not found');
    if (req.method !== 'POST') return fail(res, 405, 'method not allowed', { allow: 'POST' });
    const auth = req.headers.authorization ?? '';
    if (defect !== 'auth-not-enforced' && !/^Bearer [A-Za-z0-9\-._~+/]+=*$/i.test(auth))
      return fail(res, 401, 'a bearer token is required', { 'www-authenticate': 'Bearer' });
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'application/json') return fail(res, 415, 'send application/json');
    let body: unknown;
    try {
      // Integer literals a double cannot hold stay exact (the literal's source text, Node 21+).
      body = JSON.parse(text, (_key, value, context?: { source?: string }) =>
        typeof value === 'number' && context?.source && /^-?\d+$/.test(context.source) ? BigInt(context.source) : value,
      );
    } catch {
      if (defect === 'server-error-on-bad-input') return fail(res, 500, 'internal error');
      return fail(res, 400, 'malformed JSON');
    }
    const problem = checkNewPlant(body);
    if (problem && defect !== 'validation-not-enforced')
      return fail(res, defect === 'undeclared-status' ? 422 : 400, problem);
    const plant = body as { id?: bigint; name?: unknown; tag?: unknown };
    const key = String(plant.id);
    if (ids.has(key) && defect !== 'duplicate-accepted') return fail(res, 400, `plant ${key} already exists`);
    ids.add(key);
    const created: Record<string, unknown> = { name: plant.name };
    if (plant.tag !== undefined) created.tag = plant.tag;
    switch (defect) {
      case 'wrong-status':
        return send(res, 201, created);
      case 'missing-required-field':
        return send(res, 200, { tag: plant.tag ?? 'none' });
      case 'wrong-field-type':
        return send(res, 200, { ...created, name: [plant.name] });
      case 'wrong-content-type':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.end(JSON.stringify(created));
      case 'non-json-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(`name=${String(plant.name)}`);
      case 'hang':
        return; // never answers
      case 'connection-reset':
        return void req.socket.destroy();
      case 'oversized-body':
        return send(res, 200, { ...created, padding: 'x'.repeat(2 * 1024 * 1024) });
      case 'endless-body': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"name": "');
        const drip = () => {
          if (res.destroyed) return;
          res.write('x'.repeat(64 * 1024), () => setImmediate(drip));
        };
        return drip();
      }
      case 'html-answer':
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('<!DOCTYPE html><html><body><h1>Plant created</h1></body></html>');
      case 'redirect':
        res.writeHead(302, { location: '/plants/created' });
        return void res.end();
      default:
        return send(res, 200, created);
    }
  }

  const server: Server = options.tls
    ? (await import('node:https')).createServer(options.tls, handler)
    : createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A hanging or endless answer keeps its socket open; end it so the test can finish.
        server.closeAllConnections();
      }),
  };
}

/** Why a value is not a NewPlant, or undefined when it is one. */
function checkNewPlant(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the body must be a JSON object';
  const plant = body as Record<string, unknown>;
  if (!('id' in plant)) return 'id is required';
  if (!('name' in plant)) return 'name is required';
  if (typeof plant.id !== 'bigint' && !(typeof plant.id === 'number' && Number.isInteger(plant.id)))
    return 'id must be an integer';
  const id = BigInt(plant.id as bigint | number);
  if (id < INT64_MIN || id > INT64_MAX) return 'id must be an int64';
  if (typeof plant.name !== 'string') return 'name must be a string';
  if ('tag' in plant && typeof plant.tag !== 'string') return 'tag must be a string';
  return undefined;
}
