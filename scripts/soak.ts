// Soak test (not part of `npm test`): drives a mix of valid and invalid traffic at the mock for a
// set time and prints its resident memory over time. Flat RSS, apart from the stored plants,
// means nothing leaks (the journal is a ring buffer, logs are not kept).
//   node scripts/soak.ts [--seconds 60] [--connections 20] [--no-creates]
// --no-creates sends only refused requests: nothing is stored, so RSS must stay flat.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const seconds = arg('seconds', 60);
const connections = arg('connections', 20);

const child = spawn(process.execPath, ['bin/plantstore.js', 'mock', '--port', '0', '--quiet'], {
  stdio: ['ignore', 'ignore', 'pipe'],
});
const url = await new Promise<string>((resolve, reject) => {
  let err = '';
  child.stderr.on('data', (chunk) => {
    err += chunk;
    const found = /on (http:\/\/\S+)/.exec(err);
    if (found) resolve(found[1]);
  });
  child.on('exit', () => reject(new Error(`mock exited: ${err}`)));
});
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

const agent = new Agent({ connections });
const bodies = [
  (i: number) => ({
    status: 200,
    body: `{"id":${9007199254740993n + BigInt(i)},"name":"soak"}`,
    auth: 'Bearer soak-token',
  }),
  () => ({ status: 400, body: '{"id":"x"}', auth: 'Bearer soak-token' }),
  () => ({ status: 401, body: '{"id":1,"name":"a"}', auth: '' }),
  () => ({ status: 400, body: '{"id":1,', auth: 'Bearer soak-token' }),
];
if (process.argv.includes('--no-creates')) bodies.shift();
let sent = 0;
let unexpected = 0;
const until = Date.now() + seconds * 1000;
const worker = async () => {
  while (Date.now() < until) {
    const n = sent++;
    const pick = bodies[n % bodies.length](n);
    const answer = await request(`${url}/plants`, {
      dispatcher: agent,
      method: 'POST',
      body: pick.body,
      headers: { 'content-type': 'application/json', ...(pick.auth ? { authorization: pick.auth } : {}) },
    });
    await answer.body.dump();
    if (answer.statusCode !== pick.status) unexpected++;
  }
};
console.log(`soak: ${seconds}s, ${connections} connections, against ${url}`);
console.log('  t(s)   requests   RSS(MB)');
const started = Date.now();
const timer = setInterval(
  () =>
    console.log(
      `${String(Math.round((Date.now() - started) / 1000)).padStart(6)} ${String(sent).padStart(10)} ${rssMb().toFixed(1).padStart(9)}`,
    ),
  5000,
);
await Promise.all(Array.from({ length: connections }, worker));
clearInterval(timer);
console.log(
  `done: ${sent} requests, ${unexpected} unexpected statuses, final RSS ${rssMb().toFixed(1)} MB (stored plants: ${process.argv.includes('--no-creates') ? 0 : Math.ceil(sent / 4)})`,
);
await agent.close();
child.kill('SIGTERM');
