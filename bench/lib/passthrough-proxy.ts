// A peer for the proxy suite: the least a proxy on node:http and undici does (read the
// request, forward it, read the answer, write it back), no validation, no journal, no log. The
// proxy's figures are read against it: what is left above it is what judging the contract costs.
// With several --upstream, it is a round-robin balancer (the Redis suite: replicas behind it).
// Run: node bench/lib/passthrough-proxy.ts --upstream URL [--upstream URL2 ...] --port N
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { Agent, request, type Dispatcher } from 'undici';

const { values } = parseArgs({ options: { upstream: { type: 'string', multiple: true }, port: { type: 'string' } } });
const upstreams = (values.upstream ?? ['http://127.0.0.1:4020']).map((url) => new URL(url).origin);
let turn = 0;
const dispatcher = new Agent({ keepAliveTimeout: 4_000 });
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'content-length']);

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = String(value);
    request(`${upstreams[turn++ % upstreams.length]}${req.url}`, {
      dispatcher,
      method: req.method as Dispatcher.HttpMethod,
      headers,
      body: Buffer.concat(chunks),
    }).then(
      async (answer) => {
        const body = Buffer.from(await answer.body.arrayBuffer());
        const out: Record<string, string> = {};
        for (const [name, value] of Object.entries(answer.headers))
          if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = String(value);
        res.writeHead(answer.statusCode, { ...out, 'content-length': body.length });
        res.end(body);
      },
      () => {
        res.writeHead(502).end();
      },
    );
  });
}).listen(Number(values.port ?? 4021), '127.0.0.1', () =>
  process.stderr.write(`listening on http://127.0.0.1:${values.port}\n`),
);
