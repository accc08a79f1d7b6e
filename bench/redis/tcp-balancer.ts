// The Redis suite's round-robin balancer: each connection goes to the next upstream, and its bytes
// are piped both ways, as a TCP balancer (HAProxy's mode tcp, nginx's stream) does. It reads no
// HTTP, so it costs little CPU beside the replicas it spreads the load over; with keep-alive
// connections, as the load generator makes, the connections are the requests' unit of balance.
// Run: node bench/redis/tcp-balancer.ts --upstream URL [--upstream URL2 ...] --port N
import { connect, createServer } from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { upstream: { type: 'string', multiple: true }, port: { type: 'string' } } });
const upstreams = (values.upstream ?? []).map((url) => new URL(url));
let turn = 0;

createServer({ noDelay: true }, (client) => {
  const { hostname, port } = upstreams[turn++ % upstreams.length];
  const upstream = connect({ host: hostname, port: Number(port), noDelay: true });
  client.pipe(upstream).pipe(client);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
}).listen(Number(values.port), '127.0.0.1', () =>
  process.stderr.write(`balancing ${upstreams.length} upstream(s) on http://127.0.0.1:${values.port}\n`),
);
