// The benchmark's baseline: the least a correct stateful Plant Store must do, by hand on bare
// node:http, so that the mock's figures can be read against "what this machine can do at all".
// It deliberately imports nothing from src/ (no spec, no Ajv, no logger, no journal, no CORS):
// route, bearer check, JSON parse, NewPlant shape check, duplicate-id check, Plant answer.
// It must stay correct, or the ratio flatters the mock: ids are exact int64 (two ids past 2^53
// that differ in the last digit are two plants), and every refusal is a 4xx Error body.
// Run: node bench/lib/baseline-server.ts --port 4020   (prints "listening on URL" to stderr)
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

const MAX_BODY_BYTES = 1024 * 1024;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const plants = new Map<string, { name: string; tag?: string }>();

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

const refuse = (res: ServerResponse, status: number, message: string, headers?: Record<string, string>) =>
  send(res, status, { error: status, message }, headers);

// RFC 6750: scheme case-insensitive, one token of token68 characters.
const BEARER = /^bearer +[A-Za-z0-9\-._~+/]+=*$/i;

/** The id as exact decimal text, or why it is not an int64. Unsafe integers are re-read from source. */
function idKey(value: unknown, text: string): string | { problem: string } {
  if (typeof value !== 'number' || !Number.isInteger(value)) return { problem: '/id: must be integer' };
  if (Number.isSafeInteger(value)) return String(value === 0 ? 0 : value);
  // Past 2^53 the double is not the id: read the literal again, exactly (Node 21+ reviver context).
  let exact: bigint | undefined;
  JSON.parse(text, function (key, v, context?: { source?: string }) {
    if (this === undefined || key !== 'id' || typeof v !== 'number') return v;
    // A plain digit run is read exactly; 1e18 is an integer by value, and that double is exact.
    exact = /^-?\d+$/.test(context?.source ?? '') ? BigInt(context?.source ?? '') : BigInt(v);
    return v;
  });
  if (exact === undefined || exact < INT64_MIN || exact > INT64_MAX) return { problem: '/id: must be an int64' };
  return exact.toString();
}

function handle(req: IncomingMessage, res: ServerResponse, text: string): void {
  if (req.url !== '/plants') return refuse(res, 404, `no route for ${req.url}`);
  if (req.method !== 'POST') return refuse(res, 405, `${req.method} is not allowed on /plants`, { allow: 'POST' });
  // Auth before the body, as the contract's security requirement comes first.
  if (!BEARER.test(req.headers.authorization ?? ''))
    return refuse(res, 401, 'missing or malformed bearer token', { 'www-authenticate': 'Bearer' });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse(res, 400, 'malformed JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return refuse(res, 400, '(body): must be object');
  const { id, name, tag } = body as Record<string, unknown>;
  const problems: string[] = [];
  const key = idKey(id, text);
  if (typeof key !== 'string') problems.push(id === undefined ? '/id: is required' : key.problem);
  if (typeof name !== 'string') problems.push(name === undefined ? '/name: is required' : '/name: must be string');
  if (tag !== undefined && typeof tag !== 'string') problems.push('/tag: must be string');
  if (problems.length > 0 || typeof key !== 'string')
    return refuse(res, 400, `invalid request body: ${problems.join('; ')}`);
  // Check and insert in one synchronous step: of concurrent creates of one id exactly one wins.
  if (plants.has(key)) return refuse(res, 400, `a plant with id ${key} already exists`);
  const plant = tag === undefined ? { name: name as string } : { name: name as string, tag: tag as string };
  plants.set(key, plant);
  send(res, 200, plant);
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) tooLarge = true;
    else chunks.push(chunk);
  });
  req.on('end', () => {
    if (tooLarge) return refuse(res, 413, `body larger than ${MAX_BODY_BYTES} bytes`);
    handle(req, res, Buffer.concat(chunks).toString('utf8'));
  });
});

const portFlag = process.argv.indexOf('--port');
const port = portFlag >= 0 ? Number(process.argv[portFlag + 1]) : 4020;
server.listen(port, '127.0.0.1', () => process.stderr.write(`baseline plant store listening on port ${port}\n`));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
  });
}
